#!/usr/bin/env node
// Entry of `drydock` (package.json bin): runs the built CLI. In a fresh clone (after `npm install`,
// before any build) it builds first, once (electron-vite, about 10 s), so `npx drydock validate …`
// works straight away. Messages go to stderr: stdout is the command's output (a report, JSON).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
const codeCache = fileURLToPath(new URL('../out/main/code-cache.js', import.meta.url));
if (!existsSync(cli) || !existsSync(codeCache)) {
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
// out/main is CommonJS: its files are compiled with the build's V8 code cache (src-main/code-cache.ts).
const require = createRequire(import.meta.url);
require(codeCache).installCodeCache();
require(cli);
