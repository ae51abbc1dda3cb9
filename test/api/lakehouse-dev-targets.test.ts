import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetricViewYaml } from '../../src-main/connectors/lakehouse';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';
import { deployFiles, integration, openEmulator, ORDERS_VIEW, preview, publish, saveSettings, startSampleProjectService, viewOf, waitForRun } from '../support/lakehouse';

// Dev mode (issue 14 item 4): a lakehouse preview or publication from a user's dev branch goes to
// that user's per-user schema or name prefix (the deployment's dev-target rule), never over the
// production metric views; the run's result names the dev targets. Over real HTTP, against the
// local lakehouse emulator.

let svc: TestService;

beforeAll(async () => {
  svc = await startSampleProjectService();
});
afterAll(() => svc.stop());

const B = (id: number) => `/build/api/v1/deployments/${id}`;
const syncs = (id: number) => `${integration(id)}/syncs`;
let users = 0;

/** A deployment publishing `orders_view` to `main.default.mv<id>_orders_view`, published once from production. */
async function productionPublished() {
  const id = await createDeployment(svc);
  const prefix = `mv${id}_`;
  const settings = await saveSettings(svc, id, { targetNamePrefix: prefix, selectionMode: 'selected', selectedViews: ['orders_view'] });
  const run = await publish(svc, id);
  expect(run.status, JSON.stringify(run.error)).toBe('COMPLETED');
  return { id, prefix, settings };
}

/** A developer in dev mode whose branch describes orders_view differently from production. */
async function developerBranch(id: number): Promise<{ user: TestUser; branch: string; tag: string }> {
  const tag = `lhdev${++users}`;
  const user = createUser(svc, 'developer', { email: `${tag}@example.com` });
  const res = await svc.call('POST', `${B(id)}/dev-mode`, { auth: user.auth });
  expect(res.status, res.text).toBe(200);
  const branch = res.body.branch.branchName as string;
  await deployFiles(svc, id, { 'model/views/orders_view.yml': ORDERS_VIEW.replace('Orders with the customer region', `Edited by ${tag}`) }, user.auth, branch);
  return { user, branch, tag: tag.toUpperCase() };
}

async function devRun(id: number, version: number, branch: string, auth: string) {
  const start = await svc.call('POST', syncs(id), { body: { configurationVersion: version, branchName: branch }, auth });
  expect(start.status, start.text).toBe(202);
  return { start: start.body, run: await waitForRun(svc, start.body.statusUrl as string) };
}

function definitionOf(catalog: string, schema: string, name: string): Record<string, unknown> | null {
  const emulator = openEmulator(svc);
  try {
    const object = emulator.getObject(catalog, schema, name);
    return object?.definition ? (parseMetricViewYaml(object.definition) as Record<string, unknown>) : null;
  } finally {
    emulator.close();
  }
}

describe('a publication from a dev branch goes to the per-user schema by default', () => {
  it('creates main.default_dev_<user>, writes the dev definition there, names the dev target in the run, and leaves the production metric view as it was', async () => {
    const { id, prefix, settings } = await productionPublished();
    const production = definitionOf('main', 'default', `${prefix}orders_view`);
    expect(production?.comment).toBe('Orders with the customer region');
    const { user, branch, tag } = await developerBranch(id);
    const devSchema = `default_dev_${tag.toLowerCase()}`;

    const { start, run } = await devRun(id, settings.configurationVersion, branch, user.auth);
    const devTarget = { ownerUserId: user.id, userTag: tag, mode: 'schema-suffix', requestedSchema: 'default', requestedPrefix: prefix, schema: devSchema, prefix };
    expect(start).toMatchObject({ branchName: branch, devTarget });
    expect(run.status, JSON.stringify(run.error)).toBe('COMPLETED');
    expect(run).toMatchObject({ branchName: branch, devTarget });
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'created', target: `main.${devSchema}.${prefix}orders_view` });
    // The production target is not reported as obsolete by the dev run.
    expect(run.views.map((v: { target: string }) => v.target)).toEqual([`main.${devSchema}.${prefix}orders_view`]);

    expect(definitionOf('main', devSchema, `${prefix}orders_view`)?.comment).toBe(`Edited by ${tag.toLowerCase()}`);
    expect(definitionOf('main', 'default', `${prefix}orders_view`)).toEqual(production);

    // The run list shows which runs were dev runs.
    const list = await svc.call('GET', syncs(id));
    const summaries = list.body.items as { runId: string; branchName: string; devTarget: unknown }[];
    expect(summaries.find((r) => r.runId === start.runId)).toMatchObject({ branchName: branch, devTarget: { schema: devSchema } });
    expect(summaries.find((r) => r.runId !== start.runId)).toMatchObject({ branchName: 'main', devTarget: null });
  });

  it('a preview from the dev branch names the per-user targets before anything exists, and writes nothing', async () => {
    const { id, prefix } = await productionPublished();
    const { branch, tag } = await developerBranch(id);
    const devSchema = `default_dev_${tag.toLowerCase()}`;
    const { status, result } = await preview(svc, id, { branchName: branch });
    expect(status.status, JSON.stringify(status.error)).toBe('COMPLETED');
    expect(status).toMatchObject({ branchName: branch, devTarget: { schema: devSchema, userTag: tag } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ branchName: branch, targetSchema: devSchema, devTarget: { mode: 'schema-suffix', schema: devSchema } });
    expect(viewOf(result.body.views, 'orders_view')).toMatchObject({ target: `main.${devSchema}.${prefix}orders_view`, action: 'create' });
    expect(viewOf(result.body.views, 'orders_view').yaml).toContain(`Edited by ${tag.toLowerCase()}`);
    const emulator = openEmulator(svc);
    try {
      expect(emulator.listSchemas('main')).not.toContain(devSchema);
    } finally {
      emulator.close();
    }
  });

  it('a second dev run finds its own target unchanged; a later production run reports no dev target as obsolete', async () => {
    const { id, prefix, settings } = await productionPublished();
    const { user, branch, tag } = await developerBranch(id);
    const devSchema = `default_dev_${tag.toLowerCase()}`;
    expect((await devRun(id, settings.configurationVersion, branch, user.auth)).run.status).toBe('COMPLETED');
    const again = (await devRun(id, settings.configurationVersion, branch, user.auth)).run;
    expect(viewOf(again.views, 'orders_view')).toMatchObject({ outcome: 'unchanged', target: `main.${devSchema}.${prefix}orders_view` });
    const productionAgain = await publish(svc, id);
    expect(productionAgain).toMatchObject({ status: 'COMPLETED', branchName: 'main', devTarget: null, outcomeCounts: { unchanged: 1 } });
  });
});

describe('the name-prefix rule', () => {
  it('keeps the production schema and puts dev_<user>_ before every target name, overrides included', async () => {
    const id = await createDeployment(svc);
    const prefix = `mv${id}_`;
    const settings = await saveSettings(svc, id, {
      targetNamePrefix: prefix,
      selectionMode: 'selected',
      selectedViews: ['orders_view', 'orders_customers'],
      targetNameOverrides: { orders_customers: `custom${id}` },
    });
    expect((await publish(svc, id)).status).toBe('COMPLETED');
    const rule = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body: { mode: 'name-prefix' } });
    expect(rule.status, rule.text).toBe(200);
    const { user, branch, tag } = await developerBranch(id);
    const devPrefix = `dev_${tag.toLowerCase()}_`;

    const { run } = await devRun(id, settings.configurationVersion, branch, user.auth);
    expect(run.status, JSON.stringify(run.error)).toBe('COMPLETED');
    expect(run.devTarget).toMatchObject({ mode: 'name-prefix', schema: 'default', prefix: `${devPrefix}${prefix}` });
    expect(viewOf(run.views, 'orders_view')).toMatchObject({ outcome: 'created', target: `main.default.${devPrefix}${prefix}orders_view` });
    expect(viewOf(run.views, 'orders_customers')).toMatchObject({ outcome: 'created', target: `main.default.${devPrefix}custom${id}` });
    expect(definitionOf('main', 'default', `${prefix}orders_view`)?.comment).toBe('Orders with the customer region');
    expect(definitionOf('main', 'default', `${devPrefix}${prefix}orders_view`)?.comment).toBe(`Edited by ${tag.toLowerCase()}`);
  });
});

describe('which branches publish', () => {
  it('refuses a shared branch with 422 LAKEHOUSE_BRANCH_NOT_PUBLISHABLE and an unknown one with 404, starting nothing', async () => {
    const { id, settings } = await productionPublished();
    const created = await svc.call('POST', `${B(id)}/branches`, { body: { branchName: `shared-${id}` } });
    expect(created.status, created.text).toBeLessThan(300);
    const shared = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion, branchName: `shared-${id}` } });
    expect(shared.status).toBe(422);
    expect(shared.headers.get('content-type')).toContain('application/problem+json');
    expect(shared.body.code).toBe('LAKEHOUSE_BRANCH_NOT_PUBLISHABLE');
    const previewShared = await svc.call('POST', `/api/v1/deployments/${id}/lakehouse-metric-view-previews`, { body: { dataSourceName: 'lake', branchName: `shared-${id}` } });
    expect(previewShared.status).toBe(422);
    const unknown = await svc.call('POST', syncs(id), { body: { configurationVersion: settings.configurationVersion, branchName: 'no-such-branch' } });
    expect(unknown.status).toBe(404);
    expect((await svc.call('GET', syncs(id))).body.items).toHaveLength(1);
  });

  it('a dev run whose principal may not create the per-user schema fails with LAKEHOUSE_DEV_SCHEMA_FAILED and writes nothing', async () => {
    const { id, prefix, settings } = await productionPublished();
    const { user, branch, tag } = await developerBranch(id);
    const principal = 'drydock';
    const emulator = openEmulator(svc);
    emulator.revoke(principal, 'CREATE SCHEMA', ['main']);
    emulator.close();
    try {
      const { run } = await devRun(id, settings.configurationVersion, branch, user.auth);
      expect(run.status).toBe('FAILED');
      expect(run.error.code).toBe('LAKEHOUSE_DEV_SCHEMA_FAILED');
      expect(run.error.message).toContain(`default_dev_${tag.toLowerCase()}`);
      expect(definitionOf('main', 'default', `${prefix}orders_view`)?.comment).toBe('Orders with the customer region');
    } finally {
      const restore = openEmulator(svc);
      restore.grant(principal, 'CREATE SCHEMA', ['main']);
      restore.close();
    }
  });
});
