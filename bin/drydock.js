#!/usr/bin/env node
// Entry of `drydock` (package.json bin): runs the built CLI. In a fresh clone (after `npm install`,
// before any build) it builds first, once (electron-vite, about 10 s), so `npx drydock validate …`
// works straight away. Messages go to stderr: stdout is the command's output (a report, JSON).
// The built CLI turns Node's compile cache on before its commands load (src-main/cli.ts).
import '../scripts/check-node.js';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  const builder = fileURLToPath(new URL('../scripts/ensure-built.js', import.meta.url));
  if (!existsSync(builder)) {
    console.error('Drydock is not built: run `npm run build`.');
    process.exit(1);
  }
  const { ensureBuilt } = await import(pathToFileURL(builder).href);
  try {
    ensureBuilt(undefined, (line) => console.error(`${line} (first run only)`));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
await import(pathToFileURL(cli).href);
