// zlib on libuv's thread pool, as promises: the repository code's inflates and deflates that do
// not hold the calling thread while they run.
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';

export const inflateAsync = promisify(inflate);
export const deflateAsync = promisify(deflate);
