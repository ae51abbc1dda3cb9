import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import {
  getDataSource,
  getDataSourceSecret,
  getDeployBranch,
  isDdlEnabled,
  listDataSources,
  recordBuildState,
} from '../../src-main/features/deployments';
import { ensureDevelopmentEnvironment } from '../../src-main/features/environments';
import type { Logger } from '../../src-main/context';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let viewer: TestUser;
let developer: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  viewer = createUser(svc, 'viewer');
  developer = createUser(svc, 'developer');
});
afterAll(async () => svc.stop());

const VALID = {
  name: 'Analytics',
  cloudProvider: 'aws',
  creationMethod: 'git-host',
  deployMode: 'git',
  storageProvider: { type: 'local' },
};

async function createDeployment(target: TestService = svc, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await target.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, ...overrides } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

const D = (id: number) => `/api/v1/deployments/${id}`;

async function logMessages(id: number, query = ''): Promise<string[]> {
  const res = await svc.call('GET', `${D(id)}/logs?first=1000${query}`);
  expect(res.status).toBe(200);
  return (res.body.items as { message: string }[]).map((l) => l.message);
}

async function allPages(path: string, first: number): Promise<unknown[]> {
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

describe('create deployment (POST /build/api/v1/deployments/)', () => {
  it('create: returns 201 with the deployment, the provider default region, the stable channel and the wizard at its first step', async () => {
    const res = await svc.call('POST', '/build/api/v1/deployments/', { body: VALID });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Analytics',
      cloudProvider: 'aws',
      region: 'us-east-1',
      creationMethod: 'git-host',
      deployMode: 'git',
      releaseChannel: 'stable',
      releaseChannelVersion: null,
      releaseChannelVersionHold: false,
      deployBranch: 'main',
      sqlRunnerDdlEnabled: true,
      storageProvider: { type: 'local', bucket: null, credentialsConfigured: false },
      creationStep: { currentStep: 'repository', index: 0, completed: false },
    });
    const get = await svc.call('GET', D(res.body.id));
    expect(get.body).toEqual(res.body);
  });

  it('create: accepts the three cloud providers, the four creation methods and both deploy modes', async () => {
    for (const cloudProvider of ['aws', 'gcp', 'azure']) {
      for (const creationMethod of ['upload', 'ssh', 'platform-git', 'git-host']) {
        for (const deployMode of ['git', 'cli']) {
          const res = await svc.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, cloudProvider, creationMethod, deployMode } });
          expect(res.status, `${cloudProvider} ${creationMethod} ${deployMode}`).toBe(201);
          expect(res.body).toMatchObject({ cloudProvider, creationMethod, deployMode });
        }
      }
    }
  });

  it('create: refuses values outside the enumerations with a JSON pointer', async () => {
    for (const [field, value] of [
      ['cloudProvider', 'oracle'],
      ['creationMethod', 'fax'],
      ['deployMode', 'ftp'],
      ['releaseChannel', 'nightly'],
    ] as const) {
      const res = await svc.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, [field]: value } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/body/${field}`);
    }
  });

  it('create: requires name, cloudProvider, creationMethod, deployMode and a storage-provider config', async () => {
    for (const field of ['name', 'cloudProvider', 'creationMethod', 'deployMode', 'storageProvider']) {
      const body: Record<string, unknown> = { ...VALID };
      delete body[field];
      const res = await svc.call('POST', '/build/api/v1/deployments/', { body });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/body/${field}`);
    }
  });

  it('create: takes an optional region of its cloud provider and refuses a foreign one with a pointer', async () => {
    const ok = await svc.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, cloudProvider: 'gcp', region: 'europe-west3' } });
    expect(ok.status).toBe(201);
    expect(ok.body.region).toBe('europe-west3');
    const bad = await svc.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, cloudProvider: 'gcp', region: 'us-east-1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].pointer).toBe('/body/region');
  });

  it('create: takes an optional release channel', async () => {
    const res = await svc.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, releaseChannel: 'regular' } });
    expect(res.status).toBe(201);
    expect(res.body.releaseChannel).toBe('regular');
    const versions = await svc.call('GET', `${D(res.body.id)}/versions`);
    const regular = versions.body.channels.find((c: { releaseChannel: string }) => c.releaseChannel === 'regular');
    expect(res.body.currentVersion).toBe(regular.latestVersion);
  });

  it('create: a cloud storage provider needs a bucket; the local one takes no other settings', async () => {
    const noBucket = await svc.call('POST', '/build/api/v1/deployments/', { body: { ...VALID, storageProvider: { type: 's3' } } });
    expect(noBucket.status).toBe(400);
    expect(noBucket.body.errors[0].pointer).toBe('/body/storageProvider/bucket');
    const localBucket = await svc.call('POST', '/build/api/v1/deployments/', {
      body: { ...VALID, storageProvider: { type: 'local', bucket: 'my-bucket' } },
    });
    expect(localBucket.status).toBe(400);
    expect(localBucket.body.errors[0].pointer).toBe('/body/storageProvider/bucket');
    const s3 = await svc.call('POST', '/build/api/v1/deployments/', {
      body: { ...VALID, storageProvider: { type: 's3', bucket: 'acme-artifacts', region: 'us-east-1', prefix: 'drydock/' } },
    });
    expect(s3.status).toBe(201);
    expect(s3.body.storageProvider).toEqual({ type: 's3', bucket: 'acme-artifacts', region: 'us-east-1', prefix: 'drydock/', credentialsConfigured: false });
  });

  it('create: storage credentials go to the SecretStore and are never returned', async () => {
    const secret = 'storage-secret-Zq81x';
    const res = await svc.call('POST', '/build/api/v1/deployments/', {
      body: { ...VALID, storageProvider: { type: 's3', bucket: 'acme-artifacts', credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: secret } } },
    });
    expect(res.status).toBe(201);
    expect(res.body.storageProvider.credentialsConfigured).toBe(true);
    expect(res.text).not.toContain(secret);
    const stored = await svc.ctx.secrets.get(`deployment:${res.body.id}:storage:credentials`);
    expect(JSON.parse(stored as string)).toEqual({ accessKeyId: 'AKIAEXAMPLE', secretAccessKey: secret });
    expect((await svc.call('GET', `${D(res.body.id)}/settings`)).text).not.toContain(secret);
  });

  it('create: the deployment gets a production environment on its deploy branch', async () => {
    const id = await createDeployment();
    const envs = await svc.call('GET', `${D(id)}/environments`);
    expect(envs.body.items).toHaveLength(1);
    expect(envs.body.items[0]).toMatchObject({ kind: 'production', name: 'production', branchName: 'main', deploymentId: id });
  });

  it('create: default env vars put a warehouse source `default` and a lakehouse source `lake` on the local emulators', async () => {
    const id = await createDeployment();
    const vars = await svc.call('GET', `${D(id)}/env-vars`);
    const byName = Object.fromEntries(vars.body.items.map((v: { name: string; value: string }) => [v.name, v.value]));
    expect(byName).toEqual({
      CUBEJS_DB_TYPE: 'snowflake',
      CUBEJS_DB_NAME: 'ANALYTICS',
      CUBEJS_DATASOURCES: 'default,lake',
      CUBEJS_DS_LAKE_DB_TYPE: 'databricks-jdbc',
      CUBEJS_DS_LAKE_DB_DATABRICKS_CATALOG: 'main',
    });
    const sources = listDataSources(svc.ctx, id);
    expect(sources.map((s) => [s.name, s.kind, s.connector])).toEqual([
      ['default', 'warehouse', 'emulator'],
      ['lake', 'lakehouse', 'emulator'],
    ]);
  });

  it('create: needs deployment edit access', async () => {
    const asViewer = await svc.call('POST', '/build/api/v1/deployments/', { body: VALID, auth: viewer.auth });
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.code).toBe('FORBIDDEN');
    const asDeveloper = await svc.call('POST', '/build/api/v1/deployments/', { body: VALID, auth: developer.auth });
    expect(asDeveloper.status).toBe(201);
  });

  it('create: logs its work in the production INIT log', async () => {
    const id = await createDeployment(svc, { name: 'Logged' });
    const init = await svc.call('GET', `${D(id)}/logs?container=INIT&source=production`);
    const messages = init.body.items.map((l: { message: string }) => l.message).join('\n');
    expect(messages).toContain('Deployment "Logged" created by admin@localhost');
    expect(messages).toContain('Production environment');
  });
});

describe('list and get deployments', () => {
  it('list: cursor paginated with first and after, each deployment once', async () => {
    for (let i = 0; i < 3; i++) await createDeployment();
    const all = (await allPages('/api/v1/deployments', 2)) as { id: number }[];
    const ids = all.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const count = (svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM deployments').get() as { n: number }).n;
    expect(ids).toHaveLength(count);
  });

  it('list: refuses a cursor it did not issue', async () => {
    const res = await svc.call('GET', '/api/v1/deployments?after=%%%');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_CURSOR');
  });

  it('list and get: need deployment read access, which viewers have', async () => {
    const id = await createDeployment();
    expect((await svc.call('GET', '/api/v1/deployments', { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('GET', D(id), { auth: viewer.auth })).status).toBe(200);
    const deny = createUser(svc, 'viewer', { actions: ['-DeploymentRead'] });
    expect((await svc.call('GET', D(id), { auth: deny.auth })).status).toBe(403);
  });

  it('get: an unknown deployment is 404', async () => {
    const res = await svc.call('GET', D(999999));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('deployment routes refuse embed sessions', async () => {
    const id = await createDeployment();
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    for (const path of [D(id), `${D(id)}/settings`, `${D(id)}/env-vars`, `${D(id)}/logs`, '/api/v1/deployments']) {
      const res = await svc.call('GET', path, { auth: embed });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('EMBED_SESSION_REFUSED');
    }
  });
});

describe('update deployment (PUT D)', () => {
  it('update: partial merge changes only the fields sent', async () => {
    const id = await createDeployment(svc, { templateVariables: { a: '1' } });
    const before = (await svc.call('GET', D(id))).body;
    const res = await svc.call('PUT', D(id), { body: { defaultLaunchpadViewGroup: 'Sales' } });
    expect(res.status).toBe(200);
    const { defaultLaunchpadViewGroup, updatedAt, ...rest } = res.body;
    const { defaultLaunchpadViewGroup: was, updatedAt: _u, ...restBefore } = before;
    expect(was).toBeNull();
    expect(defaultLaunchpadViewGroup).toBe('Sales');
    expect(updatedAt).toBeDefined();
    expect(rest).toEqual(restBefore);
  });

  it('update: templateVariables are merged key by key and a null value removes a key', async () => {
    const id = await createDeployment(svc, { template: 'ecommerce', templateVariables: { region: 'emea', currency: 'EUR', debug: true } });
    const res = await svc.call('PUT', D(id), { body: { templateVariables: { currency: 'USD', debug: null, seats: 5 } } });
    expect(res.status).toBe(200);
    expect(res.body.templateVariables).toEqual({ region: 'emea', currency: 'USD', seats: 5 });
    expect(res.body.template).toBe('ecommerce');
  });

  it('update: releaseChannelVersion must be one of GET D/versions for the channel, else 400 with a pointer', async () => {
    const id = await createDeployment();
    const versions = (await svc.call('GET', `${D(id)}/versions`)).body;
    const stable = versions.channels.find((c: { releaseChannel: string }) => c.releaseChannel === 'stable');
    const regular = versions.channels.find((c: { releaseChannel: string }) => c.releaseChannel === 'regular');
    const pinned = stable.versions[1].version;
    const ok = await svc.call('PUT', D(id), { body: { releaseChannelVersion: pinned } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ releaseChannelVersion: pinned, currentVersion: pinned });
    const foreign = regular.versions[0].version;
    const bad = await svc.call('PUT', D(id), { body: { releaseChannelVersion: foreign } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ pointer: '/body/releaseChannelVersion', detail: expect.stringContaining(foreign) }]);
    const unknown = await svc.call('PUT', D(id), { body: { releaseChannelVersion: '0.0.1' } });
    expect(unknown.status).toBe(400);
    expect((await svc.call('GET', D(id))).body.releaseChannelVersion).toBe(pinned);
  });

  it('update: releaseChannelVersion is checked against the channel sent in the same request', async () => {
    const id = await createDeployment();
    const versions = (await svc.call('GET', `${D(id)}/versions`)).body;
    const regular = versions.channels.find((c: { releaseChannel: string }) => c.releaseChannel === 'regular');
    const res = await svc.call('PUT', D(id), { body: { releaseChannel: 'regular', releaseChannelVersion: regular.versions[2].version } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ releaseChannel: 'regular', releaseChannelVersion: regular.versions[2].version });
  });

  it('update: switching channel drops a pin the new channel does not offer', async () => {
    const id = await createDeployment();
    const stable = (await svc.call('GET', `${D(id)}/versions`)).body.channels[0];
    await svc.call('PUT', D(id), { body: { releaseChannelVersion: stable.versions[0].version } });
    const res = await svc.call('PUT', D(id), { body: { releaseChannel: 'regular' } });
    expect(res.body.releaseChannelVersion).toBeNull();
    const regular = (await svc.call('GET', `${D(id)}/versions`)).body.channels.find((c: { releaseChannel: string }) => c.releaseChannel === 'regular');
    expect(res.body.currentVersion).toBe(regular.latestVersion);
  });

  it('update: releaseChannelVersionHold without a version holds the version running now', async () => {
    const id = await createDeployment();
    const current = (await svc.call('GET', D(id))).body.currentVersion;
    const res = await svc.call('PUT', D(id), { body: { releaseChannelVersionHold: true } });
    expect(res.body).toMatchObject({ releaseChannelVersionHold: true, releaseChannelVersion: current });
    const unpinned = await svc.call('PUT', D(id), { body: { releaseChannelVersion: null } });
    expect(unpinned.body).toMatchObject({ releaseChannelVersionHold: false, releaseChannelVersion: null });
  });

  it('update: cloudProvider and region change together; a region of another provider is refused with a pointer', async () => {
    const id = await createDeployment();
    const moved = await svc.call('PUT', D(id), { body: { cloudProvider: 'azure' } });
    expect(moved.body).toMatchObject({ cloudProvider: 'azure', region: 'eastus' });
    const bad = await svc.call('PUT', D(id), { body: { region: 'eu-west-1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].pointer).toBe('/body/region');
    const both = await svc.call('PUT', D(id), { body: { cloudProvider: 'aws', region: 'eu-west-1' } });
    expect(both.body).toMatchObject({ cloudProvider: 'aws', region: 'eu-west-1' });
  });

  it('update: template, defaultLaunchpadViewGroup and launchpadTabs are set and cleared with null', async () => {
    const id = await createDeployment();
    const set = await svc.call('PUT', D(id), {
      body: { template: 'saas-metrics', defaultLaunchpadViewGroup: 'Finance', launchpadTabs: ['workbooks', 'reports'] },
    });
    expect(set.body).toMatchObject({ template: 'saas-metrics', defaultLaunchpadViewGroup: 'Finance', launchpadTabs: ['workbooks', 'reports'] });
    const cleared = await svc.call('PUT', D(id), { body: { template: null, defaultLaunchpadViewGroup: null, launchpadTabs: null } });
    expect(cleared.body).toMatchObject({ template: null, defaultLaunchpadViewGroup: null, launchpadTabs: null });
  });

  it('update: sqlRunnerDdlEnabled (default true) is settable and readable through settings and isDdlEnabled', async () => {
    const id = await createDeployment();
    expect((await svc.call('GET', `${D(id)}/settings`)).body.sqlRunnerDdlEnabled).toBe(true);
    expect(isDdlEnabled(svc.ctx, id)).toBe(true);
    await svc.call('PUT', D(id), { body: { sqlRunnerDdlEnabled: false } });
    expect((await svc.call('GET', `${D(id)}/settings`)).body.sqlRunnerDdlEnabled).toBe(false);
    expect(isDdlEnabled(svc.ctx, id)).toBe(false);
  });

  it('update: refuses fields it does not accept', async () => {
    const id = await createDeployment();
    const res = await svc.call('PUT', D(id), { body: { deployBranch: 'prod' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('update: needs deployment edit access', async () => {
    const id = await createDeployment();
    expect((await svc.call('PUT', D(id), { body: { name: 'x' }, auth: viewer.auth })).status).toBe(403);
    expect((await svc.call('PUT', D(id), { body: { name: 'x' }, auth: developer.auth })).status).toBe(200);
  });

  it('update: logs which settings changed', async () => {
    const id = await createDeployment();
    await svc.call('PUT', D(id), { body: { releaseChannel: 'regular', sqlRunnerDdlEnabled: false } });
    const main = await logMessages(id, '&container=MAIN');
    expect(main[0]).toContain('releaseChannel stable → regular');
    expect(main[0]).toContain('sqlRunnerDdlEnabled true → false');
  });
});

describe('delete deployment (DELETE D)', () => {
  it('delete: 204, then the deployment and what hangs off it are gone', async () => {
    const id = await createDeployment();
    const res = await svc.call('DELETE', D(id));
    expect(res.status).toBe(204);
    expect((await svc.call('GET', D(id))).status).toBe(404);
    expect((await svc.call('GET', `${D(id)}/env-vars`)).status).toBe(404);
    for (const table of ['env_vars', 'deployment_logs', 'environments']) {
      const n = (svc.ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE deployment_id = ?`).get(id) as { n: number }).n;
      expect(n, table).toBe(0);
    }
  });

  it('delete: deletes the deployment’s secrets from the SecretStore', async () => {
    const id = await createDeployment(svc, { storageProvider: { type: 'gcs', bucket: 'acme-bucket', credentials: { serviceAccountKey: 'k' } } });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_PASS', value: 'hunter2', isSecret: true }] });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:CUBEJS_DB_PASS`)).toBe('hunter2');
    await svc.call('DELETE', D(id));
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:CUBEJS_DB_PASS`)).toBeNull();
    expect(await svc.ctx.secrets.get(`deployment:${id}:storage:credentials`)).toBeNull();
  });

  it('delete: revokes the deployment’s deployment and environment tokens', async () => {
    const id = await createDeployment();
    const minted = await svc.call('POST', `${D(id)}/token`);
    const envId = (await svc.call('GET', `${D(id)}/environments`)).body.items[0].id;
    const envToken = await svc.call('POST', `${D(id)}/environments/${envId}/tokens`, { body: {} });
    await svc.call('DELETE', D(id));
    await expect(svc.ctx.tokens.verify(minted.body.token)).rejects.toMatchObject({ reason: 'revoked' });
    await expect(svc.ctx.tokens.verify(envToken.body.data.token)).rejects.toMatchObject({ reason: 'revoked' });
  });

  it('delete: needs deployment edit access', async () => {
    const id = await createDeployment();
    expect((await svc.call('DELETE', D(id), { auth: viewer.auth })).status).toBe(403);
    expect((await svc.call('GET', D(id))).status).toBe(200);
  });
});

describe('settings, versions, build status, logs, pods', () => {
  it('settings: all deployment settings, secret env vars by name with isSecret and never the value', async () => {
    const id = await createDeployment(svc, { templateVariables: { team: 'data' } });
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_PASS', value: 'settings-secret-77', isSecret: true },
        { name: 'CUBEJS_DB_USER', value: 'CUBE' },
      ],
    });
    const res = await svc.call('GET', `${D(id)}/settings`, { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('settings-secret-77');
    expect(res.body).toMatchObject({ deploymentId: id, templateVariables: { team: 'data' }, sqlRunnerDdlEnabled: true, deployBranch: 'main' });
    const secret = res.body.envVars.find((v: { name: string }) => v.name === 'CUBEJS_DB_PASS');
    expect(secret).toEqual({ name: 'CUBEJS_DB_PASS', isSecret: true, updatedAt: expect.any(String) });
    expect(res.body.envVars.find((v: { name: string }) => v.name === 'CUBEJS_DB_USER')).toMatchObject({ value: 'CUBE', isSecret: false });
    const warehouse = res.body.dataSources.find((s: { name: string }) => s.name === 'default');
    expect(warehouse).toMatchObject({ kind: 'warehouse', user: 'CUBE', secretSettings: ['CUBEJS_DB_PASS'] });
  });

  it('versions: switchable versions per release channel, newest first, with the version running now', async () => {
    const id = await createDeployment();
    const res = await svc.call('GET', `${D(id)}/versions`, { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.body.channels.map((c: { releaseChannel: string }) => c.releaseChannel)).toEqual(['stable', 'regular']);
    for (const channel of res.body.channels) {
      expect(channel.versions.length).toBeGreaterThan(1);
      expect(channel.latestVersion).toBe(channel.versions[0].version);
      const dates = channel.versions.map((v: { releasedAt: string }) => v.releasedAt);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    expect(res.body.currentVersion).toBe(res.body.channels[0].latestVersion);
  });

  it('build-status: the deploy branch reports deployed and idle until a build is recorded', async () => {
    const id = await createDeployment();
    const res = await svc.call('GET', `${D(id)}/build-status`);
    expect(res.body).toEqual({
      branch: 'main',
      isDeployBranch: true,
      buildStatus: 'idle',
      deployStatus: 'deployed',
      commit: null,
      buildJobId: null,
      detail: null,
      updatedAt: null,
    });
    expect((await svc.call('GET', `${D(id)}/build-status?branch=main`)).body.deployStatus).toBe('deployed');
  });

  it('build-status: a branch that exists but was never built reports not deployed', async () => {
    const id = await createDeployment();
    const created = await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'feature/orders' } });
    expect(created.status, created.text).toBe(201);
    const res = await svc.call('GET', `${D(id)}/build-status?branch=feature%2Forders`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ branch: 'feature/orders', isDeployBranch: false, buildStatus: 'idle', deployStatus: 'not_deployed' });
  });

  it('build-status: a branch that does not exist answers 404 BRANCH_NOT_FOUND, not a made-up state', async () => {
    const id = await createDeployment();
    const res = await svc.call('GET', `${D(id)}/build-status?branch=no-such-branch`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('BRANCH_NOT_FOUND');
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('build-status: reports what recordBuildState recorded and logs it', async () => {
    const id = await createDeployment();
    expect((await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'feature/x' } })).status).toBe(201);
    recordBuildState(svc.ctx, id, 'feature/x', { buildStatus: 'building', deployStatus: 'not_deployed', commit: 'abc123def4567890', buildJobId: 'job-1' });
    let res = await svc.call('GET', `${D(id)}/build-status?branch=feature%2Fx`);
    expect(res.body).toMatchObject({ buildStatus: 'building', deployStatus: 'not_deployed', commit: 'abc123def4567890', buildJobId: 'job-1' });
    expect(res.body.updatedAt).toEqual(expect.any(String));
    recordBuildState(svc.ctx, id, 'feature/x', { buildStatus: 'failed', deployStatus: 'failed', detail: 'cube orders: unknown column' });
    res = await svc.call('GET', `${D(id)}/build-status?branch=feature%2Fx`);
    expect(res.body).toMatchObject({ buildStatus: 'failed', deployStatus: 'failed', detail: 'cube orders: unknown column', commit: null });
    const dev = await svc.call('GET', `${D(id)}/logs?source=dev&container=MAIN`);
    expect(dev.body.items[0]).toMatchObject({ level: 'error', message: expect.stringContaining('feature/x: build failed, deploy failed') });
  });

  it('logs: real lines of the service’s own work, newest first', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_USER', value: 'LOADER' }] });
    await svc.call('POST', `${D(id)}/creation-step/advance`);
    const res = await svc.call('GET', `${D(id)}/logs`);
    const items = res.body.items as { id: number; message: string; container: string; timestamp: string }[];
    expect(items[0].message).toContain('Setup step "repository" completed');
    expect(items[1].message).toContain('set CUBEJS_DB_USER');
    expect(items.at(-1)?.message).toContain('created by');
    expect(items.map((l) => l.id)).toEqual([...items.map((l) => l.id)].sort((a, b) => b - a));
  });

  it('logs: filter by source and container', async () => {
    const id = await createDeployment();
    recordBuildState(svc.ctx, id, 'dev-branch', { buildStatus: 'succeeded', deployStatus: 'deployed' });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'FOO', value: 'bar' }] });
    const dev = await svc.call('GET', `${D(id)}/logs?source=dev`);
    expect(dev.body.items.length).toBeGreaterThan(0);
    expect(dev.body.items.every((l: { source: string }) => l.source === 'dev')).toBe(true);
    const server = await svc.call('GET', `${D(id)}/logs?container=cubejs-server`);
    expect(server.body.items.length).toBeGreaterThan(0);
    expect(server.body.items.every((l: { container: string }) => l.container === 'cubejs-server')).toBe(true);
    const none = await svc.call('GET', `${D(id)}/logs?source=dev&container=INIT`);
    expect(none.body.items).toEqual([]);
    for (const q of ['source=staging', 'container=sidecar']) {
      const bad = await svc.call('GET', `${D(id)}/logs?${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].pointer).toMatch(/^\/querystring\//);
    }
  });

  it('logs: cursor paginated', async () => {
    const id = await createDeployment();
    for (let i = 0; i < 4; i++) await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: `V${i}`, value: String(i) }] });
    const paged = (await allPages(`${D(id)}/logs`, 2)) as { id: number }[];
    const whole = (await svc.call('GET', `${D(id)}/logs?first=1000`)).body.items as { id: number }[];
    expect(paged.map((l) => l.id)).toEqual(whole.map((l) => l.id));
    expect(whole.length).toBeGreaterThan(4);
  });

  it('pods: the production environment runs one pod whose containers are the log containers', async () => {
    const id = await createDeployment();
    const res = await svc.call('GET', `${D(id)}/pods`, { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    const pod = res.body.items[0];
    expect(pod).toMatchObject({ environmentName: 'production', branch: 'main', phase: 'Running', ready: true });
    expect(pod.version).toBe((await svc.call('GET', D(id))).body.currentVersion);
    expect(pod.containers.map((c: { name: string }) => c.name)).toEqual(['INIT', 'MAIN', 'cubejs-server', 'vector', 'api-proxy']);
    expect(pod.containers[0]).toMatchObject({ state: 'terminated', reason: 'Completed' });
  });

  it('pods: derived from the deployment’s state: deploying is Pending, a failed deploy Failed, a never-deployed branch runs nothing', async () => {
    const id = await createDeployment();
    const owner = createUser(svc, 'developer');
    ensureDevelopmentEnvironment(svc.ctx, id, owner.id, 'feature/a');
    let pods = (await svc.call('GET', `${D(id)}/pods`)).body.items;
    expect(pods.map((p: { environmentName: string }) => p.environmentName)).toEqual(['production']);
    recordBuildState(svc.ctx, id, 'feature/a', { buildStatus: 'succeeded', deployStatus: 'deploying' });
    recordBuildState(svc.ctx, id, 'main', { buildStatus: 'failed', deployStatus: 'failed' });
    pods = (await svc.call('GET', `${D(id)}/pods`)).body.items;
    const byEnv = Object.fromEntries(pods.map((p: { environmentName: string; phase: string }) => [p.environmentName, p.phase]));
    expect(byEnv).toEqual({ production: 'Failed', [`dev-${owner.id}`]: 'Pending' });
  });

  it('pods: cursor paginated', async () => {
    const id = await createDeployment();
    for (let i = 0; i < 3; i++) {
      const u = createUser(svc, 'developer');
      ensureDevelopmentEnvironment(svc.ctx, id, u.id, `b${i}`);
      recordBuildState(svc.ctx, id, `b${i}`, { buildStatus: 'succeeded', deployStatus: 'deployed' });
    }
    const pods = (await allPages(`${D(id)}/pods`, 2)) as { name: string }[];
    expect(pods).toHaveLength(4);
    expect(new Set(pods.map((p) => p.name)).size).toBe(4);
  });
});

describe('setup wizard (creation-step advance and reset)', () => {
  it('creation-step: advance walks the ordered steps until complete, then 409', async () => {
    const id = await createDeployment();
    const seen: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await svc.call('POST', `${D(id)}/creation-step/advance`);
      expect(res.status).toBe(200);
      expect(res.body.index).toBe(i + 1);
      seen.push(res.body.currentStep);
    }
    expect(seen).toEqual(['data-sources', 'data-model', null]);
    expect((await svc.call('GET', D(id))).body.creationStep).toMatchObject({ completed: true, currentStep: null });
    const again = await svc.call('POST', `${D(id)}/creation-step/advance`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CREATION_ALREADY_COMPLETE');
  });

  it('creation-step: advance from a step that is not the current one is refused with 409', async () => {
    const id = await createDeployment();
    const stale = await svc.call('POST', `${D(id)}/creation-step/advance`, { body: { from: 'data-model' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'CREATION_STEP_MISMATCH', currentStep: 'repository' });
    const ok = await svc.call('POST', `${D(id)}/creation-step/advance`, { body: { from: 'repository' } });
    expect(ok.body.currentStep).toBe('data-sources');
  });

  it('creation-step: reset returns to the first step', async () => {
    const id = await createDeployment();
    await svc.call('POST', `${D(id)}/creation-step/advance`);
    await svc.call('POST', `${D(id)}/creation-step/advance`);
    const res = await svc.call('POST', `${D(id)}/creation-step/reset`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ currentStep: 'repository', index: 0, completed: false });
    expect(res.body.steps.map((s: { status: string }) => s.status)).toEqual(['current', 'pending', 'pending']);
  });

  it('creation-step: needs deployment edit access', async () => {
    const id = await createDeployment();
    expect((await svc.call('POST', `${D(id)}/creation-step/advance`, { auth: viewer.auth })).status).toBe(403);
    expect((await svc.call('POST', `${D(id)}/creation-step/reset`, { auth: viewer.auth })).status).toBe(403);
  });
});

describe('env variables', () => {
  it('env-vars: list is cursor paginated by name', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: ['ZED', 'ALPHA', 'MID'].map((name) => ({ name, value: name.toLowerCase() })) });
    const names = ((await allPages(`${D(id)}/env-vars`, 3)) as { name: string }[]).map((v) => v.name);
    expect(names).toHaveLength(8);
    expect(names).toEqual([...names].sort());
  });

  it('env-vars: set creates and replaces the named variables, null deletes one, the others keep their value', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] });
    const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'A', value: '10' }, { name: 'B', value: null }, { name: 'C', value: '3' }] });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.items.map((v: { name: string; value: string }) => [v.name, v.value]));
    expect(byName).toMatchObject({ A: '10', C: '3', CUBEJS_DB_NAME: 'ANALYTICS' });
    expect(byName).not.toHaveProperty('B');
  });

  it('env-vars: names must match ^[A-Z_][A-Z0-9_]*$ (400 with a pointer)', async () => {
    const id = await createDeployment();
    for (const name of ['lower', '1ABC', 'A-B', 'A B']) {
      const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'OK_NAME', value: 'x' }, { name, value: 'x' }] });
      expect(res.status, name).toBe(400);
      expect(res.body.errors[0].pointer).toBe('/body/1/name');
    }
    const names = (await svc.call('GET', `${D(id)}/env-vars`)).body.items.map((v: { name: string }) => v.name);
    expect(names).not.toContain('OK_NAME');
  });

  it('env-vars: a name given twice in one request is refused', async () => {
    const id = await createDeployment();
    const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'X', value: '1' }, { name: 'X', value: '2' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/1/name');
  });

  it('env-vars: CUBEJS_DATASOURCES must list data source names', async () => {
    const id = await createDeployment();
    const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DATASOURCES', value: 'default,my-lake' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/0/value');
  });

  it('env-vars: secret values go to the SecretStore under deployment:<id>:env:<NAME>, only non-secret values to SQLite', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_PASS', value: 'pa55-word-XYZ', isSecret: true },
        { name: 'CUBEJS_DB_USER', value: 'ANALYST' },
      ],
    });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:CUBEJS_DB_PASS`)).toBe('pa55-word-XYZ');
    const rows = svc.ctx.db.prepare('SELECT name, value, is_secret FROM env_vars WHERE deployment_id = ? AND name IN (?, ?) ORDER BY name').all(id, 'CUBEJS_DB_PASS', 'CUBEJS_DB_USER');
    expect(rows).toEqual([
      { name: 'CUBEJS_DB_PASS', value: null, is_secret: 1 },
      { name: 'CUBEJS_DB_USER', value: 'ANALYST', is_secret: 0 },
    ]);
  });

  it('env-vars: a secret variable shows its name and isSecret: true, never its value', async () => {
    const id = await createDeployment();
    const put = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'API_TOKEN', value: 'tok-never-shown-1', isSecret: true }] });
    expect(put.text).not.toContain('tok-never-shown-1');
    const list = await svc.call('GET', `${D(id)}/env-vars`);
    expect(list.text).not.toContain('tok-never-shown-1');
    expect(list.body.items.find((v: { name: string }) => v.name === 'API_TOKEN')).toEqual({ name: 'API_TOKEN', isSecret: true, updatedAt: expect.any(String) });
  });

  it('env-vars: re-setting a secret without isSecret keeps it secret', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'S', value: 'one', isSecret: true }] });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'S', value: 'two' }] });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:S`)).toBe('two');
    const row = svc.ctx.db.prepare('SELECT value, is_secret FROM env_vars WHERE deployment_id = ? AND name = ?').get(id, 'S');
    expect(row).toEqual({ value: null, is_secret: 1 });
  });

  it('env-vars: deleting a secret, or making it plain, removes its value from the SecretStore', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'GONE', value: 'g', isSecret: true }, { name: 'PLAIN', value: 'p', isSecret: true }] });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'GONE', value: null }, { name: 'PLAIN', value: 'visible', isSecret: false }] });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:GONE`)).toBeNull();
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:PLAIN`)).toBeNull();
    const list = (await svc.call('GET', `${D(id)}/env-vars`)).body.items;
    expect(list.find((v: { name: string }) => v.name === 'PLAIN')).toMatchObject({ value: 'visible', isSecret: false });
  });

  it('env-vars: a failed secret write leaves nothing half-written', async () => {
    class FailingStore extends MemorySecretStore {
      override async set(key: string, value: string): Promise<void> {
        if (value === 'boom') throw new Error('keychain locked');
        return super.set(key, value);
      }
    }
    const failing = await startTestService({ secrets: new FailingStore() });
    try {
      const id = await createDeployment(failing);
      await failing.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'FIRST', value: 'old', isSecret: true }] });
      const res = await failing.call('PUT', `${D(id)}/env-vars`, {
        body: [
          { name: 'FIRST', value: 'new', isSecret: true },
          { name: 'SECOND', value: 'boom', isSecret: true },
          { name: 'PLAIN', value: 'x' },
        ],
      });
      expect(res.status).toBe(500);
      expect(await failing.ctx.secrets.get(`deployment:${id}:env:FIRST`)).toBe('old');
      const names = (await failing.call('GET', `${D(id)}/env-vars`)).body.items.map((v: { name: string }) => v.name);
      expect(names).toContain('FIRST');
      expect(names).not.toContain('SECOND');
      expect(names).not.toContain('PLAIN');
    } finally {
      await failing.stop();
    }
  });

  it('env-vars: viewers can list but not set', async () => {
    const id = await createDeployment();
    expect((await svc.call('GET', `${D(id)}/env-vars`, { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'X', value: '1' }], auth: viewer.auth })).status).toBe(403);
  });

  it('env-vars: changes are logged by name, never by value', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'LOGGED_SECRET', value: 'do-not-log-me', isSecret: true }, { name: 'LOGGED_PLAIN', value: 'plain-value-q' }] });
    const server = await svc.call('GET', `${D(id)}/logs?container=cubejs-server`);
    expect(server.body.items[0].message).toContain('set LOGGED_SECRET (secret), LOGGED_PLAIN');
    expect(server.text).not.toContain('do-not-log-me');
    expect(server.text).not.toContain('plain-value-q');
  });
});

describe('data sources (derived from env vars)', () => {
  it('data sources: default from CUBEJS_DB_TYPE; others from CUBEJS_DATASOURCES and CUBEJS_DS_<NAME>_DB_TYPE', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DATASOURCES', value: 'default, lake, crm' },
        { name: 'CUBEJS_DS_CRM_DB_TYPE', value: 'postgres' },
      ],
    });
    const sources = listDataSources(svc.ctx, id);
    expect(sources.map((s) => [s.name, s.type, s.kind])).toEqual([
      ['default', 'snowflake', 'warehouse'],
      ['lake', 'databricks-jdbc', 'lakehouse'],
      ['crm', 'postgres', 'other'],
    ]);
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DATASOURCES', value: null }] });
    expect(listDataSources(svc.ctx, id).map((s) => s.name)).toEqual(['default']);
  });

  it('data sources: settings are read the Cube way, keyed by their CUBEJS_DB_ name', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_SNOWFLAKE_QUOTED_IDENTIFIERS_IGNORE_CASE', value: 'true' },
        { name: 'CUBEJS_DB_USER', value: 'CUBE_SVC' },
        { name: 'CUBEJS_DB_SNOWFLAKE_WAREHOUSE', value: 'COMPUTE_WH' },
        { name: 'CUBEJS_DS_LAKE_DB_NAME', value: 'analytics' },
      ],
    });
    const warehouse = getDataSource(svc.ctx, id, 'default');
    expect(warehouse).toMatchObject({ database: 'ANALYTICS', user: 'CUBE_SVC', warehouse: 'COMPUTE_WH', quotedIdentifiersIgnoreCase: true });
    expect(warehouse.settings.CUBEJS_DB_SNOWFLAKE_WAREHOUSE).toBe('COMPUTE_WH');
    const lake = getDataSource(svc.ctx, id, 'lake');
    expect(lake).toMatchObject({ catalog: 'main', database: 'analytics', quotedIdentifiersIgnoreCase: false });
    expect(lake.settings).toEqual({ CUBEJS_DB_TYPE: 'databricks-jdbc', CUBEJS_DB_DATABRICKS_CATALOG: 'main', CUBEJS_DB_NAME: 'analytics' });
  });

  it('data sources: use the local emulator until an account (warehouse) or a host (lakehouse) is configured', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: 'xy12345.eu-central-1' },
        {
          name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_URL',
          value: 'jdbc:databricks://dbc-a1b2c3.cloud.databricks.com:443/default;transportMode=http;ssl=1;httpPath=sql/1.0/warehouses/abc;AuthMech=3;UID=token',
        },
      ],
    });
    const [warehouse, lake] = listDataSources(svc.ctx, id);
    expect(warehouse).toMatchObject({ connector: 'remote', account: 'xy12345.eu-central-1' });
    expect(lake).toMatchObject({ connector: 'remote', host: 'dbc-a1b2c3.cloud.databricks.com', httpPath: 'sql/1.0/warehouses/abc' });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: null }, { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_URL', value: null }] });
    expect(getDataSource(svc.ctx, id, 'default').connector).toBe('emulator');
    expect(getDataSource(svc.ctx, id, 'lake').connector).toBe('emulator');
    // A secret account still counts as configured: its presence is known, its value is not read.
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: 'hidden-account', isSecret: true }, { name: 'CUBEJS_DS_LAKE_DB_HOST', value: 'adb-123.azuredatabricks.net' }] });
    expect(getDataSource(svc.ctx, id, 'default')).toMatchObject({ connector: 'remote', account: null });
    expect(getDataSource(svc.ctx, id, 'lake')).toMatchObject({ connector: 'remote', host: 'adb-123.azuredatabricks.net' });
  });

  it('data sources: secret values are read through the SecretStore only when a connector asks (getDataSourceSecret)', async () => {
    const reads: string[] = [];
    class CountingStore extends MemorySecretStore {
      override async get(key: string): Promise<string | null> {
        reads.push(key);
        return super.get(key);
      }
    }
    const counted = await startTestService({ secrets: new CountingStore() });
    try {
      const id = await createDeployment(counted);
      await counted.call('PUT', `${D(id)}/env-vars`, {
        body: [
          { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_TOKEN', value: 'dapi-secret-token', isSecret: true },
          { name: 'CUBEJS_DB_PASS', value: 'plain-pass' },
        ],
      });
      reads.length = 0;
      const lake = getDataSource(counted.ctx, id, 'lake');
      expect(lake.secretSettings).toEqual(['CUBEJS_DB_DATABRICKS_TOKEN']);
      expect(JSON.stringify(lake)).not.toContain('dapi-secret-token');
      expect(reads).toEqual([]);
      expect(await getDataSourceSecret(counted.ctx, id, 'lake', 'CUBEJS_DB_DATABRICKS_TOKEN')).toBe('dapi-secret-token');
      expect(reads).toEqual([`deployment:${id}:env:CUBEJS_DS_LAKE_DB_DATABRICKS_TOKEN`]);
      expect(await getDataSourceSecret(counted.ctx, id, 'default', 'CUBEJS_DB_PASS')).toBe('plain-pass');
      expect(await getDataSourceSecret(counted.ctx, id, 'default', 'CUBEJS_DB_SNOWFLAKE_PRIVATE_KEY')).toBeNull();
    } finally {
      await counted.stop();
    }
  });

  it('data sources: an unknown name is 404 DATA_SOURCE_NOT_FOUND', async () => {
    const id = await createDeployment();
    expect(() => getDataSource(svc.ctx, id, 'nope')).toThrowError(expect.objectContaining({ status: 404, code: 'DATA_SOURCE_NOT_FOUND' }));
  });

  it('deploy branch: a new deployment deploys from main', async () => {
    const id = await createDeployment();
    expect(getDeployBranch(svc.ctx, id)).toBe('main');
  });
});

describe('regions', () => {
  it('regions: a realistic list per cloud provider, cursor paginated', async () => {
    const all = (await allPages('/api/v1/regions/', 5)) as { id: string; cloudProvider: string; code: string; isDefault: boolean }[];
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    for (const provider of ['aws', 'gcp', 'azure']) {
      const mine = all.filter((r) => r.cloudProvider === provider);
      expect(mine.length).toBeGreaterThan(5);
      expect(mine.filter((r) => r.isDefault)).toHaveLength(1);
    }
    expect(all.map((r) => r.code)).toEqual(expect.arrayContaining(['us-east-1', 'europe-west1', 'westeurope']));
  });

  it('regions: filter by cloudProvider', async () => {
    const res = await svc.call('GET', '/api/v1/regions/?cloudProvider=gcp&first=1000', { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.body.items.every((r: { cloudProvider: string }) => r.cloudProvider === 'gcp')).toBe(true);
    expect(res.body.items.map((r: { code: string }) => r.code)).toContain('us-central1');
  });
});

describe('deployment token (POST D/token)', () => {
  it('deployment token: lives 24 hours by default', async () => {
    const id = await createDeployment();
    const before = Date.now();
    const res = await svc.call('POST', `${D(id)}/token`);
    expect(res.status).toBe(200);
    const lifetime = Date.parse(res.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(86400_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(86400_000 + 1_000);
    const claims = decodeJwt(res.body.token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(86400);
  });

  it('deployment token: expiresIn shortens its life', async () => {
    const id = await createDeployment();
    for (const expiresIn of [60, 3600, 86400]) {
      const res = await svc.call('POST', `${D(id)}/token`, { body: { expiresIn } });
      expect(res.status).toBe(200);
      const claims = decodeJwt(res.body.token);
      expect((claims.exp as number) - (claims.iat as number)).toBe(expiresIn);
    }
  });

  it('deployment token: expiresIn outside 60..86400 is 400 with the pointer /body/expiresIn', async () => {
    const id = await createDeployment();
    for (const expiresIn of [59, 0, 86401, 'soon']) {
      const res = await svc.call('POST', `${D(id)}/token`, { body: { expiresIn } });
      expect(res.status, String(expiresIn)).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/body/expiresIn');
    }
  });

  it('deployment token: a bearer JWT of kind deployment with claim deploymentId, good for that deployment only', async () => {
    const id = await createDeployment();
    const other = await createDeployment();
    const res = await svc.call('POST', `${D(id)}/token`, { auth: developer.auth });
    const claims = decodeJwt(res.body.token);
    expect(claims).toMatchObject({ kind: 'deployment', deploymentId: id, sub: String(developer.id) });
    const bearer = `Bearer ${res.body.token}`;
    expect((await svc.call('GET', D(id), { auth: bearer })).status).toBe(200);
    expect((await svc.call('GET', D(other), { auth: bearer })).status).toBe(403);
    const list = await svc.call('GET', '/api/v1/deployments', { auth: bearer });
    expect(list.body.items.map((d: { id: number }) => d.id)).toEqual([id]);
  });

  it('deployment token: carries the caller’s own access, no more', async () => {
    const id = await createDeployment();
    const editor = createUser(svc, 'developer');
    const res = await svc.call('POST', `${D(id)}/token`, { auth: editor.auth });
    svc.ctx.db.prepare("UPDATE users SET role = 'viewer' WHERE id = ?").run(editor.id);
    const put = await svc.call('PUT', D(id), { body: { name: 'renamed' }, auth: `Bearer ${res.body.token}` });
    expect(put.status).toBe(403);
  });

  it('deployment token: needs deployment edit access and refuses embed sessions and deployment tokens', async () => {
    const id = await createDeployment();
    expect((await svc.call('POST', `${D(id)}/token`, { auth: viewer.auth })).status).toBe(403);
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    const byEmbed = await svc.call('POST', `${D(id)}/token`, { auth: embed });
    expect(byEmbed.status).toBe(403);
    expect(byEmbed.body.code).toBe('EMBED_SESSION_REFUSED');
    const token = (await svc.call('POST', `${D(id)}/token`)).body.token;
    const renewed = await svc.call('POST', `${D(id)}/token`, { auth: `Bearer ${token}` });
    expect(renewed.status).toBe(403);
    expect(renewed.body.code).toBe('TOKEN_CANNOT_MINT');
  });

  it('deployment token: minting is logged in the api-proxy log, without the token', async () => {
    const id = await createDeployment();
    const res = await svc.call('POST', `${D(id)}/token`, { body: { expiresIn: 600 } });
    const logs = await svc.call('GET', `${D(id)}/logs?container=api-proxy`);
    expect(logs.body.items[0].message).toContain('Deployment token issued to admin@localhost, valid 600 s');
    expect(logs.text).not.toContain(res.body.token);
  });
});

describe('secrets stay secret', () => {
  it('secrets: secret env var and storage credential values never reach SQLite, a response or the service log', async () => {
    const logged: string[] = [];
    const capture: Logger = {
      info: (m, f) => logged.push(m + JSON.stringify(f ?? {})),
      warn: (m, f) => logged.push(m + JSON.stringify(f ?? {})),
      error: (m, f) => logged.push(m + JSON.stringify(f ?? {})),
    };
    const scanned = await startTestService({ log: capture });
    const envSecret = 'ENV-SECRET-4f7c1d9e-never-stored';
    const storageSecret = 'STORAGE-SECRET-a81b-never-stored';
    const plainMarker = 'PLAIN-MARKER-3c9e-stored';
    try {
      const created = await scanned.call('POST', '/build/api/v1/deployments/', {
        body: { ...VALID, storageProvider: { type: 's3', bucket: 'scan-bucket', credentials: { secretAccessKey: storageSecret } } },
      });
      const id = created.body.id;
      const responses = [created.text];
      responses.push((await scanned.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_PASS', value: envSecret, isSecret: true }] })).text);
      responses.push(
        (await scanned.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_PASS2', value: envSecret, isSecret: true }, { name: 'PLAIN_MARKER', value: plainMarker }] })).text,
      );
      for (const path of ['', '/settings', '/env-vars', '/logs', '/pods', '/versions', '/build-status', '/environments']) {
        responses.push((await scanned.call('GET', `${D(id)}${path}`)).text);
      }
      responses.push((await scanned.call('GET', '/api/v1/deployments')).text);
      responses.push((await scanned.call('PUT', D(id), { body: { name: 'renamed' } })).text);
      for (const text of responses) {
        expect(text).not.toContain(envSecret);
        expect(text).not.toContain(storageSecret);
      }
      const files = ['drydock.sqlite', 'drydock.sqlite-wal'].map((f) => join(scanned.dataDir, f)).filter((f) => existsSync(f));
      const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
      // The scan does find values that are stored: the plain variable is there.
      expect(bytes.includes(Buffer.from(plainMarker))).toBe(true);
      expect(bytes.includes(Buffer.from(envSecret))).toBe(false);
      expect(bytes.includes(Buffer.from(storageSecret))).toBe(false);
      expect(logged.join('\n')).not.toContain(envSecret);
      expect(logged.join('\n')).not.toContain(storageSecret);
    } finally {
      await scanned.stop();
    }
  });
});
