// `npm run bench -- scale` (issue 28): validation at 1,000 and 10,000 cubes, side by side, so growth
// is visible. The models are generated here: cubes of 20 dimensions, 10 measures, a segment and a
// join to the previous cube, each documented (5 KB a cube), and a quarter as many views over
// three-cube join chains; 10,000 cubes + 2,500 views are 50 MB of YAML.
//
// For each size:
//   - the compiler in this process: a cold validate (a compiler that has seen none of the files)
//     and a one-file edit's re-validate, wall and CPU time;
//   - `drydock validate --format json`, the whole process: wall, CPU, peak RSS;
//   - `drydock serve` in its own process, on a data directory where the model is committed, built
//     and a dev-mode branch opened: the first validate through the API, then one-file edits
//     (`PUT …/data-model/files`, timed too) each followed by a validate. Meanwhile, from a process of
//     its own (http-thread-watch.ts), a health request every 5 ms measures the HTTP thread (the
//     slowest answer), and its time on a CPU is read from /proc (the most CPU one turn of the thread
//     took: what the slowest answer would be with a free core). Then the file hashes of the branch
//     (what an upload asks first), with the HTTP thread's CPU during it. The whole branch is read
//     with every file's text, as the workbench opens it (`?content=true`, pages of 1,000 files),
//     the HTTP thread watched, and the service's peak RSS (VmHWM) is read then; then a commit of
//     the edits (timed with the HTTP thread's CPU too), whose build may start a compute thread. Last, the repository is packed (`git repack`, what a
//     fetch from a remote leaves) and a service started afresh validates the branch once more.
// Goals at 10,000 cubes: first validate ≤ 2,000 ms, HTTP thread ≤ 20 ms during it, edit → validate
// ≤ 50 ms, HTTP thread ≤ 20 ms during those, service peak RSS ≤ 600 MB, `drydock validate` ≤ 2 s
// and ≤ 400 MB. Wall times follow the machine's load (printed): read CPU times and the ratios.
// `--sizes=1000` runs one size; `--edits=N` sets the number of edits (default 21).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitFiles } from '../../src-main/features/data-model';
import { createService, silentLogger } from '../../src-main/service';
import { createIncrementalCompiler, type ModelFile } from '../../src-shared/model';
import { writeProject } from '../support/project-dir';
import { cubeFile, generateProject } from './model.bench';
import { cpuOf, freePort, rssMb } from './process-stats';
import { median } from './stats';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'drydock.js');
const KEY = 'dd_bench_scale_key_abcdefghijklmnopqrstuvwxyz0123456789';
const AUTHOR = { name: 'Bench', email: 'bench@localhost' };
const TIME = '/usr/bin/time';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SIZES = (arg('sizes') ?? '1000,10000').split(',').map(Number);
const EDITS = Number(arg('edits') ?? 21);

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

interface Figures {
  cubes: number;
  views: number;
  mb: number;
  coldMs: number;
  coldCpuMs: number;
  editMs: number;
  editCpuMs: number;
  cliMs: number;
  cliCpuMs: number;
  cliRssMb: number;
  firstMs: number;
  firstCpuMs: number;
  firstHealthMs: number;
  firstOnCpuMs: number;
  editValidateMs: number;
  saveMs: number;
  hashesMs: number;
  hashesHttpCpuMs: number;
  branchReadMs: number;
  branchReadHealthMs: number;
  branchReadOnCpuMs: number;
  commitMs: number;
  commitHttpCpuMs: number;
  editValidateP90Ms: number;
  editHealthMs: number;
  editOnCpuMs: number;
  serviceCpuPerEditMs: number;
  peakRssMb: number;
  packedFirstMs: number;
  load: string;
}

// ---- in process ---------------------------------------------------------------------------------

function inProcess(files: ModelFile[], cubes: number): Pick<Figures, 'coldMs' | 'coldCpuMs' | 'editMs' | 'editCpuMs'> {
  const runs = cubes >= 5000 ? 3 : 5;
  const cold: number[] = [];
  const coldCpu: number[] = [];
  let kept = createIncrementalCompiler();
  for (let r = 0; r < runs; r++) {
    kept = createIncrementalCompiler();
    const cpu = process.cpuUsage();
    const t = performance.now();
    const verdict = kept.check(files);
    cold.push(performance.now() - t);
    coldCpu.push(cpuMs(cpu));
    if (!verdict.valid) throw new Error(`the generated model does not compile: ${verdict.diagnostics[0]?.message}`);
  }
  const edit: number[] = [];
  const editCpu: number[] = [];
  for (let r = 0; r < 11; r++) {
    const edited = cubeFile(cubes / 2, (r % 2) + 1, true);
    const cpu = process.cpuUsage();
    const t = performance.now();
    kept.check([edited]);
    edit.push(performance.now() - t);
    editCpu.push(cpuMs(cpu));
  }
  return { coldMs: median(cold), coldCpuMs: median(coldCpu), editMs: median(edit), editCpuMs: median(editCpu) };
}

// ---- drydock validate ---------------------------------------------------------------------------

function cli(dir: string, fileCount: number): Pick<Figures, 'cliMs' | 'cliCpuMs' | 'cliRssMb'> {
  const once = () => {
    const started = performance.now();
    const result = spawnSync(TIME, ['-f', 'TIME %U %S %M', process.execPath, BIN, 'validate', dir, '--format', 'json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const wallMs = performance.now() - started;
    const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr ?? '');
    if (!m) throw new Error(`drydock validate: ${result.stderr}`);
    const report = JSON.parse(result.stdout) as { errorCount: number; files?: unknown[]; fileCount?: number };
    if (report.errorCount !== 0) throw new Error(`drydock validate found ${report.errorCount} errors`);
    return { wallMs, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, rssMb: Number(m[3]) / 1024 };
  };
  once(); // the file cache
  const runs = Array.from({ length: 3 }, once);
  void fileCount;
  return { cliMs: median(runs.map((r) => r.wallMs)), cliCpuMs: median(runs.map((r) => r.cpuMs)), cliRssMb: Math.max(...runs.map((r) => r.rssMb)) };
}

// ---- drydock serve ------------------------------------------------------------------------------

/** A data directory where `files` are committed on the deploy branch, built, and a dev-mode branch is open. */
const buildStatusPath = (deploymentId: number, branch: string) => `/api/v1/deployments/${deploymentId}/build-status?branch=${encodeURIComponent(branch)}`;

type BuildStatus = { commit?: unknown; buildStatus?: unknown };

/** Waits until the build of `commit` has ended (succeeded or failed), asking `status` every 200 ms. */
async function untilBuilt(commit: string, status: () => Promise<BuildStatus>): Promise<void> {
  for (;;) {
    const build = await status();
    if (build.commit === commit && (build.buildStatus === 'succeeded' || build.buildStatus === 'failed')) return;
    await sleep(200);
  }
}

async function seed(files: ModelFile[]): Promise<{ dataDir: string; deploymentId: number; branch: string }> {
  process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-bench-empty-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-scale-'));
  // The same secret store `drydock serve --secrets file` reads, so both see one tenant.
  const service = await createService({ dataDir, secrets: 'file', log: silentLogger, bootstrapApiKey: KEY });
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Api-Key ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const created = await call('POST', '/build/api/v1/deployments/', { name: 'scale', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
    const deploymentId = created.id as number;
    const { commit } = await commitFiles(service.ctx, deploymentId, 'main', files, 'generated model', AUTHOR);
    // The builds (a full compile on a compute thread) of the commit and of the dev-mode branch that
    // starts being served end here, not while the service is measured.
    const built = (branch: string) => untilBuilt(commit, () => call('GET', buildStatusPath(deploymentId, branch)));
    await built('main');
    const dev = await call('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`);
    const branch = (dev.branch as { branchName: string }).branchName;
    await built(branch);
    return { dataDir, deploymentId, branch };
  } finally {
    await service.close();
  }
}

function request(port: number, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent: false,
        headers: { authorization: `Api-Key ${KEY}`, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function spawnServe(dataDir: string): Promise<{ proc: ChildProcess; port: number; stderr: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', String(port), '--no-login-link'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await request(port, 'GET', '/api/v1/health').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (proc.exitCode !== null) throw new Error(`drydock serve exited:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`drydock serve did not answer:\n${stderr}`);
    await sleep(20);
  }
  return {
    proc,
    port,
    stderr: () => stderr,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** Peak resident memory of a process (VmHWM) in MB. */
function peakRssMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

/**
 * Watches the service's HTTP thread from a process of its own (http-thread-watch.ts): a health
 * request every 5 ms (the slowest answer) and the thread's run time from /proc (the most CPU one
 * turn of the thread took), counted inside the windows between `open()` and `close()`.
 */
function watchHttpThread(pid: number, port: number) {
  const child = spawn(process.execPath, [join(ROOT, 'test', 'bench', 'http-thread-watch.ts'), String(pid), String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    open: () => child.stdin!.write('open\n'),
    close: () => child.stdin!.write('close\n'),
    /** The figures of the windows since the last report. */
    async report(): Promise<{ healthMax: number; onCpuMax: number }> {
      child.stdin!.write('report\n');
      const { value } = await lines.next();
      const figures = JSON.parse(String(value)) as { healthMax: number; onCpuMax: number; failure: string | null };
      if (figures.failure) throw new Error(figures.failure);
      return figures;
    },
    async stop(): Promise<void> {
      child.stdin!.end();
      await exited;
    },
  };
}

async function service(
  files: ModelFile[],
  cubes: number,
): Promise<
  Pick<
    Figures,
    | 'firstMs'
    | 'firstCpuMs'
    | 'firstHealthMs'
    | 'firstOnCpuMs'
    | 'editValidateMs'
    | 'saveMs'
    | 'hashesMs'
    | 'hashesHttpCpuMs'
    | 'branchReadMs'
    | 'branchReadHealthMs'
    | 'branchReadOnCpuMs'
    | 'commitMs'
    | 'commitHttpCpuMs'
    | 'editValidateP90Ms'
    | 'editHealthMs'
    | 'editOnCpuMs'
    | 'serviceCpuPerEditMs'
    | 'peakRssMb'
    | 'packedFirstMs'
  >
> {
  const seeded = await seed(files);
  let serve = await spawnServe(seeded.dataDir);
  const pid = serve.proc.pid!;
  try {
    const B = `/build/api/v1/deployments/${seeded.deploymentId}`;
    const validatePath = `${B}/data-model/validate?branchName=${encodeURIComponent(seeded.branch)}`;
    const validate = async () => {
      const res = await request(serve.port, 'GET', validatePath).catch((error: Error) => {
        throw new Error(`validate: ${error.message}; drydock serve said:\n${serve.stderr().slice(-3000)}`);
      });
      if (res.status !== 200) throw new Error(`validate: ${res.status} ${res.body.slice(0, 300)}`);
      const body = JSON.parse(res.body) as { fileCount: number; errorCount: number };
      if (body.fileCount !== files.length || body.errorCount !== 0) throw new Error(`validate: ${body.fileCount} files, ${body.errorCount} errors`);
    };
    await sleep(1000); // let start-up work settle
    const watch = watchHttpThread(pid, serve.port);
    await sleep(100);
    const cpu0 = cpuOf(pid)!;
    watch.open();
    const t0 = performance.now();
    await validate();
    const firstMs = performance.now() - t0;
    watch.close();
    const firstCpuMs = cpuOf(pid)! - cpu0;
    const first = await watch.report();

    const validateMs: number[] = [];
    const saveMs: number[] = [];
    let editCpu = 0;
    for (let r = 0; r < EDITS; r++) {
      const body = JSON.stringify({ files: [cubeFile(cubes / 2, (r % 2) + 1, true)] });
      const s0 = performance.now();
      const put = await request(serve.port, 'PUT', `${B}/data-model/files?branchName=${encodeURIComponent(seeded.branch)}`, body);
      saveMs.push(performance.now() - s0);
      if (put.status !== 200) throw new Error(`edit: ${put.status} ${put.body.slice(0, 300)}`);
      await sleep(20);
      const c = cpuOf(pid)!;
      watch.open();
      const t = performance.now();
      await validate();
      validateMs.push(performance.now() - t);
      watch.close();
      editCpu += cpuOf(pid)! - c;
      await sleep(20);
    }
    const edits = await watch.report();
    await watch.stop();

    // Every file's hash (what an upload asks first), read for the first time since the start.
    const httpThreadMs = () => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    const h0 = httpThreadMs();
    const th = performance.now();
    const hashes = await request(serve.port, 'GET', `${B}/data-model/file-hashes?branchName=${encodeURIComponent(seeded.branch)}`);
    const hashesMs = performance.now() - th;
    const hashesHttpCpuMs = httpThreadMs() - h0;
    if (hashes.status !== 200) throw new Error(`file hashes: ${hashes.status} ${hashes.body.slice(0, 300)}`);

    // The whole branch with every file's text, as the workbench opens it: pages of 1,000 files.
    const readWatch = watchHttpThread(pid, serve.port);
    await sleep(100);
    readWatch.open();
    const tr = performance.now();
    let after: string | null = null;
    let readFiles = 0;
    do {
      const page = await request(serve.port, 'GET', `${B}/data-model/files?branchName=${encodeURIComponent(seeded.branch)}&first=1000&content=true${after ? `&after=${after}` : ''}`);
      if (page.status !== 200) throw new Error(`files with content: ${page.status} ${page.body.slice(0, 300)}`);
      const body = JSON.parse(page.body) as { items: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      readFiles += body.items.length;
      after = body.pageInfo.hasNextPage ? body.pageInfo.endCursor : null;
    } while (after);
    const branchReadMs = performance.now() - tr;
    readWatch.close();
    const branchRead = await readWatch.report();
    await readWatch.stop();
    if (readFiles !== files.length) throw new Error(`files with content: ${readFiles} files read, ${files.length} expected`);
    // After the branch is read as the workbench opens it, before the commit, whose build may start a
    // compute thread.
    const peak = peakRssMb(pid);
    // A commit of the edited cube: git writes the 10,000-entry folder again.
    const c0 = httpThreadMs();
    const tc = performance.now();
    const committed = await request(serve.port, 'POST', `${B}/commit`, JSON.stringify({ branchName: seeded.branch, message: 'one cube edited' }));
    const commitMs = performance.now() - tc;
    const commitHttpCpuMs = httpThreadMs() - c0;
    if (committed.status !== 200) throw new Error(`commit: ${committed.status} ${committed.body.slice(0, 300)}`);

    // The same branch with every object in a pack, as a fetch from a remote leaves it: a first
    // validate of a service started afresh. The commit's build (a full compile on a compute thread)
    // ends first; stopped half-way, it would be taken up again by the next start, beside the validate.
    const commit = (JSON.parse(committed.body) as { commit: string }).commit;
    await untilBuilt(commit, async () => JSON.parse((await request(serve.port, 'GET', buildStatusPath(seeded.deploymentId, seeded.branch))).body) as BuildStatus);
    await serve.stop();
    const gitdir = join(seeded.dataDir, 'repos', String(seeded.deploymentId));
    for (const args of [['repack', '-a', '-d', '-q'], ['prune-packed']]) {
      const packed = spawnSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });
      if (packed.status !== 0) throw new Error(`git ${args[0]}: ${packed.stderr}`);
    }
    serve = await spawnServe(seeded.dataDir);
    await sleep(1000);
    const tp = performance.now();
    await validate();
    const packedFirstMs = performance.now() - tp;
    return {
      firstMs,
      firstCpuMs,
      firstHealthMs: first.healthMax,
      firstOnCpuMs: first.onCpuMax,
      editValidateMs: median(validateMs),
      saveMs: median(saveMs),
      hashesMs,
      hashesHttpCpuMs,
      branchReadMs,
      branchReadHealthMs: branchRead.healthMax,
      branchReadOnCpuMs: branchRead.onCpuMax,
      commitMs,
      commitHttpCpuMs,
      editValidateP90Ms: pct(validateMs, 0.9),
      editHealthMs: edits.healthMax,
      editOnCpuMs: edits.onCpuMax,
      serviceCpuPerEditMs: editCpu / EDITS,
      peakRssMb: peak,
      packedFirstMs,
    };
  } finally {
    await serve.stop();
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}

// ---- the run ------------------------------------------------------------------------------------

const f0 = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: n < 10 ? 1 : 0 });

export async function run(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], { stdio: 'inherit' });
  if (built.status !== 0) {
    console.log('skipped: the build failed (npm run build)');
    return;
  }
  const results: Figures[] = [];
  for (const cubes of SIZES) {
    const views = cubes / 4;
    const files = generateProject(cubes, views, true);
    const mb = files.reduce((n, file) => n + file.content.length, 0) / 1e6;
    console.log(`\n${cubes.toLocaleString('en-US')} cubes + ${views.toLocaleString('en-US')} views: ${files.length.toLocaleString('en-US')} files, ${mb.toFixed(1)} MB; load average ${loadavg()[0]!.toFixed(1)}`);
    const load: number[] = [loadavg()[0]!];
    const compiled = inProcess(files, cubes);
    console.log(`  in process: cold validate ${f0(compiled.coldMs)} ms (${f0(compiled.coldCpuMs)} ms cpu), one-file edit ${f0(compiled.editMs)} ms (${f0(compiled.editCpuMs)} ms cpu)`);
    const dir = writeProject(Object.fromEntries(files.map((file) => [file.path, file.content])), 'drydock-bench-scale-cli-');
    let command;
    try {
      command = cli(dir, files.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    load.push(loadavg()[0]!);
    console.log(`  drydock validate: ${f0(command.cliMs)} ms (${f0(command.cliCpuMs)} ms cpu), peak RSS ${f0(command.cliRssMb)} MB`);
    const served = await service(files, cubes);
    load.push(loadavg()[0]!);
    console.log(
      `  service: first validate ${f0(served.firstMs)} ms (service cpu ${f0(served.firstCpuMs)} ms), HTTP thread: slowest health ${f0(served.firstHealthMs)} ms, on-CPU max ${f0(served.firstOnCpuMs)} ms; in a pack ${f0(served.packedFirstMs)} ms`,
    );
    console.log(
      `  service: one-file save median ${f0(served.saveMs)} ms; edit → validate median ${f0(served.editValidateMs)} ms, p90 ${f0(served.editValidateP90Ms)} ms (service cpu ${f0(served.serviceCpuPerEditMs)} ms each), HTTP thread: slowest health ${f0(served.editHealthMs)} ms, on-CPU max ${f0(served.editOnCpuMs)} ms; peak RSS ${f0(served.peakRssMb)} MB`,
    );
    console.log(
      `  service: whole branch with its text ${f0(served.branchReadMs)} ms, HTTP thread: slowest health ${f0(served.branchReadHealthMs)} ms, on-CPU max ${f0(served.branchReadOnCpuMs)} ms`,
    );
    results.push({ cubes, views, mb, ...compiled, ...command, ...served, load: `${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}` });
  }

  const rows: [string, (r: Figures) => number, string, string][] = [
    ['cold validate in process, wall ms', (r) => r.coldMs, '', ''],
    ['cold validate in process, cpu ms', (r) => r.coldCpuMs, '', ''],
    ['one-file edit in process, cpu ms', (r) => r.editCpuMs, '', ''],
    ['first validate through the API, ms', (r) => r.firstMs, '≤ 2,000', ''],
    ['… of the branch in a pack (as fetched), ms', (r) => r.packedFirstMs, '', ''],
    ['… service cpu ms', (r) => r.firstCpuMs, '', ''],
    ['HTTP thread during it: slowest health, ms', (r) => r.firstHealthMs, '≤ 20', ''],
    ['… on-CPU max, ms', (r) => r.firstOnCpuMs, '', ''],
    ['one-file save (PUT) through the API, median ms', (r) => r.saveMs, '', ''],
    ['edit → validate through the API, median ms', (r) => r.editValidateMs, '≤ 50', ''],
    ['… service cpu per validate, ms', (r) => r.serviceCpuPerEditMs, '', ''],
    ['HTTP thread during them: slowest health, ms', (r) => r.editHealthMs, '≤ 20', ''],
    ['… on-CPU max, ms', (r) => r.editOnCpuMs, '', ''],
    ['file hashes of the branch, first answer, ms', (r) => r.hashesMs, '', ''],
    ['… HTTP thread cpu, ms', (r) => r.hashesHttpCpuMs, '', ''],
    ['whole branch with its text (content pages), ms', (r) => r.branchReadMs, '', ''],
    ['HTTP thread during it: slowest health, ms', (r) => r.branchReadHealthMs, '≤ 20', ''],
    ['… on-CPU max, ms', (r) => r.branchReadOnCpuMs, '', ''],
    ['commit of the edited file, ms', (r) => r.commitMs, '', ''],
    ['… HTTP thread cpu, ms', (r) => r.commitHttpCpuMs, '', ''],
    ['service peak RSS, MB', (r) => r.peakRssMb, '≤ 600', ''],
    ['drydock validate, whole process, ms', (r) => r.cliMs, '≤ 2,000', ''],
    ['… cpu ms', (r) => r.cliCpuMs, '', ''],
    ['… peak RSS, MB', (r) => r.cliRssMb, '≤ 400', ''],
  ];
  console.log(`\n${'figure'.padEnd(46)} ${results.map((r) => `${r.cubes.toLocaleString('en-US')} cubes`.padStart(14)).join(' ')}${results.length === 2 ? '  growth'.padStart(9) : ''}  goal at 10,000`);
  for (const [label, value, goal] of rows) {
    const values = results.map(value);
    const growth = values.length === 2 && values[0]! > 0 ? `${(values[1]! / values[0]!).toFixed(1)}×` : '';
    console.log(`${label.padEnd(46)} ${values.map((v) => f0(v).padStart(14)).join(' ')}${results.length === 2 ? growth.padStart(9) : ''}  ${goal}`);
  }
  console.log(`load average during each size: ${results.map((r) => `${r.cubes.toLocaleString('en-US')}: ${r.load}`).join('; ')} (2 cores)`);
  void rssMb;
}
