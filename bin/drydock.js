#!/usr/bin/env node
// Entry of `drydock` (package.json bin): runs the built CLI.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('Drydock is not built yet: run `npm run build` (npm start and npm test build it for you).');
  process.exit(1);
}
await import(cli);
