// Where `npm test`'s time goes: wall and CPU time per stage, and the slowest test files (issue 25).
// CPU time is what stays comparable on a shared, loaded machine, where wall time is inflated.
import { readFileSync } from 'node:fs';

/**
 * User + system CPU seconds of every child process this process has waited for (and of their own
 * waited-for descendants): the cutime and cstime fields of /proc/self/stat. NaN off Linux.
 */
export function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The command name (field 2) may hold spaces; the fields after it start past its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of the man page (cutime, cstime) sit at 13 and 14 once the first two are cut.
    const ticks = Number(fields[13]) + Number(fields[14]);
    return ticks / 100; // USER_HZ is 100 on every Linux architecture Node supports.
  } catch {
    return Number.NaN;
  }
}

const seconds = (value) => (Number.isNaN(value) ? '   n/a' : `${value.toFixed(0).padStart(5)}s`);

/** One line per stage plus a total: wall and CPU seconds. */
export function formatStageTimes(stages) {
  const width = Math.max(...stages.map((stage) => stage.title.length), 5);
  const line = (title, wall, cpu) => `  ${title.padEnd(width)}  wall ${seconds(wall)}  cpu ${seconds(cpu)}`;
  const total = stages.reduce((sum, stage) => ({ wall: sum.wall + stage.wall, cpu: sum.cpu + stage.cpu }), { wall: 0, cpu: 0 });
  return ['Time per stage (cpu = user + system of all its processes):', ...stages.map((stage) => line(stage.title, stage.wall, stage.cpu)), line('total', total.wall, total.cpu)].join('\n');
}

/**
 * The `count` test files that took longest, across vitest JSON reports: wall seconds from the
 * file's start to its end, which includes its setup hooks (a service start, a browser launch).
 */
export function slowestFiles(reportFiles, root, count) {
  const files = [];
  for (const reportFile of reportFiles) {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    for (const file of report.testResults ?? []) {
      files.push({ name: file.name.replace(root, ''), seconds: (file.endTime - file.startTime) / 1000, tests: file.assertionResults?.length ?? 0 });
    }
  }
  files.sort((a, b) => b.seconds - a.seconds);
  return files.slice(0, count).map((file) => `  ${file.seconds.toFixed(1).padStart(7)}s  ${file.name} (${file.tests} tests)`);
}
