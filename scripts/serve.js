#!/usr/bin/env node
// `npm run serve`: build if needed, then run `drydock serve` in this same process. npm runs a
// script through `sh -c`, and a signal npm forwards reaches only that shell; with no second node
// process in between, the service is the shell's only child and stops when the shell goes
// (DRYDOCK_STOP_WITH_PARENT), so nothing is left serving after SIGTERM or SIGINT to npm.
// `npm run serve -- login-link …` runs `drydock login-link …` instead: a new one-time login link for
// the service this script started, named in its start output as that very command.
import './check-node.js';
import { ensureBuilt } from './ensure-built.js';

try {
  ensureBuilt();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
if (process.argv[2] !== 'login-link') {
  process.env.DRYDOCK_STOP_WITH_PARENT = '1';
  // How the service names the command for a new login link: the way it was started.
  process.env.DRYDOCK_INVOKED_AS = 'npm run serve --';
  process.argv.splice(2, 0, 'serve');
}
await import('../bin/drydock.js');
