import { describe, expect, it } from 'vitest';
import { isDdlEnabled, recordBuildState } from '../../src-main/features/deployments';
import { ensureDevelopmentEnvironment } from '../../src-main/features/environments';
import { createUser } from '../support/users';
import { allPages, createDeployment, D, developer, logMessages, svc, useDeploymentsService, viewer } from '../support/deployments-api';

// Deployments: update, the settings, versions, build status, logs and pods read from them, and regions.
useDeploymentsService();

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

  it('update: refuses fields it does not accept (400 UNKNOWN_FIELD naming the field)', async () => {
    const id = await createDeployment();
    const res = await svc.call('PUT', D(id), { body: { deployBranch: 'prod' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_FIELD');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/body/deployBranch' })]);
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
