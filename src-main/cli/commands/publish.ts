// `drydock publish`: a lakehouse publication run of the deployed model (or, with --preview, a
// preview of what a run would do). A run that leaves some views unpublished (PARTIAL) exits 1.
import { isApiProblem } from '../../../src-shared/api/client';
import { lakehouseRoutes, type PreviewResult, type Run } from '../../../src-shared/api/lakehouse';
import type { ConnectionOptions } from '../api/connection';
import { getJobResult, lakehouseDataSources } from '../api/jobs';
import { CliError, ExitCodes } from '../output';
import { followJob, withDeployment, type CommandContext } from './common';

export interface PublishOptions extends ConnectionOptions {
  dataSource?: string;
  preview?: boolean;
  wait: boolean;
  idempotencyKey?: string;
}

/** The data source named, else the only lakehouse data source with publication settings (for a preview: the only lakehouse). */
async function chooseDataSource(ctx: CommandContext, deploymentId: number, named: string | undefined, forPreview: boolean): Promise<string> {
  if (named) return named;
  const lakehouses = await lakehouseDataSources(ctx.conn, deploymentId);
  // A preview can name its target itself; with one lakehouse there is nothing to choose.
  if (forPreview && lakehouses.length === 1) return lakehouses[0]!;
  const configured: string[] = [];
  for (const dataSourceName of lakehouses) {
    try {
      await ctx.conn.client.call(lakehouseRoutes.getLakehouseMetricViewIntegration, { params: { deploymentId, dataSourceName } });
      configured.push(dataSourceName);
    } catch (error) {
      if (!(isApiProblem(error) && error.status === 404)) throw error;
    }
  }
  if (configured.length === 1) return configured[0]!;
  if (configured.length === 0) {
    throw new CliError('LAKEHOUSE_NOT_CONFIGURED', `Deployment ${deploymentId} has no lakehouse data source with publication settings; save them first (Syncs screen or PUT …/lakehouse-metric-view-integrations/NAME).`);
  }
  throw new CliError('DATA_SOURCE_REQUIRED', `Several lakehouse data sources publish (${configured.join(', ')}); pick one with --data-source.`);
}

const reasonsOf = (issues: { code: string }[]) => [...new Set(issues.map((i) => i.code))].join(', ') || '-';

async function preview(ctx: CommandContext, deploymentId: number, dataSourceName: string, wait: boolean): Promise<number> {
  const started = await ctx.conn.client.call(lakehouseRoutes.startLakehouseMetricViewPreview, { params: { deploymentId }, body: { dataSourceName } });
  const ref = { kind: 'preview' as const, deploymentId, id: started.previewId };
  const outcome = await followJob(ctx, ref, { wait });
  if (!outcome) return 0;
  const result = (await getJobResult(ctx.conn, ref)) as PreviewResult;
  ctx.out.result({ job: outcome.job, result });
  ctx.out.line(`A run of ${dataSourceName} would publish (build ${result.buildJobId}, commit ${result.commit.slice(0, 12)}):`);
  ctx.out.table(
    result.views.map((v) => ({ ...v, why: reasonsOf(v.blockedReasons) })),
    [
      { key: 'viewName', title: 'VIEW' },
      { key: 'target', title: 'TARGET' },
      { key: 'outcome', title: 'OUTCOME' },
      { key: 'action', title: 'ACTION' },
      { key: 'why', title: 'BLOCKED BY' },
    ],
  );
  return 0;
}

export default async function publish(options: PublishOptions): Promise<number> {
  const ctx = await withDeployment(options);
  const { conn, out, deployment } = ctx;
  const dataSourceName = await chooseDataSource(ctx, deployment.id, options.dataSource, Boolean(options.preview));
  if (options.preview) return preview(ctx, deployment.id, dataSourceName, options.wait);
  const params = { deploymentId: deployment.id, dataSourceName };
  const settings = await conn.client.call(lakehouseRoutes.getLakehouseMetricViewIntegration, { params });
  const started = await conn.client.call(lakehouseRoutes.startLakehouseMetricViewSync, {
    params,
    body: { configurationVersion: settings.configurationVersion, ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}) },
  });
  const ref = { kind: 'publish' as const, deploymentId: deployment.id, id: started.runId, dataSourceName };
  const outcome = await followJob(ctx, ref, { wait: options.wait, allowPartial: true });
  if (!outcome) return 0;
  const run = (await getJobResult(conn, ref)) as Run;
  const failed = run.views.filter((v) => !['created', 'updated', 'unchanged', 'retained_obsolete'].includes(v.outcome));
  const partial = run.status === 'PARTIAL';
  const failure = partial ? { code: 'PUBLICATION_PARTIAL', detail: `${failed.length} of ${run.views.length} views did not publish.` } : null;
  out.result({ job: outcome.job, result: run, ...(failure ? { error: failure } : {}) });
  const counts = Object.entries(run.outcomeCounts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  out.line(`Publication run ${run.runId} of ${dataSourceName} ${run.status} (${counts || 'no views'}), build ${run.buildJobId ?? '-'}:`);
  out.table(
    run.views.map((v) => ({ ...v, why: reasonsOf(v.reasons) })),
    [
      { key: 'viewName', title: 'VIEW' },
      { key: 'target', title: 'TARGET' },
      { key: 'outcome', title: 'OUTCOME' },
      { key: 'why', title: 'REASONS' },
    ],
  );
  if (failure) {
    out.note(`${failure.code}: ${failure.detail}`);
    return ExitCodes.FAILURE;
  }
  return 0;
}
