import { createReadStream, rmSync } from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import * as contract from '../../../src-shared/api/dashboard-exports';
import type { Principal } from '../../http/auth';
import { REPLY_SENT, type Api, type ReplySent, type RouteOptions } from '../../http/route';
import { getJobRunner } from '../../platform/jobs';
import { onDeploymentDeleted } from '../deployments';
import { cancelExport, EXPORT_KIND, exportFile, exportsDir, getExport, removeExportFile, runExport, startExport, type ExportJobInputs, type ExportJobResult } from './exports';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

interface Args<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
  reply: FastifyReply;
}

/** Deployment read; manage access to the workbook (or admin for `renderAs`) is checked on start. */
const READ: RouteOptions = { access: ['deploymentRead'] };

export function registerDashboardExportRoutes(api: Api): void {
  const { ctx } = api;
  const runner = getJobRunner(ctx);
  if (!runner.isRegistered(EXPORT_KIND)) {
    runner.register<ExportJobInputs, ExportJobResult>(EXPORT_KIND, (job, jobCtx) => runExport(ctx, job, jobCtx), {
      concurrency: 2,
      maxAttempts: 2,
      // Spec, Limits: the job and its file live 5 minutes after submission.
      retentionMs: contract.EXPORT_LIFETIME_MS,
      retentionFrom: 'created',
      onExpire: (job) => removeExportFile(ctx, job),
    });
  }
  // The deployment's rows (and jobs) go with it; its files on disk go here.
  onDeploymentDeleted(ctx, (deploymentId) => rmSync(exportsDir(ctx, deploymentId), { recursive: true, force: true }));

  const route = <D extends RouteDef>(def: D, handler: (args: Args<D>) => ResponseOf<D> | ReplySent | Promise<ResponseOf<D> | ReplySent>) =>
    api.route(def, { ...READ, credentials: def.method === 'GET' ? DEPLOYMENT_READ_CREDENTIALS : DEPLOYMENT_WRITE_CREDENTIALS }, handler as never);

  route(contract.startDashboardExport, ({ params, body, principal }) => startExport(ctx, params.deploymentId, principal, body));
  route(contract.getDashboardExport, ({ params, principal }) => getExport(ctx, params.deploymentId, params.jobId, principal));
  route(contract.cancelDashboardExport, ({ params, principal }) => cancelExport(ctx, params.deploymentId, params.jobId, principal));
  route(contract.downloadDashboardExport, ({ params, principal, reply }) => {
    const file = exportFile(ctx, params.deploymentId, params.jobId, principal);
    reply
      .code(200)
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`)
      .header('cache-control', 'no-store')
      .send(createReadStream(file.path));
    return REPLY_SENT;
  });
}
