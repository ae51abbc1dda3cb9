// Build plugin (start time, issue 10): a V8 code cache for the service's own code in out/main, as
// vendor.cjs has one (scripts/vendor-code-cache.js). The main build is CommonJS, marked so by an
// out/main/package.json (the repository's package.json says "type": "module"), because Node 20 can
// give a code cache only to code it compiles through vm.Script, and only the CommonJS loader lets a
// hook (src-main/code-cache.ts, installed by bin/drydock.js) do that compile. After the build,
// scripts/warm-own-cache.js starts `drydock serve` once, answers an authenticated request and writes
// the cache of every file of out/main that start compiled.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WARM = fileURLToPath(new URL('./warm-own-cache.js', import.meta.url));

export function ownCodeCache() {
  let outDir = null;
  return {
    name: 'drydock:own-code-cache',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, output) {
      // Only the build of the entries (not the nested builds of worker entries, which land in chunks/).
      if (!output['cli.js']) return;
      this.emitFile({ type: 'asset', fileName: 'package.json', source: '{ "type": "commonjs" }\n' });
    },
    writeBundle(options, output) {
      if (!output['cli.js']) return;
      const dir = options.dir ?? outDir;
      // A cache of an older build could be taken for this one's (V8 checks the source's length only).
      for (const name of readdirSync(dir)) if (/^code-cache\..*\.bin$/.test(name)) rmSync(join(dir, name));
      // Not in `electron-vite dev` (a start of the service at each rebuild): files then compile as before.
      if (this.meta.watchMode) return;
      const result = spawnSync(process.execPath, [WARM, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
      // Not a build failure: without the cache the service compiles its code at start, as before (a
      // start that fails here, e.g. SQLite's addon rebuilt for Electron, fails the same way at run time).
      if (result.status !== 0) this.warn(`warm-own-cache.js failed (exit ${result.status}): out/main has no code cache; the service will start slower.`);
    },
  };
}
