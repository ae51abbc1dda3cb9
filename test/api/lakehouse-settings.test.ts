import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNamePattern } from '../../src-shared/api/lakehouse';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';
import { DEFAULT_CONFIGURATION, deployFiles, integration, ORDERS_VIEW, startSampleProjectService, waitForBuildOf } from '../support/lakehouse';

let svc: TestService;
let viewer: TestUser;
let developer: TestUser;

beforeAll(async () => {
  svc = await startSampleProjectService();
  viewer = createUser(svc, 'viewer');
  developer = createUser(svc, 'developer');
});
afterAll(() => svc.stop());

const put = (id: number, expectedConfigurationVersion: number, configuration: Record<string, unknown>, options: { auth?: string; dataSource?: string } = {}) =>
  svc.call('PUT', integration(id, options.dataSource), {
    body: { expectedConfigurationVersion, configuration: { ...DEFAULT_CONFIGURATION, ...configuration } },
    ...(options.auth ? { auth: options.auth } : {}),
  });

describe('publication settings', () => {
  it('answers 404 LAKEHOUSE_SETTINGS_NOT_FOUND until settings are saved', async () => {
    const id = await createDeployment(svc);
    const res = await svc.call('GET', integration(id));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('LAKEHOUSE_SETTINGS_NOT_FOUND');
  });

  it('creates settings with expectedConfigurationVersion 0, defaults deletionPolicy to retain, and reads them back', async () => {
    const id = await createDeployment(svc);
    const created = await put(id, 0, { selectionMode: 'pattern', namePattern: '^orders_.*$', targetNameOverrides: { orders_view: 'orders_metrics' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      dataSourceName: 'lake',
      configurationVersion: 1,
      configuration: {
        enabled: true,
        selectionMode: 'pattern',
        deletionPolicy: 'retain',
        targetCatalog: 'main',
        targetSchema: 'default',
        targetNamePrefix: 'mv_',
        namePattern: '^orders_.*$',
        selectedViews: [],
        targetNameOverrides: { orders_view: 'orders_metrics' },
        rootSourceOverrides: {},
      },
    });
    const read = await svc.call('GET', integration(id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('takes the URL-encoded data source name (case-insensitive), and keeps one saved target per data source', async () => {
    const id = await createDeployment(svc);
    expect((await put(id, 0, {}, { dataSource: 'LAKE' })).status).toBe(200);
    const again = await put(id, 0, { targetSchema: 'other' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT');
    const read = await svc.call('GET', `/api/v1/deployments/${id}/lakehouse-metric-view-integrations/${encodeURIComponent('lake')}`);
    expect(read.body.configuration.targetSchema).toBe('default');
  });

  it('updates with the current version and bumps it; a stale version is refused with 409 and changes nothing', async () => {
    const id = await createDeployment(svc);
    await put(id, 0, {});
    const updated = await put(id, 1, { targetNamePrefix: 'v2_' });
    expect(updated.status).toBe(200);
    expect(updated.body.configurationVersion).toBe(2);
    const stale = await put(id, 1, { targetNamePrefix: 'stale_' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT');
    expect(stale.body.currentConfigurationVersion).toBe(2);
    const read = await svc.call('GET', integration(id));
    expect(read.body.configurationVersion).toBe(2);
    expect(read.body.configuration.targetNamePrefix).toBe('v2_');
    const missing = await createDeployment(svc);
    expect((await put(missing, 3, {})).body.code).toBe('LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT');
  });

  it('accepts the deprecated delete-managed deletion policy', async () => {
    const id = await createDeployment(svc);
    const res = await put(id, 0, { deletionPolicy: 'delete-managed' });
    expect(res.status).toBe(200);
    expect(res.body.configuration.deletionPolicy).toBe('delete-managed');
    expect((await put(id, 1, { deletionPolicy: 'purge' })).status).toBe(400);
  });

  it('requires a lakehouse data source: a warehouse data source is refused with 422, an unknown one with 404', async () => {
    const id = await createDeployment(svc);
    const warehouse = await put(id, 0, {}, { dataSource: 'default' });
    expect(warehouse.status).toBe(422);
    expect(warehouse.body.code).toBe('LAKEHOUSE_DATA_SOURCE_REQUIRED');
    expect((await svc.call('GET', integration(id, 'default'))).body.code).toBe('LAKEHOUSE_DATA_SOURCE_REQUIRED');
    const unknown = await put(id, 0, {}, { dataSource: 'nowhere' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('LAKEHOUSE_DATA_SOURCE_NOT_FOUND');
  });

  it('checks the rest of the configuration: selected needs views, names are plain, root sources are three-part', async () => {
    const id = await createDeployment(svc);
    expect((await put(id, 0, { selectionMode: 'selected', selectedViews: [] })).body.code).toBe('LAKEHOUSE_INVALID_CONFIGURATION');
    expect((await put(id, 0, { targetSchema: 'bad schema' })).status).toBe(400);
    expect((await put(id, 0, { targetNameOverrides: { orders_view: 'no-dash' } })).status).toBe(400);
    expect((await put(id, 0, { rootSourceOverrides: { orders_view: 'default.orders' } })).status).toBe(400);
    const clash = await put(id, 0, { targetNameOverrides: { a: 'same', b: 'SAME' } });
    expect(clash.status).toBe(422);
    expect(clash.body.code).toBe('LAKEHOUSE_TARGET_NAME_CONFLICT');
    expect((await svc.call('GET', integration(id))).status).toBe(404);
  });
});

describe('name pattern grammar', () => {
  it.each([
    ['orders', 'orders_view'],
    ['^orders_view$', 'orders_view'],
    ['^o.ders', 'orders_view'],
    ['^orders_.*$', 'orders_customers'],
    ['_view$', 'orders_view'],
    ['.*', 'anything'],
  ])('accepts literals, ^, $, a bare . and one .* (%s)', async (pattern, matching) => {
    const check = checkNamePattern(pattern);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.regex.test(matching)).toBe(true);
    const id = await createDeployment(svc);
    expect((await put(id, 0, { selectionMode: 'pattern', namePattern: pattern })).status).toBe(200);
  });

  it('a bare . matches exactly one character and patterns are unanchored unless ^ or $ say so', () => {
    const one = checkNamePattern('^a.c$');
    expect(one.ok && one.regex.test('abc')).toBe(true);
    expect(one.ok && one.regex.test('ac')).toBe(false);
    expect(one.ok && one.regex.test('abbc')).toBe(false);
    const floating = checkNamePattern('der');
    expect(floating.ok && floating.regex.test('orders')).toBe(true);
  });

  it.each([
    ['orders+', '"+"'],
    ['[ab]c', '"["'],
    ['(a|b)', '"("'],
    ['a|b', '"|"'],
    ['a\\.b', '"\\"'],
    ['ab?', '"?"'],
    ['a*', '"*"'],
    ['*a', '"*"'],
    ['a.*b.*', 'second ".*"'],
    ['a^b', '"^"'],
    ['a$b', '"$"'],
    ['a{2}', '"{"'],
    ['a b', '" "'],
    ['', 'empty'],
  ])('rejects anything else with a clear error (%s)', async (pattern, mentioned) => {
    const check = checkNamePattern(pattern);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain(mentioned);
    const id = await createDeployment(svc);
    const res = await put(id, 0, { selectionMode: 'pattern', namePattern: pattern });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('LAKEHOUSE_NAME_PATTERN_INVALID');
    expect(res.body.detail).toContain(pattern === '' ? 'namePattern' : mentioned);
  });

  it('rejects a pattern longer than 128 characters', async () => {
    const id = await createDeployment(svc);
    const ok = await put(id, 0, { selectionMode: 'pattern', namePattern: 'a'.repeat(128) });
    expect(ok.status).toBe(200);
    const res = await put(id, 1, { selectionMode: 'pattern', namePattern: 'a'.repeat(129) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('LAKEHOUSE_NAME_PATTERN_INVALID');
    expect(res.body.detail).toContain('128');
  });
});

describe('scope limit', () => {
  it('rejects a scope that resolves to more than 128 views of the deployed model', async () => {
    const id = await createDeployment(svc);
    const views = Array.from({ length: 129 }, (_, i) => ORDERS_VIEW.replace('name: orders_view', `name: many_${String(i).padStart(3, '0')}`));
    const commit = await deployFiles(svc, id, { 'model/views/many.yml': `views:\n${views.map((v) => v.slice('views:\n'.length)).join('')}` });
    expect((await waitForBuildOf(svc, id, commit)).buildStatus).toBe('succeeded');
    const all = await put(id, 0, { selectionMode: 'all' });
    expect(all.status).toBe(422);
    expect(all.body.code).toBe('LAKEHOUSE_SCOPE_TOO_LARGE');
    const pattern = await put(id, 0, { selectionMode: 'pattern', namePattern: '^many_' });
    expect(pattern.body.code).toBe('LAKEHOUSE_SCOPE_TOO_LARGE');
    expect((await put(id, 0, { selectionMode: 'pattern', namePattern: '^many_0' })).status).toBe(200);
    const selected = await put(id, 1, { selectionMode: 'selected', selectedViews: Array.from({ length: 129 }, (_, i) => `v${i}`) });
    expect(selected.status).toBe(422);
    expect(selected.body.code).toBe('LAKEHOUSE_SCOPE_TOO_LARGE');
  });
});

describe('settings permissions', () => {
  it('reading needs SchemaRead or SchemaUpdate; saving needs SchemaUpdate', async () => {
    const id = await createDeployment(svc);
    const refused = await put(id, 0, {}, { auth: viewer.auth });
    expect(refused.status).toBe(403);
    expect((await put(id, 0, {}, { auth: developer.auth })).status).toBe(200);
    expect((await svc.call('GET', integration(id), { auth: viewer.auth })).status).toBe(200);
    const granted = createUser(svc, 'viewer', { actions: ['SchemaUpdate'] });
    expect((await put(id, 1, { targetNamePrefix: 'x_' }, { auth: granted.auth })).status).toBe(200);
    const updateOnly = createUser(svc, 'viewer', { actions: ['-SchemaRead', 'SchemaUpdate'] });
    expect((await svc.call('GET', integration(id), { auth: updateOnly.auth })).status).toBe(200);
    const none = createUser(svc, 'viewer', { actions: ['-SchemaRead'] });
    expect((await svc.call('GET', integration(id), { auth: none.auth })).status).toBe(403);
  });
});
