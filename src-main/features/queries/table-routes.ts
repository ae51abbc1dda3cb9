import * as contract from '../../../src-shared/api/queries';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';
import type { Api } from '../../http/route';
import { importTable, inspectTableFile, listEmulatorTables } from './tables';
import { listDataSourceSchemas } from './schemas';
import { runDataSourceSql } from './vendor-sql';

/** Listing needs deployment read; loading data changes the emulator, and SQL reads around policies: deployment edit (admin or developer). */
export function registerTableRoutes({ ctx, route }: Api): void {
  route(contract.listEmulatorTables, { access: ['deploymentRead'], credentials: DEPLOYMENT_READ_CREDENTIALS }, ({ params }) => listEmulatorTables(ctx, params.deploymentId, params.dataSource));
  route(contract.inspectTableFile, { access: ['deploymentEdit'], credentials: DEPLOYMENT_WRITE_CREDENTIALS }, ({ params, body, principal }) => inspectTableFile(ctx, params.deploymentId, principal, params.dataSource, body));
  // Reading data in the vendor's SQL goes past the model's access policies: deployment edit too.
  route(contract.runDataSourceSql, { access: ['deploymentEdit'], credentials: DEPLOYMENT_WRITE_CREDENTIALS }, ({ params, body, reply }) => {
    const cancel = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancel.abort();
    });
    return runDataSourceSql(ctx, params.deploymentId, params.dataSource, body, cancel.signal);
  });
  // Which schemas exist, to pick a push or publication target: those who set targets (SchemaUpdate).
  route(contract.listDataSourceSchemas, { access: ['schemaUpdate'], credentials: DEPLOYMENT_READ_CREDENTIALS }, ({ params, query }) =>
    listDataSourceSchemas(ctx, params.deploymentId, params.dataSource, query.catalog),
  );
  route(contract.importTable, { access: ['deploymentEdit'], credentials: DEPLOYMENT_WRITE_CREDENTIALS }, ({ params, body, principal }) => importTable(ctx, params.deploymentId, principal, params.dataSource, body));
}
