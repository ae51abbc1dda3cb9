// First file of each worker thread of a service that compiles out/main with the build's V8 code
// cache (see workerBoot in code-cache.ts and platform/workers/pools.ts): installs the hook in this
// thread (Module._compile is per thread) before the thread loads its entry, compute-worker or
// model-worker (~1 MB each, parsed and compiled anew by each thread without it). A V8 that rejects
// the cache compiles the entry from source, as before. Built as out/main/worker-boot.js.
import { workerData } from 'node:worker_threads';
import { installCodeCache } from '../code-cache';

installCodeCache((workerData as { recordCodeCache?: boolean } | null)?.recordCodeCache === true, 'worker');

/** What piscina loads when the thread starts (WARM_UP_EXPORT); tasks name their entry's file. */
export function ready(): true {
  return true;
}
