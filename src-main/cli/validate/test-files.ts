// `drydock validate` checks a project's model test files as well (issue 26): what the file format
// refuses and the queries the model refuses, on their lines — without running anything.
import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { checkModelTests, parseTestFile } from '../../../src-shared/model/tests';
import type { CompiledModel } from '../../../src-shared/model';
import type { ValidationReport } from './project';

export function withTestFileDiagnostics(report: ValidationReport, model: CompiledModel, testFiles: { path: string; content: string }[]): void {
  const inProject = (path: string) => {
    const full = resolve(report.root, path);
    return full.startsWith(report.root + sep) && existsSync(full) && statSync(full).isFile();
  };
  const found = checkModelTests(
    model,
    testFiles.map((f) => parseTestFile(f, { exists: inProject })),
  );
  report.diagnostics.push(...found);
  const errors = found.filter((d) => d.severity === 'error').length;
  report.errorCount += errors;
  if (errors > 0) report.failed = true;
}
