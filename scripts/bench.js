#!/usr/bin/env node
// `npm run bench -- <name>`: runs test/bench/<name>.bench.ts (its exported `run()`), which prints figures.
// Benchmarks never pass or fail; targets are compared by reading the figures. TypeScript is loaded
// through Vite's SSR module loader, the same transform the tests use.
import './check-node.js';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { sourceWorkers } from './source-workers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const available = readdirSync(new URL('../test/bench/', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : available;
const unknown = names.filter((n) => !available.includes(n));
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

const server = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false, watch: null },
  appType: 'custom',
  ssr: { external: true },
  plugins: [sourceWorkers({ root })],
});
try {
  for (const name of names) {
    console.log(`\n=== bench: ${name} (node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
    const mod = await server.ssrLoadModule(`/test/bench/${name}.bench.ts`);
    await mod.run();
  }
} finally {
  await server.close();
}
