import { describe, expect, it } from 'vitest';
import { listDataSources } from '../../src-main/features/deployments';
import { bearerFor, createUser } from '../support/users';
import { allPages, createDeployment, D, developer, svc, useDeploymentsService, VALID, viewer } from '../support/deployments-api';

// Deployments: create, list, get and delete, and the setup wizard a new deployment starts in.
useDeploymentsService();

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
