// `npm run bench -- model`: data-model compiler on a generated project of 200 cubes (20 dimensions, 10 measures,
// 1 segment, 1 join to the previous cube each) and 50 views. Prints full-validate time, one-file incremental
// re-validate time (median of 7 runs each) and peak heap. Targets on the 2-core machine: full ≤ 300 ms,
// incremental ≤ 30 ms.
// The peer (issue 28): the platform's own compiler (@cubejs-backend/schema-compiler, driven offline as the
// conformance suite drives it) on the same files, in the same run. A cold validate — a compiler that has
// seen none of the files, so every file is new to it — is compared with the platform's compile of the same
// files, by CPU time (steady on a loaded machine) and by wall time; goal ≥ 200× faster.

import { loadavg } from 'node:os';
import { compileModel, createIncrementalCompiler } from '../../src-shared/model';
import type { ModelFile } from '../../src-shared/model';
import { platformCompile } from '../conformance/platform-compiler';
import { median } from './stats';

export const CUBES = 200;
export const VIEWS = 50;
const RUNS = 7;
/** The platform's compile takes seconds: fewer runs of it. */
const PEER_RUNS = 3;

const MEASURE_TYPES = ['count', 'sum', 'avg', 'min', 'max', 'count_distinct', 'sum', 'sum', 'avg', 'number'];

/**
 * Cube `cube_<i>`; `variant` > 0 changes its title (a one-file edit). `described` documents the cube and
 * each member with a line of description (about 5 KB a cube instead of 2.4 KB: 10,000 cubes and 2,500 views make 50 MB).
 */
export function cubeFile(i: number, variant = 0, described = false): ModelFile {
  const about = (what: string) => (described ? [`        description: "${what} of cube ${i}, a one-line note on its meaning"`] : []);
  const lines = ['cubes:', `  - name: cube_${i}`, `    sql_table: analytics.table_${i}`, `    title: Cube ${i}${variant ? ` (v${variant})` : ''}`];
  if (described) lines.push(`    description: "Cube ${i} of the generated project, joined to the one before it"`);
  if (i > 0) {
    lines.push(
      '    joins:',
      `      - name: cube_${i - 1}`,
      `        sql: "{CUBE}.parent_id = {cube_${i - 1}.id}"`,
      '        relationship: many_to_one',
    );
  }
  lines.push('    dimensions:', '      - name: id', '        sql: id', '        type: number', '        primary_key: true', ...about('Key'));
  lines.push('      - name: parent_id', '        sql: parent_id', '        type: number', ...about('Parent key'));
  for (let d = 2; d < 20; d++) {
    const type = d % 6 === 0 ? 'time' : d % 4 === 0 ? 'number' : 'string';
    lines.push(`      - name: dim_${d}`, `        sql: "{CUBE}.col_${d}"`, `        type: ${type}`, ...about(`Dimension ${d}`));
  }
  lines.push('    measures:');
  for (let m = 0; m < 10; m++) {
    const type = MEASURE_TYPES[m]!;
    lines.push(`      - name: measure_${m}`, `        type: ${type}`, ...about(`Measure ${m}`));
    if (type === 'number') lines.push('        sql: "{measure_1} / NULLIF({measure_0}, 0)"');
    else if (type !== 'count') lines.push(`        sql: amount_${m}`);
  }
  lines.push('    segments:', '      - name: active', '        sql: "{CUBE}.dim_2 = \'active\'"', ...about('Segment'));
  return { path: `model/cubes/cube_${i}.yml`, content: `${lines.join('\n')}\n` };
}

/** A view over a chain of three joined cubes (root `cube_<root>`, from the far end; wrapping round past the first cubes). */
export function viewFile(k: number, cubes = CUBES): ModelFile {
  const root = cubes - 1 - ((k * 3) % (cubes - 2));
  const lines = [
    'views:',
    `  - name: view_${k}`,
    `    description: Generated view ${k}`,
    '    cubes:',
    `      - join_path: cube_${root}`,
    '        includes:',
    ...['id', 'dim_2', 'dim_3', 'dim_6', 'measure_0', 'measure_1', 'measure_2', 'active'].map((m) => `          - ${m}`),
    `      - join_path: cube_${root}.cube_${root - 1}`,
    '        prefix: true',
    '        includes: "*"',
    '        excludes:',
    '          - parent_id',
    `      - join_path: cube_${root}.cube_${root - 1}.cube_${root - 2}`,
    '        alias: grand',
    '        prefix: true',
    '        includes:',
    '          - dim_4',
    '          - name: measure_3',
    '            alias: smallest',
  ];
  return { path: `model/views/view_${k}.yml`, content: `${lines.join('\n')}\n` };
}

/**
 * `cubes` cubes in a join chain and `views` views over its far end (distinct chains while views ≤ cubes / 3);
 * `described`: every cube and member has a description (see cubeFile).
 */
export function generateProject(cubes = CUBES, views = VIEWS, described = false): ModelFile[] {
  const files: ModelFile[] = [];
  for (let i = 0; i < cubes; i++) files.push(cubeFile(i, 0, described));
  for (let k = 0; k < views; k++) files.push(viewFile(k, cubes));
  return files;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const mb = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MB`;

export async function run(): Promise<void> {
  const files = generateProject();
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  console.log(`project: ${CUBES} cubes × (20 dimensions, 10 measures, 1 segment, 1 join) + ${VIEWS} views, ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB`);

  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));

  // Full validate: a fresh compile of every file.
  const full: number[] = [];
  const fullCpu: number[] = [];
  let errors = 0;
  for (let r = 0; r < RUNS; r++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const result = compileModel(files);
    full.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    fullCpu.push((used.user + used.system) / 1000);
    sample();
    errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  }

  // Incremental: edit one cube file in the middle of the join chain (alternating two contents).
  const compiler = createIncrementalCompiler();
  for (const f of files) compiler.update(f);
  sample();
  const target = CUBES / 2;
  const incremental: number[] = [];
  const incrementalCpu: number[] = [];
  let rechecked = 0;
  for (let r = 0; r < RUNS; r++) {
    const edited = cubeFile(target, (r % 2) + 1);
    const cpu = process.cpuUsage();
    const t = performance.now();
    compiler.update(edited);
    incremental.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    incrementalCpu.push((used.user + used.system) / 1000);
    rechecked = compiler.stats().lastRecheckedEntities;
    sample();
  }

  console.log(`full validate:        median ${ms(median(full))}  (runs: ${full.map((v) => v.toFixed(0)).join(', ')} ms; ${errors} errors)  target ≤ 300 ms`);
  console.log(
    `incremental (1 file): median ${ms(median(incremental))}  (runs: ${incremental.map((v) => v.toFixed(1)).join(', ')} ms; ${rechecked} entities re-checked)  target ≤ 30 ms`,
  );
  // Process CPU time is steadier than wall time when other work shares the cores (it includes GC threads).
  console.log(`cpu time (median):    full ${ms(median(fullCpu))}, incremental ${ms(median(incrementalCpu))}`);
  console.log(`peak heap used:       ${mb(peakHeap)}  (rss ${mb(process.memoryUsage().rss)})`);

  // Cold validate (the verdict a validation answers, from a compiler that has seen none of the files)
  // against the platform's compiler on the same files.
  const cold: number[] = [];
  const coldCpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const verdict = createIncrementalCompiler().check(files);
    cold.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    coldCpu.push((used.user + used.system) / 1000);
    if (!verdict.valid) throw new Error('the generated project does not compile');
  }
  const peerFiles = files.map((f) => ({ fileName: f.path, content: f.content }));
  await platformCompile(peerFiles); // loads the platform's compiler
  const peer: number[] = [];
  const peerCpu: number[] = [];
  for (let r = 0; r < PEER_RUNS; r++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const verdict = await platformCompile(peerFiles);
    peer.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    peerCpu.push((used.user + used.system) / 1000);
    if (!verdict.valid) throw new Error(`the platform's compiler refuses the generated project: ${verdict.errors.slice(0, 3).join('; ')}`);
  }
  console.log(`cold validate (every file new to the compiler): median ${ms(median(cold))} wall, ${ms(median(coldCpu))} cpu`);
  console.log(`peer: platform compiler, same files:            median ${ms(median(peer))} wall, ${ms(median(peerCpu))} cpu  (runs: ${peer.map((v) => v.toFixed(0)).join(', ')} ms)`);
  console.log(
    `cold validate vs the platform: ${(median(peerCpu) / median(coldCpu)).toFixed(0)}× faster by cpu, ${(median(peer) / median(cold)).toFixed(0)}× by wall  goal ≥ 200×`,
  );
  console.log(`load average (1 min): ${loadavg()[0]!.toFixed(1)}`);
}
