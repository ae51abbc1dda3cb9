// Areas loaded on first use (start time, issue 10; `drydock serve` and the app start this way): the
// service answers every request as one that loaded every area at start does — the first request
// to an area waits for its code, the route table and the OpenAPI document are the same, and HEAD
// is answered by the GET route without a body.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { D, deployFiles } from '../support/lakehouse';
import { startTestService, type TestResponse, type TestService } from '../support/service';
import { createUser } from '../support/users';

let eager: TestService;
let lazy: TestService;
beforeAll(async () => {
  [eager, lazy] = await Promise.all([startTestService(), startTestService({ areas: 'on-first-use', loadRestAfterMs: null })]);
});
afterAll(async () => Promise.all([eager?.stop(), lazy?.stop()]));

/** A GET of every operation that has no path parameter but the deployment (an unknown one). */
function probePaths(routes: TestService['routes']): string[] {
  return routes
    .filter((r) => r.def.method === 'GET' && r.def.auth !== 'public' && !/\{(?!deploymentId\})[^}]+\}/.test(r.def.path))
    .map((r) => r.def.path.replace('{deploymentId}', '999999'));
}

const comparable = (res: TestResponse) => ({
  status: res.status,
  type: res.headers.get('content-type'),
  // Problems are deterministic; successful bodies carry ids and times of their own service.
  body: res.status >= 400 ? res.body : Object.keys(res.body ?? {}).sort(),
});

describe('areas loaded on first use', () => {
  it('answers the first request to each area, sent while the areas are still unloaded, as a service that loaded them at start', async () => {
    expect(lazy.routes.length).toBe(0);
    const paths = probePaths(eager.routes);
    expect(paths.length).toBeGreaterThan(40);
    // All at once, right after start: each waits for its area's code.
    const lazyAnswers = await Promise.all(paths.map((path) => lazy.call('GET', path)));
    const eagerAnswers = await Promise.all(paths.map((path) => eager.call('GET', path)));
    for (const [i, path] of paths.entries()) {
      expect({ path, ...comparable(lazyAnswers[i]!) }).toEqual({ path, ...comparable(eagerAnswers[i]!) });
      expect(lazyAnswers[i]!.status, path).not.toBe(500);
    }
  });

  it('refuses a request without credentials, or from a role the operation is closed to, before its area has loaded', async () => {
    const fresh = await startTestService({ areas: 'on-first-use', loadRestAfterMs: null });
    try {
      const viewer = createUser(fresh, 'viewer');
      const reference = createUser(eager, 'viewer');
      // The tenant area is not loaded yet: the first request waits for it, then its admin-only rule applies.
      const [anonymous, refused] = await Promise.all([
        fresh.call('GET', '/api/v1/tenant/settings', { auth: null }),
        fresh.call('GET', '/api/v1/tenant/settings', { auth: viewer.auth }),
      ]);
      expect(comparable(anonymous)).toEqual(comparable(await eager.call('GET', '/api/v1/tenant/settings', { auth: null })));
      expect(anonymous.status).toBe(401);
      expect(comparable(refused)).toEqual(comparable(await eager.call('GET', '/api/v1/tenant/settings', { auth: reference.auth })));
      expect(refused.status).toBe(403);
      expect((await fresh.call('GET', '/api/v1/tenant/settings')).status).toBe(200);
    } finally {
      await fresh.stop();
    }
  });

  it('has the same route table and OpenAPI document once every area has loaded', async () => {
    const lazyDoc = (await lazy.call('GET', '/api/v1/spec', { auth: null })).body;
    const eagerDoc = (await eager.call('GET', '/api/v1/spec', { auth: null })).body;
    expect(lazyDoc).toEqual(eagerDoc);
    const table = (routes: TestService['routes']) => new Map(routes.map((r) => [r.def.operationId, r.options]));
    expect(table(await lazy.allRoutes())).toEqual(table(eager.routes));
  });

  it('answers HEAD with the GET route’s status and headers and no body', async () => {
    for (const svc of [lazy, eager]) {
      const get = await svc.call('GET', '/api/v1/users/me');
      const head = await svc.call('HEAD', '/api/v1/users/me');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect((await svc.call('HEAD', '/api/v1/no-such-operation')).status).toBe(404);
      expect((await svc.call('HEAD', '/api/v1/users/me', { auth: null })).status).toBe(401);
    }
  });
});

// An area subscribes to another's events when its code loads (src-main/features/area-events.ts).
describe('events between areas loaded on first use', () => {
  it('a deployment created by the first request after start, before any other area has loaded, gets its production environment', async () => {
    const fresh = await startTestService({ areas: 'on-first-use', loadRestAfterMs: null });
    try {
      const id = await createDeployment(fresh);
      const environments = await fresh.call('GET', `/api/v1/deployments/${id}/environments`);
      expect(environments.status).toBe(200);
      expect((environments.body as { items: { kind: string; branchName: string }[] }).items).toEqual([
        expect.objectContaining({ kind: 'production', branchName: 'main' }),
      ]);
    } finally {
      await fresh.stop();
    }
  });

  it('a commit to the deploy branch, the first request after a restart, starts its build as it does once every area has loaded', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'drydock-lazy-'));
    try {
      const first = await startTestService({ dataDir, areas: 'on-first-use', loadRestAfterMs: null });
      const id = await createDeployment(first);
      await first.stop();

      const restarted = await startTestService({ dataDir, areas: 'on-first-use', loadRestAfterMs: null });
      try {
        const commit = await deployFiles(restarted, id, { 'model/cubes/extra.yml': 'cubes:\n  - name: extra\n    sql_table: extra\n' });
        // The background load is off here, so the job runner never starts: the build is queued, not run.
        await expect.poll(async () => (await restarted.call('GET', `${D(id)}/build-status`)).body).toMatchObject({ commit, buildStatus: 'queued' });
      } finally {
        await restarted.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
