// Node's own compile cache for Drydock's processes (start time, issue 25): V8 keeps the code it
// compiled for each CommonJS or ES module on disk, and the next start of the same Node reuses it
// instead of parsing and compiling the modules again. Each entry of out/main (cli.js, the service
// process) calls `enableCompileCache()` before it imports anything else, so every module after it
// is compiled with the cache. Node keys the cache by its own version and each file's content, so
// Node and Electron's Node (the desktop app's service process) never read each other's entries,
// and a rebuild only misses the files that changed. Worker threads do not share the main thread's
// cache: they turn their own on from NODE_COMPILE_CACHE, which is set here for them (and for
// child processes, which inherit it too).
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's own cache folder, never a shared one: a code cache is trusted input to V8, so it is
 * not kept where another user could write (the system temp folder, Node's default).
 */
export function compileCacheDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'drydock', 'Cache', 'compile-cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'drydock', 'compile-cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'drydock', 'compile-cache');
}

/**
 * Turns the compile cache on for this process. Never throws: a folder that cannot be written (a
 * read-only home, a full disk) or a Node without the API only means modules compile from source.
 * NODE_COMPILE_CACHE, when set, chooses the folder instead; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function enableCompileCache(): void {
  try {
    const dir = process.env.NODE_COMPILE_CACHE || compileCacheDir();
    const { status } = module.enableCompileCache?.(dir) ?? {};
    if (status === module.constants.compileCacheStatus.ENABLED) process.env.NODE_COMPILE_CACHE = dir;
  } catch {
    // compiles from source, as without a cache
  }
}

/**
 * Writes what was compiled so far to the cache now. Node writes it when the process exits; a
 * service can run for days and be stopped by a signal it does not handle, so it writes once
 * it has started.
 */
export function flushCompileCache(): void {
  try {
    module.flushCompileCache?.();
  } catch {
    // the next start compiles from source
  }
}
