// `drydock test [DIR]` (issue 26): runs a project's model tests offline and reports them as text,
// JSON, JUnit XML or SARIF. Exits 1 when a test fails or cannot run, or a test file has a problem.
import { ExitCodes, writeReport } from '../output';
import { testProject, type TestFormat, type TestReport } from './project';

export interface TestOptions {
  format: TestFormat;
  output?: string;
  concurrency?: number;
  color?: boolean;
}

async function render(report: TestReport, format: TestFormat, color: boolean): Promise<string> {
  switch (format) {
    case 'text':
      return (await import('./text')).textReport(report, color);
    case 'json':
      return (await import('./text')).jsonReport(report);
    case 'junit':
      return (await import('./junit')).junitReport(report);
    case 'sarif':
      return (await import('./sarif')).sarifReport(report);
  }
}

export async function runTests(dir: string, options: TestOptions): Promise<number> {
  const report = await testProject(dir, { concurrency: options.concurrency });
  const color = options.color ?? false;
  const body = await render(report, options.format, color && !options.output);
  const summary = options.format !== 'text' ? async () => (await import('./text')).textReport(report, color) : undefined;
  await writeReport(body, options.output, summary);
  return report.failed ? ExitCodes.FAILURE : ExitCodes.OK;
}
