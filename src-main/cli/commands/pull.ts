// `drydock pull --schema S --output-path model/…`: a warehouse pull job (semantic views → model
// files committed to a branch).
import { warehouseSyncRoutes, type PullResult } from '../../../src-shared/api/warehouse-sync';
import type { ConnectionOptions } from '../api/connection';
import { getJobResult } from '../api/jobs';
import { followJob, withDeployment } from './common';

export interface PullOptions extends ConnectionOptions {
  schema: string;
  outputPath: string;
  view?: string[];
  branch?: string;
  dataSource?: string;
  wait: boolean;
  idempotencyKey?: string;
}

export default async function pull(options: PullOptions): Promise<number> {
  const ctx = await withDeployment(options);
  const { conn, out, deployment } = ctx;
  const started = await conn.client.call(warehouseSyncRoutes.startWarehouseSemanticViewPull, {
    params: { deploymentId: deployment.id },
    body: {
      schema: options.schema,
      outputPath: options.outputPath,
      ...(options.view?.length ? { viewNames: options.view } : {}),
      ...(options.branch ? { branchName: options.branch } : {}),
      ...(options.dataSource ? { dataSourceName: options.dataSource } : {}),
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    },
  });
  const ref = { kind: 'pull' as const, deploymentId: deployment.id, id: started.syncJobId };
  const outcome = await followJob(ctx, ref, { wait: options.wait });
  if (!outcome) return 0;
  const result = (await getJobResult(conn, ref)) as PullResult;
  out.result({ job: outcome.job, result });
  const commit = result.commit ? `committed ${result.commit.slice(0, 12)} to ${result.branchName}` : `nothing changed on ${result.branchName}`;
  out.line(`Pulled ${result.viewCount} semantic view${result.viewCount === 1 ? '' : 's'} from ${result.database}.${result.schema}; ${commit}:`);
  out.table(result.generatedFiles, [
    { key: 'path', title: 'FILE' },
    { key: 'semanticViewName', title: 'SEMANTIC VIEW' },
    { key: 'status', title: 'STATUS' },
  ]);
  return 0;
}
