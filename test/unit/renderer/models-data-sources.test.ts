// The Models screen's push and publish checks and the deployment settings they read: a refusal (403)
// falls back to both checks, a transient failure is retried and, while the data sources are unknown,
// gives no findings the settings would not give (a "Lakehouse publish" warning on a warehouse view).
// And a branch is read whole, however many pages it takes. Driven through the store (openBranch) with the service's answers faked and the editor's compile
// session (the worker's code) run in-process.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProblem } from '../../../src-shared/api/client';
import type { RouteDef } from '../../../src-shared/api/contract';
import type { Diagnostic } from '../../../src-shared/model';
import { isTransient, withRetry } from '../../../src-renderer/src/lib/transient';

const fake = vi.hoisted(() => ({
  /** The service's answer to a settings read, one per call (the last one repeats). */
  settings: [] as (() => unknown)[],
  settingsReads: 0,
  call: null as unknown as (def: RouteDef, input: { params?: unknown; query?: Record<string, unknown> }) => Promise<unknown>,
}));

vi.mock('../../../src-renderer/src/app/session', () => ({
  api: { call: (def: RouteDef, input: { params?: unknown; query?: Record<string, unknown> }) => fake.call(def, input) },
  useSession: { getState: () => ({ status: 'ready', me: null }) },
}));
vi.mock('../../../src-renderer/src/app/endpoint', () => ({ onServiceChange: () => undefined, registerLeaveGuard: () => undefined }));
vi.mock('../../../src-renderer/src/lib/live', () => ({ onLiveEvent: () => undefined }));
// The worker, run in-process: the same compile session, answering synchronously.
vi.mock('../../../src-renderer/src/features/models/compiler', async () => {
  const { CompileSession } = await import('../../../src-renderer/src/features/models/compile-session');
  const { EMPTY_SYMBOLS } = await import('../../../src-renderer/src/features/models/protocol');
  const EMPTY_ANALYSIS = { diagnostics: [], symbols: EMPTY_SYMBOLS, valid: true, fileCount: 0, elapsedMs: 0, recheckedEntities: 0, pending: false, failure: null, ready: false };
  class CompilerClient {
    private readonly session = new CompileSession();
    private seq = 0;
    constructor(private readonly publish: (analysis: unknown) => void) {}
    private answer(result: { diagnostics: Diagnostic[]; valid: boolean; fileCount: number }) {
      this.publish({ ...EMPTY_ANALYSIS, diagnostics: result.diagnostics, valid: result.valid, fileCount: result.fileCount, ready: true });
    }
    reset(files: { path: string; content: string }[], _keep: boolean, sources: never) {
      this.answer(this.session.handle({ type: 'reset', seq: ++this.seq, files, sources }));
    }
    setSources(sources: never) {
      this.answer(this.session.handle({ type: 'sources', seq: ++this.seq, sources }));
    }
    change() {}
    flush() {}
  }
  return { CompilerClient, EMPTY_ANALYSIS, COMPILE_DEBOUNCE_MS: 150, mergeSymbols: () => EMPTY_SYMBOLS };
});

const { useModels } = await import('../../../src-renderer/src/features/models/store');

const SAMPLE = join(import.meta.dirname, '../../../resources/sample-project');
const files: { path: string; content: string }[] = [];
for (const folder of ['model/cubes', 'model/views']) {
  for (const name of readdirSync(join(SAMPLE, folder)).sort()) files.push({ path: `${folder}/${name}`, content: readFileSync(join(SAMPLE, folder, name), 'utf8') });
}

/** The sample deployment: its `default` data source a warehouse, `lake` a lakehouse. */
const SETTINGS = {
  dataSources: [
    { name: 'default', kind: 'warehouse', catalog: null },
    { name: 'lake', kind: 'lakehouse', catalog: 'main' },
  ],
};
const problem = (status: number, code = `HTTP_${status}`) => () => {
  throw new ApiProblem({ status, code, detail: `status ${status}`, operationId: 'getDeploymentSettings' });
};

let deploymentId = 100;
/** The files of the branch the fake service answers. */
let branchFiles = files;

beforeEach(() => {
  vi.useFakeTimers();
  branchFiles = files;
  fake.settings = [];
  fake.settingsReads = 0;
  fake.call = async (def, input) => {
    if (def.operationId === 'getDeploymentSettings') {
      const answer = fake.settings[Math.min(fake.settingsReads, fake.settings.length - 1)];
      fake.settingsReads += 1;
      return answer();
    }
    if (def.operationId === 'getDataModelFiles') {
      const path = input.query?.path as string | undefined;
      if (path) return { path, content: branchFiles.find((f) => f.path === path)!.content, sha256: `sha-${path}` };
      // Paged as the service pages (the cursor here: the index to go on from).
      const withContent = input.query?.content === true;
      const from = Number(input.query?.after ?? 0);
      const page = branchFiles.slice(from, from + Number(input.query?.first ?? 100));
      const next = from + page.length;
      return {
        items: page.map((f) => ({ path: f.path, size: f.content.length, sha256: `sha-${f.path}`, ...(withContent ? { content: f.content } : {}) })),
        pageInfo: { hasNextPage: next < branchFiles.length, endCursor: String(next) },
      };
    }
    throw new Error(`unexpected call ${def.operationId}`);
  };
  // A deployment not read before (the store keeps what it read for the session).
  deploymentId += 1;
  useModels.setState({ deploymentId, branchName: null, files: [], saved: {}, buffers: {}, versions: {} });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Opens the deploy branch and lets the retries' waits pass. */
async function openSample(waitMs = 0) {
  await useModels.getState().openBranch('main');
  if (waitMs > 0) await vi.advanceTimersByTimeAsync(waitMs);
}
const codes = () => useModels.getState().analysis.diagnostics.map((d) => d.code);
const publishFindings = () => useModels.getState().analysis.diagnostics.filter((d) => d.code === 'MODEL_NOT_PUBLISHABLE' || d.code === 'MODEL_METADATA_NOT_REPRESENTABLE');

describe('the push and publish checks and the deployment settings they read', () => {
  it('with the settings read, a warehouse view is checked for a push only', async () => {
    fake.settings = [() => SETTINGS];
    await openSample();
    expect(codes()).toEqual(['MODEL_NOT_PUSHABLE']);
    expect(useModels.getState().analyzersHeld).toBeNull();
  });

  it('a 503 while reading the settings is retried and gives no lakehouse warnings', async () => {
    fake.settings = [problem(503), () => SETTINGS];
    await openSample();
    // Unknown for now: no finding of either check, and the panel says why.
    expect(publishFindings()).toEqual([]);
    expect(useModels.getState().analyzersHeld).toBe('reading');
    await vi.advanceTimersByTimeAsync(500);
    expect(fake.settingsReads).toBe(2);
    // Known now: the branch is checked again with them.
    expect(codes()).toEqual(['MODEL_NOT_PUSHABLE']);
    expect(useModels.getState().analyzersHeld).toBeNull();
  });

  it('a network error, a 429 and a 504 are each retried, with growing waits, and give no lakehouse warnings meanwhile', async () => {
    fake.settings = [problem(0, 'NETWORK_ERROR'), problem(429), problem(504), () => SETTINGS];
    await openSample();
    expect(publishFindings()).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(fake.settingsReads).toBe(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.settingsReads).toBe(2);
    expect(publishFindings()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 2000);
    expect(fake.settingsReads).toBe(4);
    expect(codes()).toEqual(['MODEL_NOT_PUSHABLE']);
  });

  it('a settings read that keeps failing is given up after four tries, holds the findings, and is read again with the next load', async () => {
    fake.settings = [problem(503)];
    await openSample(10_000);
    expect(fake.settingsReads).toBe(4);
    expect(useModels.getState().analysis.diagnostics).toEqual([]);
    expect(useModels.getState().analyzersHeld).toBe('unavailable');
    fake.settings = [() => SETTINGS];
    fake.settingsReads = 0;
    await openSample();
    expect(fake.settingsReads).toBe(1);
    expect(codes()).toEqual(['MODEL_NOT_PUSHABLE']);
  });

  it('a 403 falls back to both dialects, without retrying', async () => {
    fake.settings = [problem(403, 'FORBIDDEN')];
    await openSample(10_000);
    expect(fake.settingsReads).toBe(1);
    expect(codes()).toContain('MODEL_NOT_PUSHABLE');
    expect(codes()).toContain('MODEL_NOT_PUBLISHABLE');
    expect(useModels.getState().analyzersHeld).toBeNull();
  });

  it('another refusal (404) is not retried and gives no lakehouse warnings', async () => {
    fake.settings = [problem(404, 'DEPLOYMENT_NOT_FOUND')];
    await openSample(10_000);
    expect(fake.settingsReads).toBe(1);
    expect(publishFindings()).toEqual([]);
    expect(useModels.getState().analyzersHeld).toBe('unavailable');
  });

  it('settings read once are kept: another load of the deployment reads them no more', async () => {
    fake.settings = [() => SETTINGS];
    await openSample();
    await openSample();
    expect(fake.settingsReads).toBe(1);
    expect(codes()).toEqual(['MODEL_NOT_PUSHABLE']);
  });
});

describe('retry of a transient failure (lib/transient)', () => {
  it('tells transient failures from answers that would be the same next time', () => {
    const of = (status: number) => new ApiProblem({ status, code: 'X', detail: 'x', operationId: 'op' });
    expect([0, 408, 429, 500, 502, 503, 504].every((s) => isTransient(of(s)))).toBe(true);
    expect([400, 401, 403, 404, 409, 422].some((s) => isTransient(of(s)))).toBe(false);
    expect(isTransient(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(true);
    expect(isTransient(new TypeError('bad'))).toBe(false);
  });

  it('waits 500 ms, 1 s, 2 s between four tries and throws the last failure', async () => {
    const waits: number[] = [];
    let tries = 0;
    const failure = new ApiProblem({ status: 503, code: 'X', detail: 'x', operationId: 'op' });
    const read = () => {
      tries += 1;
      return Promise.reject(failure);
    };
    await expect(withRetry(read, { sleep: async (ms) => void waits.push(ms) })).rejects.toBe(failure);
    expect(tries).toBe(4);
    expect(waits).toEqual([500, 1000, 2000]);
  });
});

describe('a branch is read whole', () => {
  it('loads and compiles every file of a branch of more than 5,000, page after page', async () => {
    fake.settings = [() => SETTINGS];
    const extra = Array.from({ length: 6_000 }, (_, i) => ({ path: `model/more/part_${String(i).padStart(4, '0')}.yml`, content: '# nothing here yet\n' }));
    branchFiles = [...files, ...extra];
    await openSample();
    const state = useModels.getState();
    expect(state.files).toHaveLength(branchFiles.length);
    expect(Object.keys(state.saved)).toHaveLength(branchFiles.length);
    expect(state.saved['model/more/part_5999.yml']).toBe('# nothing here yet\n');
    expect(state.analysis.fileCount).toBe(branchFiles.length);
  });
});
