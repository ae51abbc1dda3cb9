import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

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
  // The umask is process-wide and settable only from the main thread; workers inherit it.
  if (isMainThread) process.umask(process.umask() | GROUP_OTHER_BITS);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { mode, uid } = statSync(dataDir);
  const ownedByUs = typeof process.getuid !== 'function' || uid === process.getuid();
  if (ownedByUs && (mode & GROUP_OTHER_BITS) !== 0) chmodSync(dataDir, 0o700);
}
