import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import * as contract from '../../../src-shared/api/transform-sync';
import type { Principal } from '../../http/auth';
import type { Api, RouteOptions } from '../../http/route';
import { getJobRunner } from '../../platform/jobs';
import { branchHistory, onBranchCommit } from '../data-model';
import { pathsChangedBy } from './git-source';
import {
  cancelTransformSync,
  getTransformSync,
  getTransformSyncLogs,
  getTransformSyncResult,
  listGeneratedFiles,
  listTransformSyncs,
  rerunAfterManifestCommit,
  runTransformSync,
  startTransformSync,
  TRANSFORM_SYNC_KIND,
  type TransformJobInputs,
  type TransformJobResult,
} from './sync';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

interface Args<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
}

/** Starting or cancelling writes model files: SchemaUpdate. Everything else needs read access. */
const WRITE: RouteOptions = { access: ['schemaUpdate'], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
const READ: RouteOptions = { access: ['deploymentRead'], credentials: DEPLOYMENT_READ_CREDENTIALS };

export function registerTransformSyncRoutes(api: Api): void {
  const { ctx } = api;
  const runner = getJobRunner(ctx);
  if (!runner.isRegistered(TRANSFORM_SYNC_KIND)) {
    runner.register<TransformJobInputs, TransformJobResult>(TRANSFORM_SYNC_KIND, (job, jobCtx) => runTransformSync(ctx, job, jobCtx), {
      concurrency: 2,
      maxAttempts: 3,
    });
  }
  // A commit that changes the manifest an earlier git sync of its branch read runs that sync again.
  onBranchCommit(ctx, (deploymentId, branch, commit) => {
    void rerunAfterManifestCommit(ctx, deploymentId, branch, async () => {
      const [head] = await branchHistory(ctx, deploymentId, branch, 1);
      if (!head || head.oid !== commit) return [];
      return pathsChangedBy(ctx, deploymentId, head.parents[0] ?? null, commit);
    }).catch((error: unknown) => ctx.log.warn('transform sync: re-run after a manifest commit failed', { deploymentId, branch, error: String(error) }));
  });

  const route = <D extends RouteDef>(def: D, options: RouteOptions, handler: (args: Args<D>) => ResponseOf<D> | Promise<ResponseOf<D>>) =>
    api.route(def, options, handler as never);

  route(contract.startTransformSync, WRITE, ({ params, body, principal }) => startTransformSync(ctx, params.deploymentId, body, principal));
  route(contract.listTransformSyncs, READ, ({ params, query }) =>
    listTransformSyncs(ctx, params.deploymentId, { statuses: query.status, trigger: query.trigger }, { first: query.first, after: query.after }),
  );
  route(contract.getTransformSync, READ, ({ params }) => getTransformSync(ctx, params.deploymentId, params.syncJobId));
  route(contract.cancelTransformSync, WRITE, ({ params }) => cancelTransformSync(ctx, params.deploymentId, params.syncJobId));
  route(contract.getTransformSyncResult, READ, ({ params }) => getTransformSyncResult(ctx, params.deploymentId, params.syncJobId));
  route(contract.getTransformSyncLogs, READ, ({ params, query }) =>
    getTransformSyncLogs(ctx, params.deploymentId, params.syncJobId, { first: query.first, after: query.after }),
  );
  route(contract.listTransformSyncGeneratedFiles, READ, ({ params, query }) =>
    listGeneratedFiles(ctx, params.deploymentId, params.syncJobId, { first: query.first, after: query.after }),
  );
}
