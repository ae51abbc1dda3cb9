// `npm run bench -- cli`: whole-process time of `drydock validate` (spawn → exit, what a CI step
// waits for) on a generated project of 1,000 cubes + 250 views and on the sample project, next to
// the in-process compile of the same files (the part no start-up trick removes). Needs the build
// (`npm run build`). Target on the 2-core machine: ≤ 1.5 s for 1,000 cubes + 250 views.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileModel, type ModelFile } from '../../src-shared/model';
import { generateProject } from './model.bench';
import { writeProject } from '../support/project-dir';
import { median } from './stats';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'drydock.js');
const RUNS = 7;
const TIME = '/usr/bin/time';

const ms = (v: number) => `${v.toFixed(0)} ms`;

const writeModel = (files: ModelFile[]) => writeProject(Object.fromEntries(files.map((f) => [f.path, f.content])), 'drydock-bench-cli-');

/** One `drydock validate` process: wall time, and user+system CPU time when /usr/bin/time is there. */
function runOnce(dir: string): { wallMs: number; cpuMs: number | null; status: number | null; errors: number } {
  const withTime = existsSync(TIME);
  const args = ['validate', dir, '--format', 'json'];
  const started = performance.now();
  const result = withTime
    ? spawnSync(TIME, ['-f', 'CPU %U %S', process.execPath, BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - started;
  const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(result.stderr ?? '');
  const report = JSON.parse(result.stdout) as { errorCount: number };
  return { wallMs, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null, status: result.status, errors: report.errorCount };
}

function measure(label: string, dir: string, files: ModelFile[], target?: string): void {
  runOnce(dir); // warm the file cache
  const runs = Array.from({ length: RUNS }, () => runOnce(dir));
  const compile = Array.from({ length: RUNS }, () => {
    const t = performance.now();
    compileModel(files);
    return performance.now() - t;
  });
  const wall = median(runs.map((r) => r.wallMs));
  const cpu = runs.every((r) => r.cpuMs !== null) ? median(runs.map((r) => r.cpuMs!)) : null;
  const compileMs = median(compile);
  console.log(`${label}: ${files.length} files, exit ${runs[0]!.status}, ${runs[0]!.errors} errors`);
  console.log(
    `  whole process: median ${ms(wall)} wall (runs: ${runs.map((r) => r.wallMs.toFixed(0)).join(', ')} ms)${cpu !== null ? `, ${ms(cpu)} cpu` : ''}${target ? `  target ${target}` : ''}`,
  );
  console.log(`  compile alone (in process, warm): median ${ms(compileMs)}; start-up, reading and report ≈ ${ms(wall - compileMs)}`);
}

export async function run(): Promise<void> {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
    console.log('skipped: Drydock is not built (npm run build)');
    return;
  }
  const large = generateProject(1000, 250);
  const largeDir = writeModel(large);
  const sampleDir = join(ROOT, 'resources', 'sample-project');
  const sample = generateSampleFiles(sampleDir);
  try {
    const idle = spawnSync(process.execPath, ['-e', '0']);
    if (idle.status !== 0) throw new Error('node did not start');
    const nodeStart = median(
      Array.from({ length: RUNS }, () => {
        const t = performance.now();
        spawnSync(process.execPath, ['-e', '0']);
        return performance.now() - t;
      }),
    );
    console.log(`bare node start-up (node -e 0): median ${ms(nodeStart)}`);
    measure('drydock validate, 1,000 cubes + 250 views', largeDir, large, '≤ 1500 ms');
    measure('drydock validate, sample project', sampleDir, sample);
  } finally {
    rmSync(largeDir, { recursive: true, force: true });
  }
}

function generateSampleFiles(dir: string): ModelFile[] {
  const files: ModelFile[] = [];
  for (const sub of ['model/cubes', 'model/views']) {
    const folder = join(dir, sub);
    for (const name of spawnSync('ls', [folder], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)) {
      files.push({ path: `${sub}/${name}`, content: readFileSync(join(folder, name), 'utf8') });
    }
  }
  return files;
}
