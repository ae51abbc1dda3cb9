import { afterAll, beforeAll, expect } from 'vitest';
import { startTestService, type TestService } from './service';
import { createUser, type TestUser } from './users';

/*
 * The set-up the deployments API tests (test/api/deployments-*.test.ts) share: one test service per
 * file with a viewer and a developer, a valid create body, and the list helpers. `svc`, `viewer`
 * and `developer` are live bindings: they hold the file's service once `useDeploymentsService()`'s
 * `beforeAll` has run.
 */

export let svc: TestService;
export let viewer: TestUser;
export let developer: TestUser;

/** Starts the file's service (with a viewer and a developer) before its tests and stops it after. */
export function useDeploymentsService(): void {
  beforeAll(async () => {
    svc = await startTestService();
    viewer = createUser(svc, 'viewer');
    developer = createUser(svc, 'developer');
  });
  afterAll(async () => svc.stop());
}

/** A body `POST /build/api/v1/deployments/` accepts. */
export const VALID = {
  name: 'Analytics',
  cloudProvider: 'aws',
  creationMethod: 'git-host',
  deployMode: 'git',
  storageProvider: { type: 'local' },
};

export async function createDeployment(target: TestService = svc, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await target.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, ...overrides } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

export const D = (id: number) => `/api/v1/deployments/${id}`;

/** The messages of the deployment's logs, newest first (`query` adds filters). */
export async function logMessages(id: number, query = ''): Promise<string[]> {
  const res = await svc.call('GET', `${D(id)}/logs?first=1000${query}`);
  expect(res.status).toBe(200);
  return (res.body.items as { message: string }[]).map((l) => l.message);
}

/** Every item of a cursor-paginated list, read `first` at a time (each page checked to hold at most `first`). */
export async function allPages(path: string, first: number): Promise<unknown[]> {
  const items: unknown[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await svc.call('GET', `${path}${sep}first=${first}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(first);
    items.push(...res.body.items);
    if (!res.body.pageInfo.hasNextPage) return items;
    after = res.body.pageInfo.endCursor;
  }
  throw new Error('pagination did not end');
}
