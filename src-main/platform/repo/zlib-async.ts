// zlib on libuv's thread pool, as promises: what the repository code inflates and deflates off the
// calling thread (a thread terminated in such a call is the stop gate's concern: workers/stop-gate.ts).
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';

export const inflateAsync = promisify(inflate);
export const deflateAsync = promisify(deflate);
