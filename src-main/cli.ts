// Entry of the `drydock` command line (bin/drydock.js runs its built copy, out/main/cli.js). The
// commands live in src-main/cli/; this file turns Node's compile cache on before they load, runs
// them and ends the process.
import { enableCompileCache } from './platform/process/compile-cache';

enableCompileCache();

/** Exits once stdout has been handed to the OS: a large report piped to another program is never cut short. */
function exitAfterFlush(code: number): void {
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.once('drain', () => process.exit(code));
}

void import('./cli/program')
  .then(({ runCli }) => runCli(process.argv.slice(2)))
  .then((exitCode) => {
    if (exitCode >= 0) exitAfterFlush(exitCode);
  });
