// A V8 code cache for the service's own built code (start time, issue 10). Node 20 compiles every
// module from source at each start and has no compile cache of its own (module.enableCompileCache
// is Node 22): the ~340 KB of chunks a `drydock serve` start loads were parsed and their functions
// compiled anew each time. The main build is CommonJS (out/main/package.json says so) so that
// bin/drydock.js can install this hook before anything else of out/main loads: each file of out/main
// is compiled as Node's CommonJS loader would, through a vm.Script, with the cache the build made
// after a warm start (scripts/own-code-cache.js, scripts/warm-own-cache.js). Files the cache does not
// hold, and any Node whose V8 rejects it (another version, V8 flags), compile exactly as before.
// vendor.cjs has its own cache (src-main/vendor-runtime.ts). The hook is per thread: the worker
// threads of a service that installed it install it too, first thing (workerBoot below), so their
// entries (compute-worker, model-worker, ~1.9 MB) are compiled with the cache as well.
import Module, { createRequire } from 'node:module';
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type Compile = (this: Module, content: string, filename: string) => unknown;
interface Internal {
  prototype: { _compile: Compile };
}

/**
 * node:worker_threads, loaded only where it is used (a worker thread, the build's warm start):
 * loading it is 7–16 ms that a start of the service does not otherwise spend (measured here).
 */
const workerThreads = () => createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');

/** Node's CommonJS wrapper: the same text at the build and at the start, or V8 rejects the cache. */
const HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const TAIL = '\n});';

/** out/main, where this file is built. */
const root = dirname(fileURLToPath(import.meta.url));
/** One file for all: [4-byte length of the JSON index][index: { file: [offset, length] }][caches]. */
const cacheFile = join(root, `code-cache.${process.arch}-v8-${process.versions.v8}.bin`);
/**
 * The worker threads' files (their entries), in a file of their own: a start reads only what its
 * thread compiles (each page a process first touches costs ~16 µs on this kind of host).
 */
const workerCacheFile = join(root, `code-cache.${process.arch}-v8-${process.versions.v8}.workers.bin`);

let recorded: Map<string, Script> | null = null;
/** Caches taken before the end (by freezeCodeCache), which writeCodeCache keeps. */
const frozen = new Map<string, Buffer>();
/** Caches the worker threads sent (collectWorkerCaches), for workerCacheFile. */
const fromWorkers = new Map<string, Buffer>();
/** Whether this thread compiles out/main through the hook ('record': for the build's warm start). */
let installed: 'cache' | 'record' | null = null;
/** Where recording worker threads send their caches when the warm start asks (collectWorkerCaches). */
const CHANNEL = 'drydock:own-code-cache';

function readCache(file: string): { index: Record<string, [number, number]>; data: Buffer } | null {
  try {
    const blob = readFileSync(file);
    const length = blob.readUInt32LE(0);
    return { index: JSON.parse(blob.toString('latin1', 4, 4 + length)) as Record<string, [number, number]>, data: blob.subarray(4 + length) };
  } catch {
    return null;
  }
}

function compile(content: string, filename: string, cachedData?: Buffer): Script {
  return new Script(HEAD + content + TAIL, { filename, ...(cachedData ? { cachedData } : {}) });
}

/**
 * Whether a file must be left to Node's own compile: it may call `import()` (the drivers, DuckDB,
 * ora — ES-module packages a CommonJS file can only import). On Node 20 a vm.Script compiled from a
 * code cache loses its dynamic-import callback (`import()` then rejects with "A dynamic import
 * callback was not specified", even with vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER, which also
 * prints an ExperimentalWarning), so such files are never cached. None of them loads at start.
 * `import()` with nothing inside is not a call (acorn's "Trailing comma is not allowed in import()",
 * bundled in both worker entries): those files are cached (test/api/cli.test.ts holds the rule).
 */
const leftToNode = (content: string) => /\bimport\s*\((?!\s*\))/.test(content);

/**
 * Compiles the files of out/main with the build's code cache from now on. `record`: compile every
 * file of out/main this way, cache or not, and keep their scripts for writeCodeCache (the build).
 * `thread`: which cache to read, the main thread's (bin/drydock.js) or the workers' (worker-boot).
 */
export function installCodeCache(record = false, thread: 'main' | 'worker' = 'main'): void {
  const isMainThread = thread === 'main';
  const cache = record ? null : readCache(isMainThread ? cacheFile : workerCacheFile);
  if (!cache && !record) return;
  if (installed) return;
  installed = record ? 'record' : 'cache';
  if (record) recorded = new Map();
  if (record && !isMainThread) answerCollects();
  const prototype = (Module as unknown as Internal).prototype;
  const original = prototype._compile;
  const shared = createRequire(join(root, 'code-cache.js'));
  prototype._compile = function (this: Module, content: string, filename: string) {
    const key = filename.startsWith(root + sep) ? relative(root, filename) : null;
    const entry = key === null ? undefined : cache?.index[key];
    if (key === null || (!entry && !recorded) || leftToNode(content)) return original.call(this, content, filename);
    const script = compile(content, filename, entry ? cache!.data.subarray(entry[0], entry[0] + entry[1]) : undefined);
    recorded?.set(key, script);
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireOf(this, shared), this, filename, dirname(filename));
  };
}

/**
 * What a worker thread loads first when this thread compiles with the hook, so that the thread does
 * too (Module._compile is per thread); null when it does not (Electron, a cache V8 would not take,
 * the service run from source): the threads then load their entry as before. `record`: the thread
 * records its files for the build (see collectWorkerCaches).
 */
export function workerBoot(): { filename: string; workerData: { recordCodeCache: boolean } } | null {
  return installed ? { filename: join(root, 'worker-boot.js'), workerData: { recordCodeCache: installed === 'record' } } : null;
}

/** In a recording worker thread: sends the caches of its files, with what ran so far, when asked. */
function answerCollects(): void {
  const channel = new (workerThreads().BroadcastChannel)(CHANNEL);
  channel.unref(); // an idle thread still ends when its pool lets it go
  channel.onmessage = (event: unknown) => {
    if ((event as { data: unknown }).data !== 'collect') return;
    channel.postMessage([...(recorded ?? [])].map(([key, script]) => [key, script.createCachedData()]));
  };
}

/**
 * For the build's warm start: asks the recording worker threads of this process for the caches of
 * the files they compiled (the worker entries) and keeps them for writeCodeCache; resolves with the
 * number of files received once no thread has answered for `quietMs`. The threads must not block in
 * Atomics.wait while idle (the pools open with atomics disabled when recording) to hear the request.
 */
export async function collectWorkerCaches(quietMs = 500): Promise<number> {
  const channel = new (workerThreads().BroadcastChannel)(CHANNEL);
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((done) => {
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    };
    channel.onmessage = (event: unknown) => {
      for (const [key, data] of (event as { data: [string, Uint8Array][] }).data) {
        // Of two threads' caches of a file, the first.
        if (fromWorkers.has(key)) continue;
        fromWorkers.set(key, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        count++;
      }
      quiet();
    };
    channel.postMessage('collect');
    quiet();
  });
  channel.close();
  return count;
}

/**
 * `require` as Node's loader gives it to a module (createRequire would make a second Module and its
 * lookup paths for each file, 0.05 ms each); resolve() is built on first use only.
 */
function requireOf(module: Module, shared: NodeJS.Require): NodeJS.Require {
  let resolver: NodeJS.Require | undefined;
  const resolve = (request: string, options?: { paths?: string[] }) => (resolver ??= createRequire(module.filename)).resolve(request, options);
  resolve.paths = (request: string) => (resolver ??= createRequire(module.filename)).resolve.paths(request);
  return Object.assign((id: string) => module.require(id) as unknown, { resolve, cache: shared.cache, extensions: shared.extensions, main: shared.main });
}

/** How many files were compiled since installCodeCache(true). */
export function recordedCount(): number {
  return recorded?.size ?? 0;
}


/**
 * Takes the cache of the files compiled so far, with what ran so far (the build calls it at the first
 * answer): their cache then holds what a start runs before that answer and no more, as each function
 * in a cache is deserialised with it (the start files' caches were 470 KB so, 525 KB if taken later).
 */
export function freezeCodeCache(): void {
  for (const [key, script] of recorded ?? []) if (!frozen.has(key)) frozen.set(key, script.createCachedData());
}

/**
 * Writes the cache of every file compiled since installCodeCache(true), with what ran so far, and
 * the worker threads' caches (collectWorkerCaches) in their own file.
 */
export function writeCodeCache(): string {
  if (!recorded) throw new Error('writeCodeCache: installCodeCache(true) was not called.');
  const caches = new Map(frozen);
  for (const [key, script] of recorded) if (!caches.has(key)) caches.set(key, script.createCachedData());
  writeCache(cacheFile, caches);
  if (fromWorkers.size) writeCache(workerCacheFile, fromWorkers);
  return cacheFile;
}

function writeCache(file: string, caches: Map<string, Buffer>): void {
  const index: Record<string, [number, number]> = {};
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [key, data] of caches) {
    index[key] = [offset, data.length];
    parts.push(data);
    offset += data.length;
  }
  const json = Buffer.from(JSON.stringify(index), 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([length, json, ...parts]));
  chmodSync(temporary, 0o644); // readable by whoever runs the service, whatever the build's umask
  renameSync(temporary, file);
}

/** The files of out/main the caches hold (the worker threads' too). */
export function cachedFiles(): string[] {
  return [cacheFile, workerCacheFile].flatMap((file) => Object.keys(readCache(file)?.index ?? {}));
}

/** The files whose cache this V8 rejects (the build checks it in a fresh process; none is right). */
export function rejectedFiles(): string[] {
  return [cacheFile, workerCacheFile].flatMap((file) => {
    const cache = readCache(file);
    if (!cache) return [`(no ${relative(root, file)})`];
    return Object.entries(cache.index)
      .filter(([key, [start, length]]) => compile(readFileSync(join(root, key), 'utf8'), join(root, key), cache.data.subarray(start, start + length)).cachedDataRejected !== false)
      .map(([key]) => key);
  });
}
