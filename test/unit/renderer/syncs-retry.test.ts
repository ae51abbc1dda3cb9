import { describe, expect, it } from 'vitest';
import type { SyncJob } from '../../../src-shared/api/warehouse-sync';
import { lakehouseReplay, offersRetry, transformReplay, warehouseReplay } from '../../../src-renderer/src/features/syncs/retry';

const KEY = '6f1c2a52-9d7e-4b3a-8c55-0d8b8f9a1e21';
const job = (over: Partial<Pick<SyncJob, 'direction' | 'request' | 'branchName' | 'dataSourceName'>>) => ({
  direction: 'push' as const,
  branchName: 'main',
  dataSourceName: null,
  request: { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['product_sales'], branchName: 'main', idempotencyKey: 'old-key' },
  ...over,
});
const exists = () => true;

describe('Retry of a failed job', () => {
  it('is offered on failed, partial and cancelled jobs only', () => {
    expect(['FAILED', 'PARTIAL', 'CANCELLED'].every(offersRetry)).toBe(true);
    expect(['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED'].some(offersRetry)).toBe(false);
  });

  it('sends a push’s request again with a fresh idempotency key (the old one would answer the failed job)', () => {
    const replay = warehouseReplay(job({ request: { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['a', 'b'], branchName: 'dev', helperViewSchema: 'HELPERS', idempotencyKey: 'old' } }), exists, KEY);
    expect(replay).toEqual({ ok: true, body: { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['a', 'b'], branchName: 'dev', helperViewSchema: 'HELPERS', idempotencyKey: KEY } });
  });

  it('sends a pull’s request again: schema, folder, names and data source as first sent', () => {
    const replay = warehouseReplay(
      job({ direction: 'pull', dataSourceName: 'default', request: { schema: 'PUBLIC', viewNames: ['SV_*'], outputPath: 'model/pulled', branchName: 'main' } }),
      exists,
      KEY,
    );
    expect(replay).toEqual({ ok: true, body: { schema: 'PUBLIC', viewNames: ['SV_*'], outputPath: 'model/pulled', branchName: 'main', dataSourceName: 'default', idempotencyKey: KEY } });
  });

  it('a pull of every view stays a pull of every view (no names sent)', () => {
    const replay = warehouseReplay(job({ direction: 'pull', request: { schema: 'PUBLIC', outputPath: 'model/pulled' } }), exists, KEY);
    expect(replay.ok && 'viewNames' in replay.body).toBe(false);
    expect(replay.ok && replay.body.branchName).toBe('main');
  });

  it('is refused, saying why, when the branch the job used is gone', () => {
    const replay = warehouseReplay(job({ request: { schema: 'PUBLIC', prefix: '', viewNames: ['a'], branchName: 'dev-gone' } }), (name) => name !== 'dev-gone', KEY);
    expect(replay).toEqual({ ok: false, reason: expect.stringMatching(/Branch “dev-gone” no longer exists/) });
  });

  it('is allowed while the branches are still loading (the service has the last word)', () => {
    expect(warehouseReplay(job({}), () => undefined, KEY).ok).toBe(true);
  });

  it('is refused when the stored request lacks what the start needs', () => {
    expect(warehouseReplay(job({ request: { schema: '', viewNames: ['a'] } }), exists, KEY)).toMatchObject({ ok: false, reason: expect.stringMatching(/no warehouse schema/) });
    expect(warehouseReplay(job({ request: { schema: 'PUBLIC', viewNames: [] } }), exists, KEY)).toMatchObject({ ok: false, reason: expect.stringMatching(/no model views/) });
    expect(warehouseReplay(job({ direction: 'pull', request: { schema: 'PUBLIC' } }), exists, KEY)).toMatchObject({ ok: false, reason: expect.stringMatching(/no folder/) });
  });

  it('a lakehouse run runs its settings version again only while that version is current', () => {
    expect(lakehouseReplay({ configurationVersion: 3 }, 3, KEY)).toEqual({ ok: true, body: { configurationVersion: 3, idempotencyKey: KEY } });
    expect(lakehouseReplay({ configurationVersion: 3 }, 4, KEY)).toEqual({ ok: false, reason: expect.stringMatching(/changed since this run \(version 3, now 4\)/) });
    expect(lakehouseReplay({ configurationVersion: 3 }, null, KEY).ok).toBe(false);
  });

  it('retries a dev run on its dev branch (so it writes to the per-user target again), a production run without a branch', () => {
    const devTarget = { ownerUserId: 2, userTag: 'ALICE', mode: 'schema-suffix' as const, template: '_DEV_{user}', requestedSchema: 'default', requestedPrefix: '', schema: 'default_dev_alice', prefix: '' };
    expect(lakehouseReplay({ configurationVersion: 3, branchName: 'dev/alice', devTarget }, 3, KEY)).toEqual({
      ok: true,
      body: { configurationVersion: 3, idempotencyKey: KEY, branchName: 'dev/alice' },
    });
    expect(lakehouseReplay({ configurationVersion: 3, branchName: 'main', devTarget: null }, 3, KEY)).toEqual({ ok: true, body: { configurationVersion: 3, idempotencyKey: KEY } });
  });
});

describe('Retry of a failed transform sync', () => {
  const gitSync = { source: 'git' as const, ref: null, manifestPath: 'target/manifest.json', branchName: 'main', output: 'branch' as const, outputPath: 'model/dbt', trigger: 'manual' as const };
  it('a sync that read its manifest from git runs again with the same branch, path and output', () => {
    expect(transformReplay(gitSync, () => true, KEY)).toEqual({
      ok: true,
      body: { source: 'git', branchName: 'main', manifestPath: 'target/manifest.json', output: 'branch', outputPath: 'model/dbt', idempotencyKey: KEY },
    });
    expect(transformReplay({ ...gitSync, ref: 'abc123' }, () => undefined, KEY)).toMatchObject({ ok: true, body: { ref: 'abc123' } });
  });

  it('is refused when its branch is gone, or when its manifest came in the request (not kept)', () => {
    expect(transformReplay(gitSync, () => false, KEY)).toEqual({ ok: false, reason: 'Branch “main” no longer exists, so the same sync cannot run again.' });
    const sent = transformReplay({ ...gitSync, source: 'manifest', manifestPath: null }, () => true, KEY);
    expect(sent.ok).toBe(false);
    expect(!sent.ok && sent.reason).toMatch(/manifest was sent with the request and is not kept/);
  });
});
