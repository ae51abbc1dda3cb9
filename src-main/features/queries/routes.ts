import * as contract from '../../../src-shared/api/queries';
import { DEPLOYMENT_READ_CREDENTIALS } from '../../http/credentials';
import type { Api } from '../../http/route';
import { dataApiLoad, dataApiMeta, dataApiSql, type DataApiScope } from './data-api';
import { cancelPreviewRun, getPreviewRun, startPreviewRun } from './preview';
import { registerTableRoutes } from './table-routes';

/**
 * Data API on the deploy branch: deployment read, also for deployment and environment tokens of the
 * deployment. Dev-mode branches and previews also read the model: SchemaRead.
 */
const DATA_CREDENTIALS = [...DEPLOYMENT_READ_CREDENTIALS, 'environmentToken' as const];
const READ = { access: ['deploymentRead' as const], credentials: DATA_CREDENTIALS };
const READ_MODEL = { access: ['deploymentRead' as const, 'schemaRead' as const], credentials: DATA_CREDENTIALS };
const PREVIEW = { access: ['deploymentRead' as const, 'schemaRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };

export function registerQueryRoutes(api: Api): void {
  const { ctx, route } = api;
  const deployed = (p: { deploymentId: number }): DataApiScope => ({ deploymentId: p.deploymentId });
  const dev = (p: { deploymentId: number; branchName: string }): DataApiScope => ({ deploymentId: p.deploymentId, branch: p.branchName });

  const d = contract.deploymentDataApi;
  route(d.load, READ, ({ params, query, principal }) => dataApiLoad(ctx, principal, deployed(params), query.query, query.queryType));
  route(d.loadPost, READ, ({ params, body, principal }) => dataApiLoad(ctx, principal, deployed(params), body.query, body.queryType));
  route(d.sql, READ, ({ params, query, principal }) => dataApiSql(ctx, principal, deployed(params), query.query) as never);
  route(d.sqlPost, READ, ({ params, body, principal }) => dataApiSql(ctx, principal, deployed(params), body.query) as never);
  route(d.meta, READ, ({ params, query, principal }) => dataApiMeta(ctx, principal, deployed(params), { onlyViews: query.onlyViews }));

  const v = contract.devModeDataApi;
  route(v.load, READ_MODEL, ({ params, query, principal }) => dataApiLoad(ctx, principal, dev(params), query.query, query.queryType));
  route(v.loadPost, READ_MODEL, ({ params, body, principal }) => dataApiLoad(ctx, principal, dev(params), body.query, body.queryType));
  route(v.sql, READ_MODEL, ({ params, query, principal }) => dataApiSql(ctx, principal, dev(params), query.query) as never);
  route(v.sqlPost, READ_MODEL, ({ params, body, principal }) => dataApiSql(ctx, principal, dev(params), body.query) as never);
  route(v.meta, READ_MODEL, ({ params, query, principal }) => dataApiMeta(ctx, principal, dev(params), { onlyViews: query.onlyViews }));

  route(contract.startQueryRun, PREVIEW, ({ params, body, principal }) => startPreviewRun(ctx, params.deploymentId, principal, body));
  route(contract.getQueryRun, PREVIEW, ({ params, query, principal }) => getPreviewRun(ctx, params.deploymentId, principal, params.runId, query.waitMs));
  route(contract.cancelQueryRun, PREVIEW, ({ params, principal }) => cancelPreviewRun(ctx, params.deploymentId, principal, params.runId));

  registerTableRoutes(api);
}
