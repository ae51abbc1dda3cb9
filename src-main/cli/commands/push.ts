// `drydock push VIEW… --schema S`: a warehouse semantic view push job.
import { dataModelRoutes, type FileList } from '../../../src-shared/api/data-model';
import { warehouseSyncRoutes, type PushResult } from '../../../src-shared/api/warehouse-sync';
import { deploymentsRoutes } from '../../../src-shared/api/deployments';
import { compileModel, isModelSourcePath, viewDataSources, type ModelFile } from '../../../src-shared/model';
import type { ConnectionOptions } from '../api/connection';
import { getJobResult } from '../api/jobs';
import { listAll } from '../api/resolve';
import { CliError } from '../output';
import { followJob, withDeployment, type CommandContext } from './common';

export interface PushOptions extends ConnectionOptions {
  all?: boolean;
  schema: string;
  prefix: string;
  branch?: string;
  helperViewSchema?: string;
  wait: boolean;
  idempotencyKey?: string;
}

/**
 * Views of a branch on the deployment's warehouse data sources, compiled here from its model files
 * (the API has no list of views). Views of a lakehouse data source are published, not pushed.
 */
async function viewsOfBranch(ctx: CommandContext, deploymentId: number, branch: string | undefined): Promise<string[]> {
  const params = { deploymentId };
  const settings = await ctx.conn.client.call(deploymentsRoutes.getDeploymentSettings, { params });
  const warehouses = new Set(settings.dataSources.filter((d) => d.kind === 'warehouse').map((d) => d.name.toLowerCase()));
  const branchQuery = branch ? { branchName: branch } : {};
  // Every file's text, a few pages for the whole branch, however many files it has: views compiled
  // from part of the model would be wrong.
  const listing = await listAll(
    async (after) =>
      (await ctx.conn.client.call(dataModelRoutes.getDataModelFiles, { params, query: { ...branchQuery, first: 1000, content: true, ...(after ? { after } : {}) } })) as FileList,
    Infinity,
  );
  const files: ModelFile[] = listing.flatMap((f) => (isModelSourcePath(f.path) && f.content !== undefined ? [{ path: f.path, content: f.content }] : []));
  const { model } = compileModel(files);
  return Object.keys(model.views)
    .filter((view) => viewDataSources(model, view).every((ds) => warehouses.has(ds.toLowerCase())))
    .sort();
}

export default async function push(options: PushOptions, views: string[] = []): Promise<number> {
  if (views.length === 0 && !options.all) throw new CliError('VIEWS_REQUIRED', 'Name the model views to push, or pass --all.');
  if (views.length > 0 && options.all) throw new CliError('VIEWS_CONFLICT', 'Name views or pass --all, not both.');
  const ctx = await withDeployment(options);
  const { conn, out, deployment } = ctx;
  let viewNames = views;
  if (options.all) {
    ctx.progress.update('Reading the views of the branch…');
    viewNames = await viewsOfBranch(ctx, deployment.id, options.branch).finally(() => ctx.progress.stop());
    if (viewNames.length === 0) throw new CliError('NO_VIEWS', `The branch ${options.branch ?? deployment.deployBranch} has no views on a warehouse data source to push.`);
  }
  const started = await conn.client.call(warehouseSyncRoutes.startWarehouseSemanticViewSync, {
    params: { deploymentId: deployment.id },
    body: {
      schema: options.schema,
      prefix: options.prefix,
      viewNames,
      ...(options.branch ? { branchName: options.branch } : {}),
      ...(options.helperViewSchema ? { helperViewSchema: options.helperViewSchema } : {}),
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    },
  });
  const ref = { kind: 'push' as const, deploymentId: deployment.id, id: started.syncJobId };
  const outcome = await followJob(ctx, ref, { wait: options.wait });
  if (!outcome) return 0;
  const result = (await getJobResult(conn, ref)) as PushResult;
  out.result({ job: outcome.job, result });
  out.line(`Pushed ${result.viewCount} view${result.viewCount === 1 ? '' : 's'} to ${result.database}.${result.schema} from ${result.branchName} at ${result.commit.slice(0, 12)}:`);
  out.table(
    result.views.map((v) => ({ ...v, skippedText: v.skipped.map((s) => s.feature).join(', ') || '-' })),
    [
      { key: 'viewName', title: 'VIEW' },
      { key: 'qualifiedName', title: 'SEMANTIC VIEW' },
      { key: 'action', title: 'ACTION' },
      { key: 'skippedText', title: 'SKIPPED' },
    ],
  );
  return 0;
}
