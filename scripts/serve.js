#!/usr/bin/env node
// `npm run serve`: build if needed, then run `drydock serve` in this same process. npm runs a
// script through `sh -c`, and a signal npm forwards reaches only that shell; with no second node
// process in between, the service is the shell's only child and stops when the shell goes
// (DRYDOCK_STOP_WITH_PARENT), so nothing is left serving after SIGTERM or SIGINT to npm.
import './check-node.js';
import { ensureBuilt } from './ensure-built.js';

try {
  ensureBuilt();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.env.DRYDOCK_STOP_WITH_PARENT = '1';
process.argv.splice(2, 0, 'serve');
await import('../bin/drydock.js');
