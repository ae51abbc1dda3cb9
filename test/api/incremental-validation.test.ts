// Validation keeps each branch's compiled model on a model shard and re-checks only what changed
// (issue "Responsive", item 4). What a user must never see: a stale answer. Each rule below changes
// the branch one way (a working edit, its revert, a commit, a deleted file) and validates again
// through the API; the kept model has to give what a fresh compile gives, dependants included.
// The kept models are bounded: least recently used branches are dropped.
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationResult } from '../../src-shared/api/data-model/shapes';
import { commitFiles } from '../../src-main/features/data-model';
import { MODEL_SHARD_YOUNG_GENERATION_MB, workerHeapMb } from '../../src-main/platform/workers/pools';
import { getWorkerPools, runOnModelShard } from '../../src-main/workers/run';
import { buildPath, createDeployment, ORDERS_YML, SALES_VIEW_YML, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';

const MAX_BRANCHES = 2;
let svc: TestService;
const AUTHOR = { name: 'Test', email: 'test@example.com' };

beforeAll(async () => {
  // Read by the model shard threads when they start (they inherit this process's environment).
  process.env.DRYDOCK_MODEL_CACHE_BRANCHES = String(MAX_BRANCHES);
  svc = await startWithSampleProject();
});
afterAll(async () => {
  delete process.env.DRYDOCK_MODEL_CACHE_BRANCHES;
  await svc.stop();
});

const validate = async (id: number, branch: string) => {
  const res = await svc.call('GET', `${buildPath(id)}/data-model/validate?branchName=${encodeURIComponent(branch)}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { valid: boolean; fileCount: number; diagnostics: { file: string; severity: string }[] };
};
const errorFiles = (result: Awaited<ReturnType<typeof validate>>) => [...new Set(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file))].sort();
/** The view includes `count`; a cube without it breaks the view, not the cube. */
const ORDERS_WITHOUT_COUNT = ORDERS_YML.replace('    measures:\n      - name: count\n        type: count\n', '');

describe('a kept model answers as a fresh compile would', () => {
  it('re-checks the dependants of an edited file: a view breaks when its cube loses a member, and recovers when it is back', async () => {
    const id = await createDeployment(svc);
    const branch = 'feature';
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: branch } })).status).toBeLessThan(300);
    expect((await validate(id, branch)).valid).toBe(true);

    await commitFiles(svc.ctx, id, branch, [{ path: 'model/cubes/orders.yml', content: ORDERS_WITHOUT_COUNT }], 'drop count', AUTHOR);
    const broken = await validate(id, branch);
    expect(broken.valid).toBe(false);
    // Only the unchanged view file is wrong now: it was re-checked because it depends on the cube.
    expect(errorFiles(broken)).toEqual(['model/views/sales.yml']);

    await commitFiles(svc.ctx, id, branch, [{ path: 'model/cubes/orders.yml', content: ORDERS_YML }], 'restore count', AUTHOR);
    expect(await validate(id, branch)).toMatchObject({ valid: true, fileCount: 2 });
  });

  it('follows working edits, their revert, a deleted file and a new one on a dev-mode branch', async () => {
    const id = await createDeployment(svc);
    const dev = await svc.call('POST', `${buildPath(id)}/dev-mode`);
    const branch = dev.body.branch?.branchName ?? dev.body.branchName;
    expect((await validate(id, branch)).valid).toBe(true);

    const put = (files: { path: string; content: string }[]) => svc.call('PUT', `${buildPath(id)}/data-model/files?branchName=${encodeURIComponent(branch)}`, { body: { files } });
    expect((await put([{ path: 'model/cubes/orders.yml', content: ORDERS_WITHOUT_COUNT }])).status).toBe(200);
    expect(errorFiles(await validate(id, branch))).toEqual(['model/views/sales.yml']);
    expect((await put([{ path: 'model/cubes/orders.yml', content: ORDERS_YML }])).status).toBe(200);
    expect((await validate(id, branch)).valid).toBe(true);

    // A new file that is broken is seen; deleting it is seen.
    expect((await put([{ path: 'model/cubes/broken.yml', content: 'cubes:\n  - name: [oops\n' }])).status).toBe(200);
    const withBroken = await validate(id, branch);
    expect(withBroken.fileCount).toBe(3);
    expect(errorFiles(withBroken)).toEqual(['model/cubes/broken.yml']);
    const removed = await svc.call('DELETE', `${buildPath(id)}/data-model/files?branchName=${encodeURIComponent(branch)}&path=${encodeURIComponent('model/cubes/broken.yml')}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    expect(await validate(id, branch)).toMatchObject({ valid: true, fileCount: 2 });
  });
});

describe('the answer', () => {
  it('is a ValidationResult naming the branch and its head commit, sent as JSON (it is serialised on the model shard)', async () => {
    const id = await createDeployment(svc);
    const branch = 'answer';
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: branch } })).status).toBeLessThan(300);
    const { commit } = await commitFiles(svc.ctx, id, branch, [{ path: 'model/cubes/orders.yml', content: ORDERS_WITHOUT_COUNT }], 'drop count', AUTHOR);
    for (let round = 0; round < 2; round++) {
      // The second answer comes from the kept model: the same bytes' worth.
      const res = await svc.call('GET', `${buildPath(id)}/data-model/validate?branchName=${branch}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Value.Errors(ValidationResult, res.body)).toEqual([]);
      expect(res.body).toMatchObject({ branchName: branch, commit, valid: false, fileCount: 2, errorCount: 1, warningCount: 0 });
      expect(res.body.diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: 'model/views/sales.yml' })]);
    }
  });

  it('follows a second file edited while the first edit stays, and the first edit undone while the second stays', async () => {
    const id = await createDeployment(svc);
    const dev = await svc.call('POST', `${buildPath(id)}/dev-mode`);
    const branch = dev.body.branch?.branchName ?? dev.body.branchName;
    const put = (files: { path: string; content: string }[]) => svc.call('PUT', `${buildPath(id)}/data-model/files?branchName=${encodeURIComponent(branch)}`, { body: { files } });
    const brokenView = SALES_VIEW_YML.replace('- status', '- no_such_member');
    expect((await validate(id, branch)).valid).toBe(true);
    expect((await put([{ path: 'model/views/sales.yml', content: brokenView }])).status).toBe(200);
    expect(errorFiles(await validate(id, branch))).toEqual(['model/views/sales.yml']);
    expect((await put([{ path: 'model/cubes/extra.yml', content: 'cubes:\n  - name: extra\n    sql_table: t\n    dimensions:\n      - name: x\n        sql: x\n        type: wrong\n' }])).status).toBe(200);
    expect(errorFiles(await validate(id, branch))).toEqual(['model/cubes/extra.yml', 'model/views/sales.yml']);
    expect((await put([{ path: 'model/views/sales.yml', content: SALES_VIEW_YML }])).status).toBe(200);
    const after = await validate(id, branch);
    expect(errorFiles(after)).toEqual(['model/cubes/extra.yml']);
    expect(after.fileCount).toBe(3);
  });
});

describe('memory is bounded', () => {
  it('keeps a model of more than 24 MiB compiled between validations (any model within the compiler\'s 128 MiB is kept)', async () => {
    const id = await createDeployment(svc);
    const branch = 'large';
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: branch } })).status).toBeLessThan(300);
    // 26 files of 1 MB: a long description each (cheap to compile, large to keep).
    const text = 'a long description of the cube. '.repeat(32 * 1024);
    const files = Array.from({ length: 26 }, (_, i) => ({ path: `model/cubes/big_${i}.yml`, content: `cubes:\n  - name: big_${i}\n    sql_table: t${i}\n    description: "${text}"\n` }));
    await commitFiles(svc.ctx, id, branch, files, 'large model', AUTHOR);
    expect((await validate(id, branch)).fileCount).toBe(28);
    const kept: { branches: string[]; sourceBytes: number }[] = [];
    for (let shard = 0; shard < getWorkerPools(svc.ctx).shardCount; shard++) kept.push(await runOnModelShard(svc.ctx, shard, 'stats', undefined as never));
    const holder = kept.find((stats) => stats.branches.includes(`${id}:${branch}`));
    expect(holder?.sourceBytes).toBeGreaterThan(26 * 1024 * 1024);
  });

  it(`model shards collect a compile's short-lived objects in a young generation of ${MODEL_SHARD_YOUNG_GENERATION_MB} MB (issue 28: V8's default added over 100 MB to the peak at 10,000 cubes, 6 MB made a cold validate slower)`, async () => {
    for (let shard = 0; shard < getWorkerPools(svc.ctx).shardCount; shard++) {
      const { resourceLimits } = await runOnModelShard(svc.ctx, shard, 'stats', undefined as never);
      expect(resourceLimits.maxYoungGenerationSizeMb).toBe(MODEL_SHARD_YOUNG_GENERATION_MB);
      expect(resourceLimits.maxOldGenerationSizeMb).toBe(workerHeapMb());
    }
  });


  it(`keeps at most ${MAX_BRANCHES} branches per model shard, dropping the least recently used, and still validates a dropped branch correctly`, async () => {
    const id = await createDeployment(svc);
    const branches = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
    for (const branch of branches) {
      expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: branch } })).status).toBeLessThan(300);
      expect((await validate(id, branch)).valid).toBe(true);
    }
    const shards = getWorkerPools(svc.ctx).shardCount;
    const kept: string[] = [];
    for (let shard = 0; shard < shards; shard++) {
      const stats = await runOnModelShard(svc.ctx, shard, 'stats', undefined as never);
      expect(stats.branches.length).toBeLessThanOrEqual(MAX_BRANCHES);
      kept.push(...stats.branches);
    }
    expect(kept.filter((key) => key.startsWith(`${id}:`)).length).toBeLessThan(branches.length);
    // The first branch was dropped somewhere along the way (or is about to be): validating it compiles it afresh, correctly.
    await commitFiles(svc.ctx, id, 'b1', [{ path: 'model/cubes/orders.yml', content: ORDERS_WITHOUT_COUNT }], 'drop count', AUTHOR);
    expect(errorFiles(await validate(id, 'b1'))).toEqual(['model/views/sales.yml']);
  });
});
