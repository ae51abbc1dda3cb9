// `drydock validate [DIR]`: compiles a project folder offline and reports the diagnostics as text,
// JSON, SARIF 2.1.0 or JUnit XML. Loads nothing of the service: only the compiler and the chosen
// report format.
import { ExitCodes, writeReport } from '../output';
import { readProject, validateProject, type ValidateOptions, type ValidateFormat, type ValidationReport } from './project';

async function render(report: ValidationReport, format: ValidateFormat, color: boolean): Promise<string> {
  switch (format) {
    case 'text':
      return (await import('./text')).textReport(report, color);
    case 'json':
      return (await import('./text')).jsonReport(report);
    case 'sarif':
      return (await import('./sarif')).sarifReport(report);
    case 'junit':
      return (await import('./junit')).junitReport(report);
  }
}

/** Runs the command; returns the exit code (0 valid, 1 errors or too many warnings). */
export async function runValidate(dir: string, options: ValidateOptions): Promise<number> {
  const report = await validateProject(dir, options);
  // Test files (tests/*.yml) are checked too: their problems and the queries the model refuses (issue 26).
  const { readTestFiles } = await import('../model-tests/files');
  const testFiles = readTestFiles(report.root);
  if (testFiles.length > 0) {
    // The verdict above comes without the compiled model (issue 28: memory at 10,000 cubes); test
    // files are checked against one, compiled here only for a project that has them.
    const { withTestFileDiagnostics } = await import('./test-files');
    const { compileModel } = await import('../../../src-shared/model');
    withTestFileDiagnostics(report, compileModel(readProject(report.root), { analyzers: false }).model, testFiles);
  }
  const color = options.color ?? false;
  const body = await render(report, options.format, color && !options.output);
  const summary = options.format !== 'text' ? async () => (await import('./text')).textReport(report, color) : undefined;
  await writeReport(body, options.output, summary);
  return report.failed ? ExitCodes.FAILURE : ExitCodes.OK;
}
