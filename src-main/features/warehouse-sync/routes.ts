import * as contract from '../../../src-shared/api/warehouse-sync';
import type { Api, RouteOptions } from '../../http/route';
import {
  cancelSyncJob,
  getPullResult,
  getPushResult,
  getSyncJob,
  listSyncJobs,
  registerWarehouseSyncJobs,
  startPull,
  startPush,
} from './sync-jobs';
import { DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

/**
 * Spec, Authentication 2 and 4: start needs SchemaUpdate and SQL Runner read; OAuth tokens need
 * `deployment.write` on every sync route, reads included (so not the read credentials).
 */
const START: RouteOptions = { access: ['schemaUpdate', 'sqlRunnerRead'], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
const READ: RouteOptions = { access: [{ anyOf: ['schemaRead', 'schemaUpdate'] }], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
const CANCEL: RouteOptions = { access: ['schemaUpdate'], credentials: DEPLOYMENT_WRITE_CREDENTIALS };

export function registerWarehouseSyncRoutes(api: Api): void {
  const { ctx, route } = api;
  registerWarehouseSyncJobs(ctx);

  route(contract.startWarehouseSemanticViewSync, START, ({ params, body, principal }) => startPush(ctx, params.deploymentId, body, principal));
  route(contract.listWarehouseSemanticViewSyncJobs, READ, ({ params, query }) =>
    listSyncJobs(ctx, params.deploymentId, { statuses: query.status, direction: query.direction }, { first: query.first, after: query.after }),
  );
  route(contract.getWarehouseSemanticViewSync, READ, ({ params }) => getSyncJob(ctx, params.deploymentId, params.syncJobId, 'push'));
  route(contract.getWarehouseSemanticViewSyncResult, READ, ({ params }) => getPushResult(ctx, params.deploymentId, params.syncJobId));
  route(contract.cancelWarehouseSemanticViewSync, CANCEL, ({ params }) => cancelSyncJob(ctx, params.deploymentId, params.syncJobId, 'push'));

  route(contract.startWarehouseSemanticViewPull, START, ({ params, body, principal }) => startPull(ctx, params.deploymentId, body, principal));
  route(contract.getWarehouseSemanticViewPull, READ, ({ params }) => getSyncJob(ctx, params.deploymentId, params.syncJobId, 'pull'));
  route(contract.getWarehouseSemanticViewPullResult, READ, ({ params }) => getPullResult(ctx, params.deploymentId, params.syncJobId));
  route(contract.cancelWarehouseSemanticViewPull, CANCEL, ({ params }) => cancelSyncJob(ctx, params.deploymentId, params.syncJobId, 'pull'));
}
