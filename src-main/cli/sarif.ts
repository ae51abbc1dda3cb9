// The SARIF 2.1.0 log the CLI's reports share (`drydock validate`, `test`, `review`): one run whose
// artifact paths are relative to %SRCROOT%, the working directory (the repository root in CI).
import { pathToFileURL } from 'node:url';
import { SarifBuilder, type SarifRunBuilder } from 'node-sarif-builder';

export const SRCROOT = '%SRCROOT%';

/** The run as a SARIF log: %SRCROOT% bound to `cwd`, every artifact under it; `exitCode` when the command has one to report. */
export function sarifLog(run: SarifRunBuilder, cwd: string, exitCode?: number): string {
  const sarif = new SarifBuilder();
  sarif.addRun(run);
  const log = sarif.buildSarifOutput();
  const out = log.runs[0]!;
  const base = pathToFileURL(cwd).href;
  out.originalUriBaseIds = { [SRCROOT]: { uri: base.endsWith('/') ? base : `${base}/` } };
  for (const artifact of out.artifacts ?? []) if (artifact.location) artifact.location.uriBaseId = SRCROOT;
  out.invocations = [exitCode === undefined ? { executionSuccessful: true } : { executionSuccessful: true, exitCode }];
  return JSON.stringify(log, null, 2);
}
