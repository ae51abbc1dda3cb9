// The semantic views pushes wrote and still stand for (the newest push of each), for what reads the
// model from outside (change review, issue 26). Pushes to a developer's own dev target are theirs
// alone and left out.
import type { ServiceContext } from '../../context';
import { getJobRunner } from '../../platform/jobs';
import { PUSH_KIND, type PushJobResult } from './push';

export interface PushedSemanticView {
  viewName: string;
  semanticView: string;
  branchName: string;
  syncJobId: string;
}

/** Completed pushes read, newest first: an older push of the same semantic view was replaced. */
const PUSHES_READ = 200;

export function currentPushedViews(ctx: ServiceContext, deploymentId: number): PushedSemanticView[] {
  const jobs = getJobRunner(ctx).list({ deploymentId, kinds: [PUSH_KIND], statuses: ['COMPLETED', 'PARTIAL'] }, { first: PUSHES_READ });
  const newest = new Map<string, PushedSemanticView>();
  for (const job of jobs.items) {
    const result = job.result as PushJobResult | null;
    if (!result || result.devTarget) continue;
    for (const view of result.views) {
      if (!newest.has(view.qualifiedName)) newest.set(view.qualifiedName, { viewName: view.viewName, semanticView: view.qualifiedName, branchName: result.branchName, syncJobId: job.id });
    }
  }
  return [...newest.values()];
}
