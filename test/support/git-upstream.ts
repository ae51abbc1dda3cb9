import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startGitServer, type GitServer } from './git-server';
import { startTestService, type TestService } from './service';

/*
 * The set-up the two-way git tests (test/api/git-upstream*.test.ts) share: a test service and a git
 * server over smart HTTP with one user, team repositories pushed by plain git, and the connect call.
 * `svc` and `server` are live bindings: they hold the file's service and server once
 * `useGitUpstream()`'s `beforeAll` has run.
 */

export const PASSWORD = 'correct-horse-battery';
export let svc: TestService;
export let server: GitServer;

/** Starts the git server (user alice, PASSWORD) and the service before the file's tests; stops both after. */
export function useGitUpstream(): void {
  beforeAll(async () => {
    server = await startGitServer({ alice: PASSWORD });
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.stop();
    await server.close();
  });
}

export const B = (id: number) => `/build/api/v1/deployments/${id}`;
export const ORDERS = 'cubes:\n  - name: team_orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n';

/**
 * A bare repository on the server with `main` (the model file `team_orders.yml`) and the
 * `extraBranches` at the same commit, pushed by plain git; returns a working clone.
 */
export async function teamRepo(name: string, extraBranches: string[] = []): Promise<{ work: string; bare: string }> {
  const bare = await server.createRepo(`${name}.git`);
  const work = await server.clone(`${name}.git`);
  await commitFile(work, 'model/cubes/team_orders.yml', ORDERS, 'team model');
  await server.git(work, 'push', '-q', 'origin', 'HEAD:main', ...extraBranches.map((b) => `HEAD:${b}`));
  return { work, bare };
}

/** Commits one file in a working clone (plain git, not pushed); returns the commit. */
export async function commitFile(work: string, path: string, content: string, message: string): Promise<string> {
  mkdirSync(join(work, path, '..'), { recursive: true });
  writeFileSync(join(work, path), content);
  await server.git(work, 'add', '.');
  await server.git(work, 'commit', '-q', '-m', message);
  return (await server.git(work, 'rev-parse', 'HEAD')).trim();
}

/** Connects the deployment to the server's repository `repo` as alice. */
export function connect(id: number, repo: string, extra: Record<string, unknown> = {}) {
  return svc.call('POST', `${B(id)}/git-host/connect`, { body: { url: server.url(`${repo}.git`), username: 'alice', password: PASSWORD, ...extra } });
}
