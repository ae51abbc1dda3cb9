// Model files built to exhaust the compiler, through a real `drydock serve` process and the built
// CLI (issue 23). A 390-byte YAML alias bomb used to hold validate for minutes, grow the service by
// gigabytes and end in a 500, on every validate; now it is one diagnostic on its file, answered in
// well under a second, the other files still checked, and the service's memory barely moves.
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCodes as C } from '../../src-shared/model';
import { cliEnv, jsonOf, runCli } from '../support/cli';
import { callWithKey } from '../support/crash-data';
import { jsDeepNesting, jsStringBomb, yamlAliasBomb } from '../support/model-bombs';
import { writeProject } from '../support/project-dir';
import { startServe, type ServeProcess } from '../support/serve';

const KEY = 'dd_model_limits_key_abcdefghijklmnopqrstuvwxyz012';

/** With an anchor and an alias: read by the \`yaml\` library, as the bomb is, so the warm-up loads it too. */
const ORDERS = `cubes:
  - name: orders
    sql_table: &table public.orders
    description: *table
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: count
        type: count
`;
/** A file with an error of its own, which must still be reported next to a refused file. */
const BROKEN = `cubes:
  - name: broken
    sql_table: public.broken
    measures:
      - name: total
        sql: "{nope}"
        type: sum
`;

let server: ServeProcess;
let sampleDir: string;
let deployment: number;

/** Resident memory of the service process in MB (threads included). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const call = (method: string, path: string, body?: unknown) => callWithKey(server, KEY, method, path, body);
const build = (path: string) => `/build/api/v1/deployments/${deployment}${path}`;

async function validate(): Promise<{ ms: number; status: number; body: { valid: boolean; diagnostics: { code: string; file: string; message: string }[] } }> {
  const started = performance.now();
  const res = await call('GET', build('/data-model/validate'));
  return { ms: performance.now() - started, status: res.status, body: res.body };
}

async function putFile(path: string, content: string | null): Promise<void> {
  const res = content === null ? await call('DELETE', build(`/data-model/files?path=${encodeURIComponent(path)}`)) : await call('PUT', build('/data-model/files'), { files: [{ path, content }] });
  expect(res.status, res.text).toBeLessThan(300);
}

beforeAll(async () => {
  sampleDir = writeProject({ 'model/cubes/orders.yml': ORDERS, 'model/cubes/broken.yml': BROKEN }, 'drydock-limits-sample-');
  server = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_PROJECT: sampleDir }, args: ['--no-login-link'], timeoutMs: 90_000 });
  const created = await call('POST', '/build/api/v1/deployments/', { name: 'limits', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
  expect(created.status, created.text).toBe(201);
  deployment = created.body.id;
  expect((await call('POST', build('/dev-mode'))).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(sampleDir, { recursive: true, force: true });
});

describe('validate through a real service', () => {
  it('answers the YAML alias bomb with MODEL_FILE_TOO_COMPLEX on its file in under a second, other files still checked, memory bounded', async () => {
    // A warm shard first: the thread's start is not the bomb's doing.
    const warm = await validate();
    expect(warm.body.diagnostics.map((d) => d.file)).toEqual(['model/cubes/broken.yml']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = rssMb(server.proc.pid!);

    await putFile('model/cubes/bomb.yml', yamlAliasBomb());
    for (let round = 0; round < 3; round++) {
      const { ms, status, body } = await validate();
      expect(status).toBe(200);
      expect(ms).toBeLessThan(1000);
      expect(body.valid).toBe(false);
      expect(body.diagnostics.filter((d) => d.file === 'model/cubes/bomb.yml').map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
      expect(body.diagnostics.filter((d) => d.file === 'model/cubes/broken.yml').map((d) => d.code)).toEqual([C.UNRESOLVED_REFERENCE]);
      // The file's next version is read afresh: a trivially changed bomb is refused again, not skipped.
      await putFile('model/cubes/bomb.yml', `${yamlAliasBomb()}# ${round}\n`);
    }
    const grown = rssMb(server.proc.pid!) - before;
    console.log(`alias bomb: RSS ${before.toFixed(1)} MB before, grew ${grown.toFixed(1)} MB over 3 validations`);
    expect(grown).toBeLessThan(50);
    await putFile('model/cubes/bomb.yml', null);
  });

  it('answers JavaScript bombs (a string doubled through constants, nesting past the stack) the same way', async () => {
    await putFile('model/cubes/strings.js', jsStringBomb());
    await putFile('model/cubes/deep.js', jsDeepNesting());
    const before = rssMb(server.proc.pid!);
    const { ms, status, body } = await validate();
    expect(status).toBe(200);
    expect(ms).toBeLessThan(1000);
    expect(body.diagnostics.filter((d) => d.file === 'model/cubes/strings.js').map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
    expect(body.diagnostics.filter((d) => d.file === 'model/cubes/deep.js').map((d) => d.code)).toEqual([C.FILE_TOO_COMPLEX]);
    expect(body.diagnostics.filter((d) => d.file === 'model/cubes/broken.yml').map((d) => d.code)).toEqual([C.UNRESOLVED_REFERENCE]);
    expect(rssMb(server.proc.pid!) - before).toBeLessThan(50);
    await putFile('model/cubes/strings.js', null);
    await putFile('model/cubes/deep.js', null);
  });
});

describe('drydock validate (offline)', () => {
  it('reports the YAML and JS bombs and a 30 MB file on their files with exit code 1, other files still checked', async () => {
    const dir = writeProject({
      'model/cubes/orders.yml': ORDERS,
      'model/cubes/broken.yml': BROKEN,
      'model/cubes/bomb.yml': yamlAliasBomb(),
      'model/cubes/strings.js': jsStringBomb(),
    });
    // 30 MB (sparse): past the 8 MiB limit however it is encoded, so it is refused by its size, unread.
    const huge = join(dir, 'model/cubes/huge.yml');
    writeFileSync(huge, '');
    truncateSync(huge, 30 * 1024 * 1024);
    try {
      const started = performance.now();
      const run = await runCli(['validate', dir, '--format', 'json'], { env: cliEnv() });
      const ms = performance.now() - started;
      expect(run.status, run.stderr).toBe(1);
      const report = jsonOf(run) as { diagnostics: { code: string; file: string }[] };
      const byFile = (file: string) => report.diagnostics.filter((d) => d.file.endsWith(file)).map((d) => d.code);
      expect(byFile('model/cubes/bomb.yml')).toEqual([C.FILE_TOO_COMPLEX]);
      expect(byFile('model/cubes/strings.js')).toEqual([C.FILE_TOO_COMPLEX]);
      expect(byFile('model/cubes/huge.yml')).toEqual([C.FILE_TOO_LARGE]);
      expect(byFile('model/cubes/broken.yml')).toEqual([C.UNRESOLVED_REFERENCE]);
      // The whole process, start included.
      expect(ms).toBeLessThan(5000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
