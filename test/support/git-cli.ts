// Plain `git` on a bare repository, for tests that check what Drydock wrote (or reads) against what
// git itself makes of it. Its output as bytes: objects are compared byte for byte.
import { execFileSync } from 'node:child_process';

export const gitBytes = (gitdir: string, ...args: string[]): Buffer =>
  execFileSync('git', ['--git-dir', gitdir, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
