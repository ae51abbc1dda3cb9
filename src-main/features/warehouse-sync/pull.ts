import { WarehouseSyncErrorCodes as Codes, type PullResult, type StartPullInput } from '../../../src-shared/api/warehouse-sync';
import type { PulledSemanticView } from '../../../src-shared/model/generate/model-from-semantic-view';
import type { ServiceContext } from '../../context';
import { JobFailure, yieldToEventLoop, type Job, type JobContext } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { commitFiles, getBranchHead, modelRepositoryDir, type Signature } from '../data-model';
import { appendDeploymentLog, getDeployBranch } from '../deployments';
import { openWarehouseConnector, warehouseDataSource, warehouseFailure } from './warehouse';

export const PULL_KIND = 'warehouse-semantic-view-pull';

/** Folders the model compiler reads. */

export interface PullJobInputs {
  request: StartPullInput;
  branchName: string;
  dataSourceName: string;
  /** Folder the files go to, normalised. */
  outputPath: string;
  /** Commit author: the user who started the pull. */
  author: Signature;
}

export type PullJobResult = Omit<PullResult, 'syncJobId' | 'completedAt' | 'durationMs' | 'viewCount'>;


/** `*` matches any run of characters; the rest literally, ignoring case (unquoted names are stored upper-case). */
export function namePattern(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

const logSourceOf = (ctx: ServiceContext, deploymentId: number, branch: string) => (getDeployBranch(ctx, deploymentId) === branch ? 'production' : 'dev');

/** Runs a pull: list → describe → model files → one commit on the branch. */
export async function runPull(ctx: ServiceContext, job: Job<PullJobInputs>, jobCtx: JobContext): Promise<PullJobResult> {
  const { request, branchName, dataSourceName, outputPath, author } = job.inputs;
  const deploymentId = job.deploymentId!;
  const log = (level: 'info' | 'error', message: string) =>
    appendDeploymentLog(ctx, deploymentId, { source: logSourceOf(ctx, deploymentId, branchName), container: 'MAIN', level, message });
  try {
    jobCtx.progress('connecting', 5);
    let dataSource;
    try {
      dataSource = warehouseDataSource(ctx, deploymentId, dataSourceName);
    } catch (error) {
      const e = error as { code?: string; detail?: string; status?: number };
      throw new JobFailure(e.code ?? 'DATA_SOURCE_NOT_FOUND', e.detail ?? String(error), { status: e.status ?? 422 });
    }
    const database = dataSource.database;
    const connector = await openWarehouseConnector(ctx, deploymentId, dataSource).catch((error: unknown) => {
      throw warehouseFailure(error, { dataSourceName });
    });
    const pulled: PulledSemanticView[] = [];
    try {
      jobCtx.progress('listing-views', 10);
      const available = await connector.listSemanticViews(database, request.schema).catch((error: unknown) => {
        throw warehouseFailure(error, { schema: request.schema });
      });
      const patterns = request.viewNames ?? ['*'];
      const missing = patterns.filter((p) => !p.includes('*') && !available.some((v) => namePattern(p).test(v.name)));
      if (missing.length > 0) {
        throw new JobFailure(
          Codes.SEMANTIC_VIEW_NOT_FOUND,
          `Schema ${database}.${request.schema} has no semantic view named ${missing.map((m) => `'${m}'`).join(', ')}` +
            `${available.length ? ` (it has: ${available.slice(0, 20).map((v) => v.name).join(', ')}${available.length > 20 ? ', …' : ''})` : ' (it has none)'}.`,
          { status: 404, details: { missing } },
        );
      }
      const selected = available.filter((v) => patterns.some((p) => namePattern(p).test(v.name)));
      jobCtx.log(`pulling ${selected.length} semantic view${selected.length === 1 ? '' : 's'} from ${database}.${request.schema}`);
      for (const [index, view] of selected.entries()) {
        await yieldToEventLoop();
        jobCtx.signal.throwIfAborted();
        const rows = await connector.describeSemanticView(database, request.schema, view.name).catch((error: unknown) => {
          throw warehouseFailure(error, { semanticViewName: view.name });
        });
        pulled.push({ database, schema: request.schema, name: view.name, rows });
        jobCtx.progress('describing-views', 10 + Math.floor((60 * (index + 1)) / Math.max(selected.length, 1)));
      }
    } finally {
      await connector.close().catch(() => undefined);
    }

    jobCtx.progress('generating-files', 75);
    // Stay clear of the cube and view names the branch defines outside the output folder
    // (compiled, and the files generated, on a compute thread).
    const files = await runCompute(
      ctx,
      'pulledModelFiles',
      {
        gitdir: await modelRepositoryDir(ctx, deploymentId),
        commit: await getBranchHead(ctx, deploymentId, branchName),
        outputPath,
        pulled,
        quotedIdentifiersIgnoreCase: dataSource.quotedIdentifiersIgnoreCase,
        dataSource: dataSource.name,
      },
      { signal: jobCtx.signal },
    );

    jobCtx.progress('committing', 90);
    jobCtx.signal.throwIfAborted();
    let commit: string | null = null;
    const statuses = new Map<string, 'added' | 'modified'>();
    if (files.length > 0) {
      const committed = await commitFiles(
        ctx,
        deploymentId,
        branchName,
        files.map((f) => ({ path: f.path, content: f.content })),
        `Pull ${files.length} semantic view${files.length === 1 ? '' : 's'} from ${database}.${request.schema} into ${outputPath}`,
        author,
      );
      if (committed.changed) commit = committed.commit;
      for (const change of committed.changes) if (change.status !== 'deleted') statuses.set(change.path, change.status);
    }
    log('info', `Pulled ${files.length} semantic view${files.length === 1 ? '' : 's'} from ${database}.${request.schema} into ${outputPath} on ${branchName}.`);
    for (const file of files) for (const warning of file.warnings) jobCtx.log(`${file.semanticView}: ${warning.message}`);
    return {
      branchName,
      commit,
      database,
      schema: request.schema,
      generatedFiles: files.map((f) => ({
        path: f.path,
        semanticViewName: f.semanticView,
        viewName: f.view,
        cubes: f.cubes,
        status: statuses.get(f.path) ?? 'unchanged',
        warnings: f.warnings,
      })),
    };
  } catch (error) {
    if (!jobCtx.signal.aborted) log('error', `Warehouse pull failed: ${(error as Error).message}`);
    throw error;
  }
}
