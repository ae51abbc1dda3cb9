// Worker threads and child processes run JavaScript files, not TypeScript. The build
// (electron-vite) turns `import entry from './x-worker?modulePath'` into the path of a bundled
// worker file. When the service runs from source instead — vitest, `npm run bench` (both load
// TypeScript through Vite) — this plugin does the same: it bundles the worker entry with rolldown
// (the bundler Vite itself uses) into out/source-workers/ and resolves the import to that file.
// Packages stay external, as in the build, and resolve from the project's node_modules.
// `bundleNodeEntry` bundles any entry the same way (tests fork the service process from it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { build } from 'rolldown';

const SUFFIX = '?modulePath';
const PREFIX = '\0worker-path:';

/** Resolve/load hooks turning `?modulePath` imports into paths of bundles written to `outDir`. */
function modulePathHooks(outDir) {
  const bundles = new Map();
  return {
    name: 'drydock:source-workers',
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null;
      const resolved = await this.resolve(source.slice(0, -SUFFIX.length), importer, { skipSelf: true });
      return resolved ? `${PREFIX}${resolved.id}` : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const entry = id.slice(PREFIX.length);
      if (!bundles.has(entry)) bundles.set(entry, bundle(entry, outDir));
      return `export default ${JSON.stringify(await bundles.get(entry))};`;
    },
  };
}

/** Bundles `entry` (an absolute .ts path) into `outDir`; returns the bundle's path. */
async function bundle(entry, outDir) {
  const result = await build({
    input: entry,
    platform: 'node',
    // Everything that is not a relative or absolute path is a package or a Node built-in.
    external: (id) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
    plugins: [modulePathHooks(outDir)],
    write: false,
    output: { format: 'es', codeSplitting: false, sourcemap: 'inline' },
    logLevel: 'warn',
  });
  const code = result.output[0].code;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 12);
  const file = join(outDir, `${basename(entry).replace(/\.[cm]?tsx?$/, '')}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(outDir, { recursive: true });
    // Write then rename, so a concurrent reader never loads half a file.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
  }
  return file;
}

const outDirOf = (root) => join(root, 'out', 'source-workers');

/** Vite plugin resolving `?modulePath` imports to bundled worker files (source mode only). */
export function sourceWorkers({ root }) {
  return { ...modulePathHooks(outDirOf(root)), enforce: 'pre' };
}

/** Bundles a Node entry (and the workers it imports) from source; returns the bundle's path. */
export function bundleNodeEntry({ root, entry }) {
  return bundle(entry, outDirOf(root));
}
