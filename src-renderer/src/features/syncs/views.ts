import { analyzeWarehousePush, viewDataSources, type CompiledModel } from '../../../../src-shared/model';

/**
 * The views of a branch's model, for the view pickers. The service has no list of views, so the
 * screen reads the branch's model files and compiles them with the same compiler the service uses.
 */
export interface ModelViewInfo {
  name: string;
  title: string | null;
  file: string;
  /** Public views are the ones `all` and pattern scopes publish. */
  public: boolean;
  /** The data sources of the view's cubes: a lakehouse integration publishes only views on its own. */
  dataSources: string[];
  pushable: boolean;
  /** Why the view cannot become a semantic view (empty when pushable). */
  pushIssues: string[];
  /** Features a push would leave out (rule 6). */
  skipped: string[];
  /** The cubes and views whose access policies a push would leave out: each push warns about them (issue 24). */
  droppedPolicies: string[];
}

export interface ModelViews {
  branchName: string;
  commit: string;
  views: ModelViewInfo[];
  /** Compile errors in the model (views may be missing when there are some). */
  errorCount: number;
}


/** What the views worker (views.worker.ts) answers for a branch's model files. */
export type ViewsAnswer = { views: ModelViewInfo[]; errorCount: number } | { failure: string };

export function viewsOf(model: CompiledModel): ModelViewInfo[] {
  return Object.values(model.views)
    .map((view) => {
      const push = analyzeWarehousePush(model, view.name);
      return {
        name: view.name,
        title: typeof view.title === 'string' ? view.title : null,
        file: view.file,
        public: view.public,
        dataSources: viewDataSources(model, view.name),
        pushable: push.pushable,
        pushIssues: push.issues.filter((d) => d.severity === 'error').map((d) => d.message),
        skipped: push.skipped,
        droppedPolicies: push.skippedDetails.find((d) => d.feature === 'access_policies')?.items ?? [],
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
