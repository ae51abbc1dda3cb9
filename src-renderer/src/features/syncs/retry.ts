// Retry of a failed push, pull, lakehouse run or transform sync (issue 14 item 8): the same request submitted again
// as a new job. Pure decisions (unit-tested): whether a job's request can be replayed, and the body to send, or the
// reason shown on the disabled Retry button.
import type { StartPullInput, StartPushInput, SyncJob } from '../../../../src-shared/api/warehouse-sync';
import type { RunSummary } from '../../../../src-shared/api/lakehouse';
import type { StartTransformSyncInput, TransformSyncJob } from '../../../../src-shared/api/transform-sync';
import type { Replay } from '../../lib/retry';

export { offersRetry, type Replay } from '../../lib/retry';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;

/**
 * The start request of a warehouse push or pull, as first sent, with a fresh idempotency key (the
 * old one would return the failed job again). Its branch, schema, views and paths are the same.
 */
export function warehouseReplay(
  job: Pick<SyncJob, 'direction' | 'request' | 'branchName' | 'dataSourceName'>,
  branchExists: (name: string) => boolean | undefined,
  idempotencyKey: string,
): Replay<StartPushInput | StartPullInput> {
  const r = job.request;
  const schema = text(r.schema);
  if (!schema) return { ok: false, reason: 'Its request names no warehouse schema, so it cannot be sent again; start a new one instead.' };
  const branchName = text(r.branchName) ?? job.branchName;
  if (branchExists(branchName) === false) return { ok: false, reason: `Branch “${branchName}” no longer exists, so the same request cannot run again.` };
  if (job.direction === 'push') {
    const viewNames = strings(r.viewNames) ?? [];
    if (viewNames.length === 0) return { ok: false, reason: 'Its request names no model views, so it cannot be sent again; start a new push instead.' };
    const helperViewSchema = text(r.helperViewSchema);
    return {
      ok: true,
      body: { schema, prefix: typeof r.prefix === 'string' ? r.prefix : '', viewNames, branchName, idempotencyKey, ...(helperViewSchema ? { helperViewSchema } : {}) },
    };
  }
  const outputPath = text(r.outputPath);
  if (!outputPath) return { ok: false, reason: 'Its request names no folder for the files, so it cannot be sent again; start a new pull instead.' };
  const viewNames = strings(r.viewNames);
  const dataSourceName = text(r.dataSourceName) ?? job.dataSourceName ?? undefined;
  return {
    ok: true,
    body: { schema, outputPath, branchName, idempotencyKey, ...(viewNames ? { viewNames } : {}), ...(dataSourceName ? { dataSourceName } : {}) },
  };
}

/**
 * A lakehouse publication run reads the integration's settings of one version: it can run again
 * only while those settings are still the current ones (the service refuses an older version).
 */
export function lakehouseReplay(
  run: Pick<RunSummary, 'configurationVersion'> & Partial<Pick<RunSummary, 'branchName' | 'devTarget'>>,
  currentVersion: number | null,
  idempotencyKey: string,
): Replay<{ configurationVersion: number; idempotencyKey: string; branchName?: string }> {
  if (currentVersion === null) return { ok: false, reason: 'The publication settings of this data source are not loaded or no longer exist.' };
  if (currentVersion !== run.configurationVersion) {
    return {
      ok: false,
      reason: `The publication settings changed since this run (version ${run.configurationVersion}, now ${currentVersion}); publish again from the settings instead.`,
    };
  }
  // A dev run is retried on its dev branch (into the same per-user target), never on production.
  return { ok: true, body: { configurationVersion: run.configurationVersion, idempotencyKey, ...(run.devTarget && run.branchName ? { branchName: run.branchName } : {}) } };
}

/**
 * A transform sync read its dbt manifest from the repository (`source: git`) or got it in the
 * request (`source: manifest`). A git sync runs again with the same branch, ref, manifest path and
 * output while its branch exists; a manifest sent in the request is not kept, so that run cannot
 * be sent again.
 */
export function transformReplay(
  job: Pick<TransformSyncJob, 'source' | 'ref' | 'manifestPath' | 'branchName' | 'output' | 'outputPath' | 'trigger'>,
  branchExists: (name: string) => boolean | undefined,
  idempotencyKey: string,
): Replay<StartTransformSyncInput> {
  if (job.source === 'manifest') {
    return { ok: false, reason: 'Its dbt manifest was sent with the request and is not kept, so it cannot be sent again; start a new sync with the manifest.' };
  }
  if (branchExists(job.branchName) === false) return { ok: false, reason: `Branch “${job.branchName}” no longer exists, so the same sync cannot run again.` };
  return {
    ok: true,
    body: {
      source: 'git',
      branchName: job.branchName,
      ...(job.ref ? { ref: job.ref } : {}),
      ...(job.manifestPath ? { manifestPath: job.manifestPath } : {}),
      output: job.output,
      outputPath: job.outputPath,
      idempotencyKey,
    },
  };
}
