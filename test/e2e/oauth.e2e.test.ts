import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startOAuthProvider, type OAuthProvider } from '../support/oauth-provider';
import { screenshot, startE2E, type E2E } from './support';

// Connecting a user to an OAuth provider from the UI: the provider is the OAuth 2.0 server on
// loopback of the API tests; the browser really follows its redirect to the service's callback.
let e2e: E2E;
let provider: OAuthProvider;

beforeAll(async () => {
  provider = await startOAuthProvider();
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.teardown();
  await provider?.close();
});

async function openOAuth(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { name: 'OAuth' }).click();
  await page.getByRole('tabpanel', { name: 'OAuth' }).waitFor();
}

describe('Admin: OAuth', () => {
  it('an admin adds an integration, connects through the provider in the browser, and disconnects', async () => {
    const { page, context, server } = e2e;
    await openOAuth(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New OAuth integration' });
    await dialog.getByLabel('Name', { exact: true }).fill('Test provider');
    await dialog.getByLabel('Client id', { exact: true }).fill(provider.clientId);
    await dialog.getByLabel('Client secret', { exact: true }).fill(provider.clientSecret);
    await dialog.getByLabel('Authorization URL', { exact: true }).fill(`${provider.url}/authorize`);
    await dialog.getByLabel('Token URL', { exact: true }).fill(`${provider.url}/token`);
    await dialog.getByLabel('Scopes', { exact: true }).fill('repo read:user');
    await dialog.getByRole('button', { name: 'Create integration' }).click();
    // Left empty, the redirect URI is the service's own callback, which the notice names for the provider.
    await page.getByRole('status').getByText(`${server.url}/api/v1/user-oauth-tokens/callback`).waitFor();
    const row = page.getByRole('table', { name: 'OAuth integrations' }).getByRole('row', { name: /Test provider/ });
    await row.getByText('not connected').waitFor();

    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Connect Test provider' }).click();
    const providerPage = await popup;
    await providerPage.getByRole('heading', { name: 'Connected to Test provider' }).waitFor();
    expect(new URL(providerPage.url()).pathname).toBe('/api/v1/user-oauth-tokens/callback');
    await screenshot(providerPage, 'oauth-callback-connected');
    await providerPage.close();

    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await row.getByText('connected', { exact: true }).waitFor();
    const listed = (await server.api('GET', '/api/v1/user-oauth-tokens/')).body as { items: { integrationName: string; hasRefreshToken: boolean }[] };
    expect(listed.items).toMatchObject([{ integrationName: 'Test provider', hasRefreshToken: true }]);
    await screenshot(page, 'admin-oauth-connected');

    await page.getByRole('button', { name: 'Renew access to Test provider' }).click();
    await page.getByRole('status').getByText('Access to “Test provider” refreshed.').waitFor();
    expect(provider.tokenRequests.at(-1)?.get('grant_type')).toBe('refresh_token');

    await page.getByRole('button', { name: 'Disconnect Test provider' }).click();
    await page.getByRole('dialog', { name: /Disconnect/ }).getByRole('button', { name: 'Disconnect' }).click();
    await row.getByText('not connected').waitFor();
    expect(((await server.api('GET', '/api/v1/user-oauth-tokens/')).body as { items: unknown[] }).items).toEqual([]);
    expect(e2e.problems).toEqual([]);
  });
});
