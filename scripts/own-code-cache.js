// Build plugin (start time, issue 10): a V8 code cache for the service's own code in out/main, as
// vendor.cjs has one (scripts/vendor-code-cache.js). The main build is CommonJS, marked so by an
// out/main/package.json (the repository's package.json says "type": "module"), because Node 20 can
// give a code cache only to code it compiles through vm.Script, and only the CommonJS loader lets a
// hook (src-main/code-cache.ts, installed by bin/drydock.js) do that compile. After the build,
// scripts/warm-own-cache.js starts `drydock serve` once, answers an authenticated request and writes
// the cache of every file of out/main that start compiled.
import { fileURLToPath } from 'node:url';
import { warmCodeCache } from './warm-start.js';

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
      warmCodeCache(this, { dir: options.dir ?? outDir, script: WARM, stale: /^code-cache\..*\.bin$/, what: 'out/main' });
    },
  };
}
