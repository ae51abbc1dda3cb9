// Plain `git`, for tests that check what Drydock wrote (or reads) against what git itself makes of
// it. The system's git configuration is left out, so the machine's settings change nothing.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1' };
/** Who commits in a working tree (gitIn). */
const author = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const maxBuffer = 64 * 1024 * 1024;

/** `git` on the bare repository at `gitdir`; its output as bytes (objects are compared byte for byte). */
export const gitBytes = (gitdir: string, ...args: string[]): Buffer => execFileSync('git', ['--git-dir', gitdir, ...args], { maxBuffer, env });

/** `git` on the bare repository at `gitdir`; its output as text, without the final line break. */
export const gitText = (gitdir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', gitdir, ...args], { maxBuffer, env, encoding: 'utf8' }).trim();

/** `git` in the working tree at `cwd`, committing as T; its output as text, without the final line break. */
export const gitIn = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, maxBuffer, env: { ...env, ...author }, encoding: 'utf8' }).trim();

/** `git` on the bare repository at `gitdir` with an index file of its own (`GIT_INDEX_FILE`), committing as T; its output as text. */
export const gitWithIndex = (gitdir: string, index: string, ...args: string[]): string =>
  execFileSync('git', ['--git-dir', gitdir, ...args], { maxBuffer, env: { ...env, ...author, GIT_INDEX_FILE: index }, encoding: 'utf8' }).trim();

/** `git` given `input` on its standard input (commands that need no repository, e.g. `show-index`); its output as text. */
export const gitFed = (input: Uint8Array, ...args: string[]): string => execFileSync('git', args, { input, maxBuffer, env, encoding: 'utf8' }).trim();

/** `git fsck --full` of the bare repository at `gitdir` (status 0: sound), with what it said. */
export const gitFsck = (gitdir: string): SpawnSyncReturns<string> => spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--no-dangling'], { env, encoding: 'utf8' });
