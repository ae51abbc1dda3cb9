import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiCaller } from './lakehouse';
import { readResponse } from './http-response';

export const BIN = new URL('../../bin/drydock.js', import.meta.url).pathname;

export interface CliResult {
  status: number | null;
  /** The signal that ended the process, when one did (status is then null). */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** An environment without the caller's Drydock settings, with profiles kept in a fresh temp dir. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('DRYDOCK_')) delete env[name];
  delete env.CI;
  delete env.NO_COLOR;
  return { ...env, DRYDOCK_DATA_DIR: mkdtempSync(join(tmpdir(), 'drydock-cli-home-')), ...extra };
}

/** Spawns the built `drydock` (never blocking this process, which may be serving the API it calls). */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const started = startCommand(process.execPath, [BIN, ...args], options.env ?? cliEnv(), options.cwd);
  started.child.stdin!.end(options.input ?? '');
  return started;
}

/** Spawns a command with piped stdio; stdin stays open for the caller. */
export function startCommand(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

/** stdout parsed as the single JSON document a `--json` command prints. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function jsonOf(result: CliResult): any {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${result.status}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** `call` (as TestService has it) against any service URL, e.g. a `drydock serve` process. */
export function apiAt(url: string, key: string): ApiCaller {
  return {
    async call(method, path, init = {}) {
      const headers: Record<string, string> = {};
      const auth = init.auth === undefined ? `Api-Key ${key}` : init.auth;
      if (auth !== null) headers.authorization = auth;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      return readResponse(res);
    },
  };
}
