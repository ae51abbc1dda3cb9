import { chmodSync, mkdirSync, statSync } from 'node:fs';

/** Permission bits for group and others: none of Drydock's files may have any. */
export const GROUP_OTHER_BITS = 0o077;

/**
 * Makes the data directory private before anything is written to it: the directory is 0700 (also
 * when an older version left it looser), and the process umask becomes 077, so every file the
 * service and its libraries create later — SQLite and its WAL, git objects, exports, the secrets
 * file, emulator and DuckDB files, worker output — is 0600 and every folder 0700, without each
 * writer having to remember a mode.
 */
export function preparePrivateDataDir(dataDir: string): void {
  // The umask is process-wide and settable only from the main thread (a worker's `process.umask(mask)`
  // throws); workers inherit it. Tried rather than asked of `isMainThread`, whose import made every
  // start load node:worker_threads for this one test (start time, issue 10).
  try {
    process.umask(process.umask() | GROUP_OTHER_BITS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_UNSUPPORTED_OPERATION') throw error;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { mode, uid } = statSync(dataDir);
  const ownedByUs = typeof process.getuid !== 'function' || uid === process.getuid();
  if (ownedByUs && (mode & GROUP_OTHER_BITS) !== 0) chmodSync(dataDir, 0o700);
}
