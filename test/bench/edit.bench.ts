// `npm run bench -- edit`: one-file edit → validate through the API at 1,000 cubes + 250 views
// (issue "Responsive", goal ≤ 30 ms median), alone, without the other loads `responsive` runs.
// Prints the median and p90 of the validate after each edit and of edit + validate, and the peer:
// a full, non-incremental compile of the same model in this process. On a loaded machine compare
// the CPU time per validate (every thread of this process: the HTTP thread, the model shard and
// the client), which the load does not inflate.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitFiles } from '../../src-main/features/data-model';
import { createService, silentLogger } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { compileModel } from '../../src-shared/model';
import { bigProject, editedCube } from '../support/big-models';
import { median } from './stats';

const KEY = 'dd_bench_edit_validate_key_abcdefghijklmnopqrstuvwxyz01';
const AUTHOR = { name: 'Bench', email: 'bench@localhost' };
const EDIT_RUNS = Number(process.env.EDIT_RUNS) || 41;

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const f = (n: number) => n.toFixed(n < 10 ? 1 : 0);

export async function run(): Promise<void> {
  process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-bench-empty-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-edit-'));
  const service = await createService({ dataDir, secrets: new MemorySecretStore(), log: silentLogger, bootstrapApiKey: KEY });
  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  try {
    const created = await call(
      'POST',
      '/build/api/v1/deployments/',
      JSON.stringify({ name: 'edit-validate', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } }),
    );
    const B = `/build/api/v1/deployments/${created.id as number}`;
    const files = bigProject();
    const { commit } = await commitFiles(service.ctx, created.id as number, 'main', files, 'big model', AUTHOR);
    // The commit starts a build (a full compile on a compute thread): let it end so it does not share the measurements.
    for (;;) {
      const build = await call('GET', `/api/v1/deployments/${created.id as number}/build-status`);
      if (build.commit === commit && (build.buildStatus === 'succeeded' || build.buildStatus === 'failed')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const dev = await call('POST', `${B}/dev-mode`);
    const branch = encodeURIComponent((dev.branch as { branchName: string }).branchName);
    const t = performance.now();
    const first = await call('GET', `${B}/data-model/validate?branchName=${branch}`);
    console.log(`first validate (full compile on a model shard): ${f(performance.now() - t)} ms, ${String(first.fileCount)} files, ${String(first.errorCount)} errors, ${String(first.warningCount)} warnings`);

    const validateOnly: number[] = [];
    const validateCpu: number[] = [];
    const editAndValidate: number[] = [];
    for (let r = 0; r < EDIT_RUNS; r++) {
      const body = JSON.stringify({ files: [editedCube(500, (r % 2) + 1)] });
      const t0 = performance.now();
      await call('PUT', `${B}/data-model/files?branchName=${branch}`, body);
      const t1 = performance.now();
      const c1 = process.cpuUsage();
      const result = await call('GET', `${B}/data-model/validate?branchName=${branch}`);
      const t2 = performance.now();
      const c2 = process.cpuUsage(c1);
      validateCpu.push((c2.user + c2.system) / 1000);
      if (result.fileCount !== files.length) throw new Error('validate after edit saw the wrong files');
      validateOnly.push(t2 - t1);
      editAndValidate.push(t2 - t0);
    }
    console.log(`one-file edit → validate at 1,000 cubes + 250 views (${EDIT_RUNS} edits; goal ≤ 30 ms median)`);
    console.log(`validate after the edit:  median ${f(median(validateOnly))} ms, p90 ${f(pct(validateOnly, 0.9))} ms`);
    console.log(`CPU per validate (all threads of this process, client included): median ${f(median(validateCpu))} ms`);
    console.log(`edit (PUT) + validate:    median ${f(median(editAndValidate))} ms, p90 ${f(pct(editAndValidate, 0.9))} ms`);
    const full: number[] = [];
    for (let r = 0; r < 3; r++) {
      const edited = files.map((file, i) => (i === 500 ? editedCube(500, r + 1) : file));
      const t0 = performance.now();
      compileModel(edited);
      full.push(performance.now() - t0);
    }
    console.log(`peer: full compile (non-incremental, in-process, no HTTP): median ${f(median(full))} ms`);
    console.log(`incremental validate through the API vs full compile: ${(median(validateOnly) / median(full)).toFixed(3)}×`);
  } finally {
    await service.close();
  }
}
