import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, startE2E, type E2E } from './support';

interface UserBody {
  id: number;
  email: string;
  name: string;
  role: string;
  active: boolean;
  userPolicies: string[];
}
interface PolicyBody {
  id: number;
  name: string;
  actions: string[];
  groupIds: number[];
}
interface GroupBody {
  id: number;
  name: string;
  userIds: number[];
}

let e2e: E2E;
let deploymentId: number;

/** Opens an Admin section through the UI (sidebar, then the section's tab). */
async function openAdmin(page: Page, tab: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
  await page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { name: tab }).click();
  await page.getByRole('tabpanel', { name: tab }).waitFor();
}

/**
 * A screenshot of the whole screen: the app scrolls inside `.main`, so the viewport grows to the
 * content's height for the shot (a full-page shot of the document would cut it off).
 */
async function shot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1360, height: 860 };
  const height = await page.evaluate(() => {
    const main = document.querySelector('.main')?.scrollHeight ?? 0;
    const dialog = document.querySelector('dialog[open] .dialog-body')?.scrollHeight ?? 0;
    return Math.max(main, dialog > 0 ? dialog + 240 : 0);
  });
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height: Math.min(height, 2400) });
  try {
    await screenshot(page, name);
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** Replaces the text of the Monaco editor inside `host`, checking what the editor shows afterwards. */
async function replaceEditorText(page: Page, host: Locator, text: string): Promise<void> {
  const lines = host.locator('.monaco-editor .view-lines');
  await lines.waitFor();
  const shown = async () => ((await lines.innerText()) ?? '').replace(/\u00a0/g, ' ').trim();
  for (let attempt = 0; attempt < 3 && (await shown()) !== text; attempt++) {
    await lines.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
    // Monaco auto-closes an opening brace or quote: drop whatever follows the inserted text.
    await page.keyboard.press('Control+Shift+End');
    await page.keyboard.press('Delete');
    await expect.poll(shown, { timeout: 2000 }).toBe(text).catch(() => undefined);
  }
  expect(await shown()).toBe(text);
}

/** Calls the service with an arbitrary credential (not the harness's admin key). */
async function callWith(auth: string, path: string): Promise<number> {
  const res = await fetch(`${e2e.server.url}${path}`, { headers: { authorization: auth } });
  await res.arrayBuffer();
  return res.status;
}

/** The claims of a JWT, read without verifying (the service signed it; the test reads what it says). */
function claimsOf(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  e2e = await startE2E();
  const created = await e2e.server.api('POST', '/build/api/v1/deployments/', {
    name: 'analytics-prod',
    cloudProvider: 'aws',
    creationMethod: 'platform-git',
    deployMode: 'git',
    storageProvider: { type: 'local' },
  });
  expect(created.status).toBe(201);
  deploymentId = (created.body as { id: number }).id;
});
afterAll(async () => {
  await e2e?.teardown();
});

describe('Admin: users', () => {
  it('shows the service’s field error next to the email and creates the user once it is fixed', async () => {
    const { page, server } = e2e;
    await openAdmin(page, 'Users');
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await dialog.getByLabel('Email', { exact: true }).fill('grace-at-example');
    await dialog.getByLabel('Role', { exact: true }).selectOption('developer');
    await dialog.getByRole('radio', { name: 'ChatHistoryRead: grant' }).check();
    await dialog.getByRole('radio', { name: 'SqlRunnerRead: withdraw' }).check();
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByRole('alert').waitFor();
    // The service's problem+json: its code in the banner, its field error under the Email field.
    await expect(dialog.getByRole('alert').textContent()).resolves.toMatch(/VALIDATION_FAILED/);
    await expect(dialog.locator('.field-invalid .field-error').first().textContent()).resolves.toMatch(/email/i);
    await shot(page, 'admin-user-create-error');

    await dialog.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').getByText('grace@example.com created.').waitFor();
    await page.getByRole('table', { name: 'Users' }).getByRole('row', { name: /Grace Hopper/ }).waitFor();

    const listed = (await server.api('GET', '/api/v1/users/?search=grace')).body as { items: UserBody[] };
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ email: 'grace@example.com', role: 'developer', active: true, userPolicies: ['-SqlRunnerRead', 'ChatHistoryRead'] });
  });

  it('searches users and reports per-user failures of a bulk deactivation', async () => {
    const { page, server } = e2e;
    for (const [name, email] of [
      ['Alan Turing', 'alan@example.com'],
      ['Katherine Johnson', 'katherine@example.com'],
    ]) {
      expect((await server.api('POST', '/api/v1/users/', { name, email, role: 'viewer' })).status).toBe(201);
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row', { name: /Katherine Johnson/ }).waitFor();

    await page.getByLabel('Search users').fill('alan');
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // header + Alan
    await page.getByLabel('Search users').fill('');
    await table.getByRole('row', { name: /Katherine Johnson/ }).waitFor();

    // The only admin cannot be deactivated: the bulk call deactivates the others and says why not that one.
    await table.getByRole('checkbox', { name: 'Select grace@example.com' }).check();
    await table.getByRole('checkbox', { name: 'Select katherine@example.com' }).check();
    const admin = ((await server.api('GET', '/api/v1/users/me')).body as UserBody).email;
    await table.getByRole('checkbox', { name: `Select ${admin}` }).check();
    const bar = page.getByRole('region', { name: 'Selected users' });
    await bar.getByText('3 selected').waitFor();
    await bar.getByRole('button', { name: 'Deactivate' }).click();
    const report = page.getByRole('alert', { name: 'Bulk result' });
    await report.getByText('2 users deactivated; 1 user could not be deactivated.').waitFor();
    await expect(report.getByRole('table', { name: 'Failed users' }).textContent()).resolves.toMatch(new RegExp(`${admin}.*LAST_ADMIN.*last active admin`));
    await table.getByRole('row', { name: /katherine@example.com.*inactive/ }).waitFor();
    await bar.getByText('1 selected').waitFor(); // the failed one stays selected
    await shot(page, 'admin-users-bulk');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'admin-users-bulk-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    const users = (await server.api('GET', '/api/v1/users/?first=100')).body as { items: UserBody[] };
    expect(users.items.find((u) => u.email === 'katherine@example.com')?.active).toBe(false);
    expect(users.items.find((u) => u.email === admin)?.active).toBe(true);

    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await table.getByRole('button', { name: 'Activate grace@example.com' }).click();
    await page.getByRole('status').getByText('grace@example.com activated.').waitFor();
  });
});

describe('Admin: API keys', () => {
  let token = '';
  let prefix = '';

  it('reveals a new key once, then lists only its prefix', async () => {
    const { page } = e2e;
    await openAdmin(page, 'API keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name', { exact: true }).fill('nightly-ci');
    await dialog.getByLabel('Owner').selectOption({ label: 'Grace Hopper — grace@example.com (developer)' });
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const reveal = page.getByRole('dialog', { name: 'API key “nightly-ci”' });
    await reveal.getByText('Copy it now: you won’t see this again.').waitFor();
    token = await reveal.getByLabel('API key', { exact: true }).inputValue();
    expect(token.length).toBeGreaterThan(20);
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByRole('button', { name: /Copied|Select and copy/ }).waitFor();
    await shot(page, 'admin-api-key-reveal');

    // The key works, and acts as its owner.
    expect(await callWith(`Api-Key ${token}`, '/api/v1/users/me')).toBe(200);
    const me = await fetch(`${e2e.server.url}/api/v1/users/me`, { headers: { authorization: `Api-Key ${token}` } }).then((r) => r.json() as Promise<UserBody>);
    expect(me.email).toBe('grace@example.com');

    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /nightly-ci/ });
    await row.waitFor();
    prefix = (await row.locator('.key-prefix').textContent())!.replace('…', '');
    expect(token.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(token.length);
    await expect(row.textContent()).resolves.toContain('grace@example.com');
    // Gone from the page: not in the DOM, not in an input.
    expect(await page.content()).not.toContain(token);
    await shot(page, 'admin-api-keys');
  });

  it('revokes the key after confirming, and the service no longer accepts it', async () => {
    const { page, server } = e2e;
    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByRole('button', { name: 'Revoke nightly-ci' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke “nightly-ci”?' });
    await confirm.getByText(`${prefix}…`).waitFor();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').getByText('API key “nightly-ci” revoked; it no longer authenticates.').waitFor();
    await expect.poll(() => table.getByRole('row', { name: /nightly-ci/ }).count()).toBe(0);

    expect(await callWith(`Api-Key ${token}`, '/api/v1/users/me')).toBe(401);
    const keys = (await server.api('GET', '/api/v1/api-keys')).body as { items: { name: string }[] };
    expect(keys.items.map((k) => k.name)).not.toContain('nightly-ci');
  });
});

describe('Admin: groups, policies, tenant, theme, embed', () => {
  it('creates a policy and a group with a member, attaching the policy from the group', async () => {
    const { page, server } = e2e;
    await openAdmin(page, 'Groups & policies');
    await page.getByRole('button', { name: 'New policy' }).click();
    const policyDialog = page.getByRole('dialog', { name: 'New policy' });
    await policyDialog.getByLabel('Name', { exact: true }).fill('Model editors');
    await policyDialog.getByLabel('Description', { exact: true }).fill('Change data models and use the SQL Runner');
    await policyDialog.getByRole('group', { name: 'Actions' }).getByRole('checkbox').nth(3).check(); // SchemaUpdate
    await policyDialog.getByRole('group', { name: 'Actions' }).getByRole('checkbox').nth(4).check(); // SqlRunnerRead
    await policyDialog.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('table', { name: 'Policies' }).getByRole('row', { name: /Model editors/ }).waitFor();

    await page.getByRole('button', { name: 'New group' }).click();
    const groupDialog = page.getByRole('dialog', { name: 'New group' });
    await groupDialog.getByLabel('Name', { exact: true }).fill('Analysts');
    await groupDialog.getByRole('group', { name: 'Members' }).getByLabel(/Alan Turing/).check();
    await groupDialog.getByRole('group', { name: 'Members' }).getByLabel(/Grace Hopper/).check();
    await groupDialog.getByRole('group', { name: 'Policies' }).getByLabel('Model editors').check();
    await shot(page, 'admin-group-dialog');
    await groupDialog.getByRole('button', { name: 'Create group' }).click();
    const row = page.getByRole('table', { name: 'Groups' }).getByRole('row', { name: /Analysts/ });
    await row.getByText('2 members').waitFor();
    await row.getByText('Model editors').waitFor();
    await page.getByRole('table', { name: 'Policies' }).getByRole('row', { name: /Model editors.*Analysts/ }).waitFor();
    await shot(page, 'admin-groups');

    const groups = (await server.api('GET', '/api/v1/groups')).body as { items: GroupBody[] };
    const policies = (await server.api('GET', '/api/v1/policies')).body as { items: PolicyBody[] };
    const analysts = groups.items.find((g) => g.name === 'Analysts')!;
    expect(analysts.userIds).toHaveLength(2);
    expect(policies.items.find((p) => p.name === 'Model editors')).toMatchObject({ actions: ['SchemaUpdate', 'SqlRunnerRead'], groupIds: [analysts.id] });
  });

  it('saves tenant settings, showing the service’s error next to the amount and the threshold read-only', async () => {
    const { page, server } = e2e;
    await openAdmin(page, 'Tenant settings');
    const form = page.getByRole('form', { name: 'Tenant settings' });
    await expect(form.getByLabel('Threshold (USD)').isDisabled()).resolves.toBe(true);
    await form.getByRole('switch', { name: /Signed embedding/ }).check();
    await form.getByRole('switch', { name: /Buy AI tokens automatically/ }).check();
    await form.getByRole('button', { name: 'Save settings' }).click();
    // In plain words, with the fix; the service's code behind Details.
    const alert = form.getByRole('alert');
    await alert.getByText('Saving tenant settings failed: automatic purchases need an amount').waitFor();
    await alert.getByText('Details', { exact: true }).click();
    await alert.getByText('AUTO_PURCHASE_AMOUNT_REQUIRED').waitFor();
    await form.locator('.field-invalid').getByText('Amount per purchase is required while automatic purchase is on.').waitFor();
    await shot(page, 'admin-tenant-error');

    await form.getByLabel('Amount per purchase (USD)').fill('50');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await form.getByRole('status').getByText(/^Saved: /).waitFor();
    const settings = (await server.api('GET', '/api/v1/tenant/settings')).body as Record<string, unknown>;
    expect(settings).toMatchObject({ embeddingEnabled: true, aiTokensAutoPurchaseEnabled: true, aiTokensAutoPurchaseAmount: 50 });
    await shot(page, 'admin-tenant');
  });

  it('edits the palette with a live preview and saves only what changed', async () => {
    const { page, server } = e2e;
    await openAdmin(page, 'App theme');
    const form = page.getByRole('form', { name: 'App theme' });
    const preview = page.getByTestId('theme-preview');
    await form.getByLabel('Primary', { exact: true }).fill('#0F5C8C');
    await expect.poll(() => preview.evaluate((el) => getComputedStyle(el).getPropertyValue('--p-primary').trim())).toBe('#0F5C8C');
    await form.getByLabel('Accent', { exact: true }).fill('#E0702B');
    await form.getByLabel('Logo URL').fill('not a url');
    await form.getByText('Use an http(s) URL, or leave it empty for no logo.').waitFor();
    await expect(form.getByRole('button', { name: 'Save theme' }).isDisabled()).resolves.toBe(true);
    await form.getByLabel('Logo URL').fill('https://cdn.example.com/acme-logo.svg');
    await form.getByRole('button', { name: 'Save theme' }).click();
    await form.getByRole('status').getByText(/Theme saved/).waitFor();
    await shot(page, 'admin-theme');

    const theme = (await server.api('GET', '/api/v1/app-theme')).body as { palette: Record<string, string>; logoUrl: string };
    expect(theme.palette).toMatchObject({ primary: '#0F5C8C', accent: '#E0702B', background: '#FFFFFF', foreground: '#141446' });
    expect(theme.logoUrl).toBe('https://cdn.example.com/acme-logo.svg');
  });

  it('lists embed tenants with their groups and users, and creates a group', async () => {
    const { page, server } = e2e;
    const session = await server.api('POST', '/api/v1/embed/generate-session', {
      deploymentId,
      embedTenantName: 'acme',
      externalId: 'u-1001',
      email: 'dana@acme.test',
      name: 'Dana Scully',
      tenantGroups: ['finance'],
      tenantGroupDefinitions: [{ name: 'finance', description: 'Finance team dashboards' }],
      embedTenantProfile: { displayName: 'Acme Corp', settings: { enableDashboardComments: true } },
    });
    expect(session.status).toBe(200);
    await openAdmin(page, 'Embed tenants');
    await page.getByRole('table', { name: 'Embed tenants' }).getByRole('row', { name: /Acme Corp/ }).waitFor();
    await page.getByRole('table', { name: 'Embed users' }).getByRole('row', { name: /u-1001.*Dana Scully.*finance/ }).waitFor();

    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group in acme' });
    await dialog.getByLabel('Name', { exact: true }).fill('executives');
    await dialog.getByLabel('Description', { exact: true }).fill('Board-level reporting');
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('table', { name: 'Embed groups' }).getByRole('row', { name: /executives/ }).waitFor();
    await shot(page, 'admin-embed');
    const groups = (await server.api('GET', '/api/v1/embed-tenants/acme/groups')).body as { items: { name: string }[] };
    expect(groups.items.map((g) => g.name).sort()).toEqual(['executives', 'finance']);
  });
});

describe('Deployment detail: environments and operations', () => {
  it('mints an environment token and shows what was signed and what was dropped', async () => {
    const { page, server } = e2e;
    // DDL off, so a signed sql-runner scope gets the service's no-DDL qualifier.
    expect((await server.api('PUT', `/api/v1/deployments/${deploymentId}`, { sqlRunnerDdlEnabled: false })).status).toBe(200);
    await page.goto(`${server.url}/deployments/${deploymentId}/environments`);
    await page.getByRole('table', { name: 'Environment list' }).getByRole('row', { name: /production/ }).waitFor();
    const form = page.getByRole('form', { name: 'Mint environment token' });
    await form.getByRole('checkbox', { name: /sql-runner/ }).check();
    await form.getByLabel('Other scopes to request').fill('dev-token');
    // The security_context editor is Monaco: replace its text as a user would paste it.
    await replaceEditorText(page, form.getByTestId('security-context-editor'), '{"tenant_id": 42, "region": "eu", "scope": "admin"}');
    await expect.poll(() => form.locator('.field-error').count()).toBe(0);
    await form.getByRole('button', { name: 'Mint token' }).click();

    const minted = page.getByRole('region', { name: 'Minted token' });
    await minted.waitFor();
    const signed = minted.getByLabel('Signed scopes');
    await expect(signed.locator('.badge').allTextContents()).resolves.toEqual(['meta', 'sql-runner', 'sql-runner-permissions:no-ddl']);
    await expect(minted.getByLabel('Signed security context').textContent()).resolves.toBe(JSON.stringify({ tenant_id: 42, region: 'eu' }, null, 2));
    const dropped = minted.getByRole('list', { name: 'Dropped' });
    await dropped.getByText('dev-token').waitFor();
    await dropped.getByText('scope', { exact: true }).waitFor();

    // The token says exactly what the page says was signed.
    const jwt = await minted.getByLabel('Token (JWT)').inputValue();
    const claims = claimsOf(jwt);
    expect(claims.scopes).toEqual(['meta', 'sql-runner', 'sql-runner-permissions:no-ddl']);
    expect(claims.securityContext).toEqual({ tenant_id: 42, region: 'eu' });
    await page.getByRole('table', { name: 'Live tokens' }).getByRole('row', { name: /data.*meta/ }).waitFor();
    await shot(page, 'deployment-environment-token');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'deployment-environment-token-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the deployment’s logs with filters, its pods and a branch’s build status', async () => {
    const { page } = e2e;
    await page.getByRole('tab', { name: 'Logs' }).click();
    const lines = page.getByRole('table', { name: 'Log lines' });
    await lines.getByText(/Environment token \d+ issued/).waitFor();
    await page.getByLabel('Container', { exact: true }).selectOption('api-proxy');
    await expect.poll(async () => (await lines.locator('tbody tr td:nth-child(4)').allTextContents()).every((c) => c === 'api-proxy')).toBe(true);
    await page.getByLabel('Container', { exact: true }).selectOption('');
    await expect.poll(async () => new Set(await lines.locator('tbody tr td:nth-child(4)').allTextContents()).size).toBeGreaterThan(1);
    await page.getByRole('switch', { name: 'Auto-refresh' }).check();
    await shot(page, 'deployment-logs');
    await page.getByRole('switch', { name: 'Auto-refresh' }).uncheck();

    await page.getByRole('tab', { name: 'Pods' }).click();
    await page.getByRole('article', { name: /Pod / }).first().waitFor();
    await shot(page, 'deployment-pods');

    // A branch that exists but is neither the deploy branch nor built (an unknown one answers 404).
    expect((await e2e.server.api('POST', `/build/api/v1/deployments/${deploymentId}/branches`, { branchName: 'feature/orders' })).status).toBe(201);
    await page.getByRole('tab', { name: 'Build status' }).click();
    await page.getByRole('region', { name: 'Build status' }).getByText('deploy branch', { exact: true }).waitFor();
    await page.getByLabel('Branch', { exact: true }).fill('feature/orders');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('region', { name: 'Build status' }).getByText('not deployed').waitFor();
    await shot(page, 'deployment-build-status');
  });

  it('pins a release version, advances the setup and mints a deployment token shown once', async () => {
    const { page, server } = e2e;
    await page.getByRole('tab', { name: 'Release' }).click();
    const stable = page.getByRole('table', { name: 'stable versions' });
    const older = stable.getByRole('button', { name: /^Pin stable / }).last();
    const version = (await older.getAttribute('aria-label'))!.replace('Pin stable ', '');
    await older.click();
    await stable.getByRole('row', { name: new RegExp(`${version.replaceAll('.', '\\.')}.*pinned`) }).waitFor();
    await page.getByRole('switch', { name: /Hold the pinned version/ }).check();
    await stable.getByText('pinned, held').waitFor();
    await shot(page, 'deployment-release');
    const stored = (await server.api('GET', `/api/v1/deployments/${deploymentId}`)).body as Record<string, unknown>;
    expect(stored).toMatchObject({ releaseChannelVersion: version, releaseChannelVersionHold: true, currentVersion: version });

    await page.getByRole('tab', { name: 'Setup' }).click();
    await page.getByRole('button', { name: 'Mark “Connect or upload the model project” done' }).click();
    await page.getByRole('button', { name: 'Mark “Configure data sources” done' }).waitFor();
    await shot(page, 'deployment-setup');
    const step = ((await server.api('GET', `/api/v1/deployments/${deploymentId}`)).body as { creationStep: { currentStep: string } }).creationStep;
    expect(step.currentStep).toBe('data-sources');

    await page.getByRole('tab', { name: 'Token' }).click();
    const form = page.getByRole('form', { name: 'Mint deployment token' });
    await form.getByLabel('Expires in').fill('30');
    await form.getByLabel('Unit').selectOption('seconds');
    await form.getByText('Between 1 min and 24 h.').waitFor();
    await form.getByLabel('Unit').selectOption('minutes');
    await form.getByRole('button', { name: 'Mint token' }).click();
    const minted = page.getByRole('region', { name: 'Minted deployment token' });
    await minted.getByText('Copy it now: you won’t see this again.').waitFor();
    const token = await minted.getByLabel('Bearer token').inputValue();
    expect(await callWith(`Bearer ${token}`, `/api/v1/deployments/${deploymentId}`)).toBe(200);
    const claims = claimsOf(token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(1800);
    await shot(page, 'deployment-token');
  });

  it('reached every new screen without console errors or CSP violations', () => {
    expect(e2e.problems).toEqual([]);
  });
});
