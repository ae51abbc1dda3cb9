import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHostError, type GitHostConnector, type LocalGitHost } from '../../src-main/connectors/githost';
import { getLocalGitHost } from '../../src-main/features/git-host';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-empty-sample-'));

let svc: TestService;
let host: LocalGitHost;
let acme: number;
let jane: number;
beforeAll(async () => {
  svc = await startTestService();
  host = getLocalGitHost(svc.ctx);
  acme = host.createInstallation('acme').id;
  jane = host.createInstallation('jane', 'User').id;
  await host.createRepository('acme', 'analytics', { defaultBranch: 'main' });
  await host.createRepository('acme', 'dbt-project', { defaultBranch: 'trunk' });
  await host.createRepository('acme', 'website', { private: false });
  await host.createRepository('jane', 'sandbox');
  await host.commit('acme', 'analytics', 'develop', [{ path: 'x.txt', content: 'x' }], 'branch');
  await host.commit('acme', 'analytics', 'release', [{ path: 'y.txt', content: 'y' }], 'branch');
});
afterAll(async () => svc.stop());

const GH = '/api/v1/git-host';
const connectPath = (d: number) => `/build/api/v1/deployments/${d}/git-host/connect`;

/** Every item of a cursor-paginated list, walked `size` at a time. */
async function walk(path: string, size: number): Promise<unknown[]> {
  const items: unknown[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const res = await svc.call('GET', `${path}?first=${size}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (!res.body.pageInfo.hasNextPage) return items;
    after = res.body.pageInfo.endCursor;
  }
  throw new Error('pagination did not end');
}

describe('repo-host connection', () => {
  it('status names the host and says whether its app credentials work', async () => {
    const res = await svc.call('GET', `${GH}/status`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'local', connected: true, app: { slug: 'drydock-local' }, installationCount: 2, error: null });
  });

  it('status reports refused credentials as connected: false with the error (200)', async () => {
    const refusing = {
      provider: 'github',
      app: async () => {
        throw new GitHostError('GITHOST_UNAUTHORIZED', "GitHub refused the app's credentials (GET /app, 401)");
      },
      installations: async () => [],
    } as unknown as GitHostConnector;
    svc.ctx.services.gitHost = refusing;
    try {
      const res = await svc.call('GET', `${GH}/status`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider: 'github', connected: false, app: null, error: { code: 'GITHOST_UNAUTHORIZED' } });
    } finally {
      delete svc.ctx.services.gitHost;
    }
  });

  it('lists installations, cursor paginated', async () => {
    const all = (await walk(`${GH}/installations`, 1)) as { id: number; account: { login: string; type: string } }[];
    expect(all.map((i) => [i.id, i.account.login, i.account.type])).toEqual([
      [acme, 'acme', 'Organization'],
      [jane, 'jane', 'User'],
    ]);
  });

  it('lists the repositories of an installation, cursor paginated; an unknown installation → 404', async () => {
    const repos = (await walk(`${GH}/installations/${acme}/repositories`, 2)) as { fullName: string; private: boolean; defaultBranch: string }[];
    expect(repos.map((r) => [r.fullName, r.private, r.defaultBranch])).toEqual([
      ['acme/analytics', true, 'main'],
      ['acme/dbt-project', true, 'trunk'],
      ['acme/website', false, 'main'],
    ]);
    const unknown = await svc.call('GET', `${GH}/installations/424242/repositories`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('GITHOST_NOT_FOUND');
  });

  it('lists the branches of a repository with their head commits, cursor paginated; an unknown repository → 404', async () => {
    const branches = (await walk(`${GH}/repositories/acme/analytics/branches`, 2)) as { name: string; commit: string }[];
    expect(branches.map((b) => b.name)).toEqual(['develop', 'main', 'release']);
    expect(branches.find((b) => b.name === 'main')!.commit).toBe(await host.resolveRef('acme', 'analytics', 'main'));
    expect((await svc.call('GET', `${GH}/repositories/acme/nope/branches`)).status).toBe(404);
  });

  it('connects a deployment to a repository on its default branch, and a later connect replaces it', async () => {
    const d = await createDeployment(svc);
    const first = await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'dbt-project', installationId: acme } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      deploymentId: d,
      provider: 'local',
      installationId: acme,
      fullName: 'acme/dbt-project',
      branch: 'trunk',
      path: '',
      headCommit: await host.resolveRef('acme', 'dbt-project', 'trunk'),
    });
    const second = await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'analytics', branch: 'release', path: './analytics/dbt/' } });
    expect(second.body).toMatchObject({ fullName: 'acme/analytics', branch: 'release', path: 'analytics/dbt' });
    expect(svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM git_host_connections WHERE deployment_id = ?').get(d)).toEqual({ n: 1 });
  });

  it('connect refuses a repository the app cannot see (404), a missing branch (404), another installation (409) and a path leaving the repository (400)', async () => {
    const d = await createDeployment(svc);
    expect((await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'missing' } })).body.code).toBe('GITHOST_NOT_FOUND');
    const noBranch = await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'analytics', branch: 'gone' } });
    expect(noBranch.status).toBe(404);
    const mismatch = await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'analytics', installationId: jane } });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.code).toBe('GITHOST_INSTALLATION_MISMATCH');
    expect((await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'analytics', path: '../etc' } })).status).toBe(400);
    expect(svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM git_host_connections WHERE deployment_id = ?').get(d)).toEqual({ n: 0 });
    expect((await svc.call('POST', connectPath(999_999), { body: { owner: 'acme', repo: 'analytics' } })).status).toBe(404);
  });

  it('needs deployment edit access: viewers and embed sessions get 403', async () => {
    const d = await createDeployment(svc);
    const viewer = createUser(svc, 'viewer');
    expect((await svc.call('GET', `${GH}/installations`, { auth: viewer.auth })).status).toBe(403);
    expect((await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'analytics' }, auth: viewer.auth })).status).toBe(403);
    const developer = createUser(svc, 'developer');
    expect((await svc.call('GET', `${GH}/installations`, { auth: developer.auth })).status).toBe(200);
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    expect((await svc.call('GET', `${GH}/status`, { auth: embed })).status).toBe(403);
  });

  it('maps a host rate limit to 503 GITHOST_RATE_LIMITED', async () => {
    svc.ctx.services.gitHost = {
      provider: 'github',
      installations: async () => {
        throw new GitHostError('GITHOST_RATE_LIMITED', 'GitHub rate limit reached', { status: 403, retryAfterMs: 5000 });
      },
    } as unknown as GitHostConnector;
    try {
      const res = await svc.call('GET', `${GH}/installations`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'GITHOST_RATE_LIMITED', retryAfterMs: 5000 });
    } finally {
      delete svc.ctx.services.gitHost;
    }
  });

  it('transform sync with source git reads the manifest from the connected repository (its branch and project folder)', async () => {
    await host.createRepository('acme', 'shop-dbt', {
      defaultBranch: 'main',
      files: [{ path: 'dbt/target/manifest.json', content: JSON.stringify(tinyManifest('1.8.0')) }],
    });
    const d = await createDeployment(svc);
    await svc.call('POST', connectPath(d), { body: { owner: 'acme', repo: 'shop-dbt', path: 'dbt' } });
    const started = await svc.call('POST', `/api/v1/deployments/${d}/transform-sync`, { body: { source: 'git', output: 'files' } });
    expect(started.status).toBe(202);
    await getJobRunner(svc.ctx).wait(started.body.syncJobId, { timeoutMs: 20_000 });
    const status = (await svc.call('GET', `/api/v1/deployments/${d}/transform-sync/${started.body.syncJobId}`)).body;
    expect(status).toMatchObject({ status: 'COMPLETED', source: 'git', repository: 'acme/shop-dbt', ref: 'main' });
    const result = (await svc.call('GET', `/api/v1/deployments/${d}/transform-sync/${started.body.syncJobId}/result`)).body;
    expect(result.stats.dbtVersion).toBe('1.8.0');
    expect(result.files.map((f: { cube: string }) => f.cube)).toEqual(['products']);

    // A commit on the host is what the next sync reads.
    await host.commit('acme', 'shop-dbt', 'main', [{ path: 'dbt/target/manifest.json', content: JSON.stringify(tinyManifest('1.9.0')) }], 'dbt parse');
    const again = await svc.call('POST', `/api/v1/deployments/${d}/transform-sync`, { body: { source: 'git', output: 'files' } });
    await getJobRunner(svc.ctx).wait(again.body.syncJobId, { timeoutMs: 20_000 });
    expect((await svc.call('GET', `/api/v1/deployments/${d}/transform-sync/${again.body.syncJobId}/result`)).body.stats.dbtVersion).toBe('1.9.0');

    const missing = await svc.call('POST', `/api/v1/deployments/${d}/transform-sync`, { body: { source: 'git', ref: 'no-such-branch' } });
    const failed = await getJobRunner(svc.ctx).wait(missing.body.syncJobId, { timeoutMs: 20_000 });
    expect(failed.error).toMatchObject({ code: 'REF_NOT_FOUND' });
  });
});

function tinyManifest(dbtVersion: string) {
  return {
    metadata: { dbt_version: dbtVersion, generated_at: '2026-02-02T00:00:00Z', project_name: 'shop' },
    nodes: {
      'model.shop.products': {
        unique_id: 'model.shop.products',
        resource_type: 'model',
        name: 'products',
        package_name: 'shop',
        relation_name: 'analytics.products',
        columns: { sku: { name: 'sku', data_type: 'text' } },
      },
    },
  };
}
