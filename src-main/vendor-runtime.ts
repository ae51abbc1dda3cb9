// How the built service loads its HTTP framework (start time, issue 10). Fastify, Ajv,
// fast-json-stringify and @fastify/static are about 1.7 MB of JavaScript: parsing and compiling
// them was a fifth of a start. The build puts them in one CommonJS file (out/main/vendor.cjs,
// scripts/vendor-code-cache.js) and a V8 code cache beside it, made by the build with the Node that
// built it; their imports in the service's code read them from here. With the cache V8 skips
// compiling what the cache holds; without it (another Node or Electron's V8, whose cache it would
// reject) the file is compiled as any module would be. Only the build imports this module: the
// tests and `vite` load the packages themselves.
import { chmodSync, close, existsSync, fstatSync, openSync, read, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type VendorExports = (name: string) => unknown;

interface Loaded {
  script: Script;
  exports: VendorExports;
  cacheFile: string;
  cacheUsed: boolean;
}

let loaded: Loaded | null = null;

/** The code cache of this V8 (a cache made by another version is rejected anyway). */
const cacheFileOf = (file: string) => `${file}.${process.arch}-v8-${process.versions.v8}.cache`;

/** vendor.cjs beside the built runtime (out/main), or null where there is none (the sources, the tests). */
function vendorFile(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, 'vendor.cjs'), join(here, '..', 'vendor.cjs')].find((candidate) => existsSync(candidate)) ?? null;
}

/** What `prefetchVendor` read: undefined while a read is under way, null when it failed. */
interface Prefetch {
  source?: Buffer | null;
  cachedData?: Buffer | null;
}
let prefetched: Prefetch | null = null;

/**
 * Reads the whole file in one request to libuv's threads. fs.readFile needed one turn of the event
 * loop per step (open, fstat, each 512 KB read, close), and a start gives the loop only a turn or
 * two before the bundle is needed: its reads never finished in time (the bundle was read again,
 * synchronously) and then finished during the start for nothing. Here only the read itself is in
 * the background, and one turn of the loop after it hands the buffer over.
 */
function readInBackground(path: string, done: (data: Buffer | null) => void): void {
  let fd: number;
  let size: number;
  try {
    fd = openSync(path, 'r');
    size = fstatSync(fd).size;
  } catch {
    done(null);
    return;
  }
  const buffer = Buffer.allocUnsafeSlow(size);
  read(fd, buffer, 0, size, 0, (error, bytesRead) => {
    close(fd, () => {});
    done(error || bytesRead !== size ? null : buffer);
  });
}

/**
 * Starts reading vendor.cjs and its code cache in the background (libuv's threads), so that the
 * bundle's load later in the start does not wait for the disk: about 2 MB, 10–20 ms of reading on
 * the main thread. `drydock serve` calls it first thing; a read not finished when the bundle is
 * needed is simply done again synchronously. Does nothing where there is no bundle (the tests).
 */
export function prefetchVendor(): void {
  if (loaded || prefetched) return;
  const file = vendorFile();
  if (!file) return;
  const started: Prefetch = {};
  prefetched = started;
  readInBackground(file, (data) => (started.source = data));
  readInBackground(cacheFileOf(file), (data) => (started.cachedData = data));
}

/**
 * Resolves once the event loop has polled for finished I/O, while `prefetchVendor`'s reads are under
 * way. A start runs from the prefetch to the bundle's load without the loop polling once (its awaits
 * are promises, the port's `listening` a tick), so the reads, done in the background within ~25 ms,
 * were handed over only after the load had read both files again on the main thread (10 ms). The
 * service awaits this just before it loads the HTTP framework. Two immediates: the first may run in
 * the same turn of the loop as the code that asked (before its poll), the second runs after a poll.
 * A read still not done then is done synchronously as before.
 */
export function vendorPrefetched(): Promise<void> {
  const pending = prefetched !== null && (prefetched.source === undefined || prefetched.cachedData === undefined);
  return pending ? new Promise((resolve) => setImmediate(() => setImmediate(resolve))) : Promise.resolve();
}

function load(): Loaded {
  const file = vendorFile();
  if (!file) throw new Error(`vendor.cjs is missing beside ${dirname(fileURLToPath(import.meta.url))}: rebuild Drydock (npm run build).`);
  const cacheFile = cacheFileOf(file);
  let cachedData: Buffer | undefined;
  if (prefetched?.cachedData !== undefined) {
    cachedData = prefetched.cachedData ?? undefined;
  } else {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // The file is a function expression, Node's CommonJS wrapper around the bundle, written so by the
  // build (scripts/vendor-code-cache.js): it runs as `require` would run it. The build writes it in
  // ASCII only, so Latin-1 reads it as UTF-8 would, without the decoding (a one-byte string for V8).
  const source = prefetched?.source ? prefetched.source.toString('latin1') : readFileSync(file, 'latin1');
  prefetched = null;
  if (!source.startsWith('(function (exports, require, module, __filename, __dirname) {')) {
    throw new Error(`${file} is not wrapped as this Drydock expects: rebuild Drydock (npm run build).`);
  }
  const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return { script, exports: module.exports as VendorExports, cacheFile, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/** `module.exports` of one of the bundled packages (the file loads on the first call). */
export function vendor(name: string): unknown {
  return (loaded ??= load()).exports(name);
}

/** Whether this process compiled the bundle with its code cache (the build checks it). */
export function vendorCodeCacheUsed(): boolean {
  return (loaded ??= load()).cacheUsed;
}

/**
 * Writes the code cache of everything compiled from the bundle so far (the build calls this at a
 * start's first answer, so the functions a start runs are in it, and few more).
 */
export function writeVendorCodeCache(): string {
  const { script, cacheFile } = (loaded ??= load());
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(temporary, script.createCachedData());
  chmodSync(temporary, 0o644); // readable by whoever runs the service, whatever the umask (the service's is 077)
  renameSync(temporary, cacheFile);
  return cacheFile;
}
