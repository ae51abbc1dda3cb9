import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServeProcess {
  proc: ChildProcess;
  url: string;
  port: number;
  dataDir: string;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const BIN = new URL('../../bin/drydock.js', import.meta.url).pathname;

/** Spawns the built `drydock serve` and resolves once it prints its listening line. */
export function startServe(
  options: { dataDir?: string; args?: string[]; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'drydock-serve-'));
  const proc = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', '0', ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`drydock serve did not start in time:\n${out}`)), options.timeoutMs ?? 30_000);
    const check = () => {
      const match = /Drydock listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (!match) return;
      // The login link is printed right after the listening line; wait for it unless it was turned off.
      const wantsLink = !(options.args ?? []).includes('--no-login-link');
      if (wantsLink && !/\?login=\S+\n/.test(out)) return;
      clearTimeout(timer);
      proc.stdout!.off('data', check);
      resolve({
        proc,
        url: match[1],
        port: Number(match[2]),
        dataDir,
        output: () => out,
        exited,
        stop: async (signal = 'SIGTERM') => {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
          return exited;
        },
      });
    };
    proc.stdout!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`drydock serve exited with ${code} before listening:\n${out}`));
    });
  });
}
