import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

const PATH = '/api/v1/tenant/settings';
const put = (body: unknown, auth?: string) => svc.call('PUT', PATH, { body, auth });

describe('tenant settings', () => {
  it('returns the app switches and the AI token auto-purchase settings, with defaults', async () => {
    const res = await svc.call('GET', PATH);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      embeddingEnabled: false,
      defaultTimezone: 'UTC',
      aiEnabled: false,
      aiTokensAutoPurchaseEnabled: false,
      aiTokensAutoPurchaseAmount: null,
    });
    expect(typeof res.body.aiTokensAutoPurchaseThreshold).toBe('number');
  });

  it('is admin only, for reading and changing', async () => {
    const developer = createUser(svc, 'developer');
    expect((await svc.call('GET', PATH, { auth: developer.auth })).status).toBe(403);
    expect((await put({ creatorMode: true }, developer.auth)).status).toBe(403);
  });

  it('changes only the fields sent, and the app switches show in GET /api/v1/app-config', async () => {
    const res = await put({ embeddingEnabled: true, defaultTimezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ embeddingEnabled: true, defaultTimezone: 'Europe/Berlin', creatorMode: false });
    const config = await svc.call('GET', '/api/v1/app-config');
    expect(config.body.embedding.enabled).toBe(true);
    expect(config.body.timezoneSettings.defaultTimezone).toBe('Europe/Berlin');
    const again = await put({ creatorMode: true });
    expect(again.body).toMatchObject({ embeddingEnabled: true, creatorMode: true });
  });

  it('keeps other keys of tenant.settings when writing', async () => {
    const db = svc.ctx.db;
    const row = db.prepare('SELECT settings FROM tenant WHERE id = 1').get() as { settings: string };
    db.prepare('UPDATE tenant SET settings = ? WHERE id = 1').run(JSON.stringify({ ...JSON.parse(row.settings), someOtherArea: 'kept' }));
    await put({ sheetsUi: true, aiTokensAutoPurchaseAmount: 25 });
    const after = JSON.parse((db.prepare('SELECT settings FROM tenant WHERE id = 1').get() as { settings: string }).settings);
    expect(after.someOtherArea).toBe('kept');
    expect(after.sheetsUi).toBe(true);
  });

  it('stores aiTokensAutoPurchaseAmount as a dollar amount with at most two decimals', async () => {
    expect((await put({ aiTokensAutoPurchaseAmount: 49.99 })).body.aiTokensAutoPurchaseAmount).toBe(49.99);
    const fraction = await put({ aiTokensAutoPurchaseAmount: 10.005 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.errors[0].pointer).toBe('/body/aiTokensAutoPurchaseAmount');
    expect((await put({ aiTokensAutoPurchaseAmount: 0 })).status).toBe(400);
    expect((await svc.call('GET', PATH)).body.aiTokensAutoPurchaseAmount).toBe(49.99);
  });

  it('refuses to change the read-only aiTokensAutoPurchaseThreshold with 400 TENANT_SETTING_READ_ONLY', async () => {
    const current = (await svc.call('GET', PATH)).body.aiTokensAutoPurchaseThreshold as number;
    const res = await put({ aiTokensAutoPurchaseThreshold: current + 5, creatorMode: false });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TENANT_SETTING_READ_ONLY');
    expect(res.body.errors[0].pointer).toBe('/body/aiTokensAutoPurchaseThreshold');
    const after = (await svc.call('GET', PATH)).body;
    expect(after.aiTokensAutoPurchaseThreshold).toBe(current);
    expect(after.creatorMode).toBe(true); // nothing of the refused request was written
  });

  it('accepts the whole GET response sent back unchanged (threshold included)', async () => {
    const current = (await svc.call('GET', PATH)).body;
    const res = await put(current);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(current);
  });

  it('needs an amount to turn automatic purchase on (400 AUTO_PURCHASE_AMOUNT_REQUIRED)', async () => {
    await put({ aiTokensAutoPurchaseEnabled: false, aiTokensAutoPurchaseAmount: null });
    const res = await put({ aiTokensAutoPurchaseEnabled: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('AUTO_PURCHASE_AMOUNT_REQUIRED');
    const ok = await put({ aiTokensAutoPurchaseEnabled: true, aiTokensAutoPurchaseAmount: 100 });
    expect(ok.body).toMatchObject({ aiTokensAutoPurchaseEnabled: true, aiTokensAutoPurchaseAmount: 100 });
    expect((await put({ aiTokensAutoPurchaseAmount: null })).body.code).toBe('AUTO_PURCHASE_AMOUNT_REQUIRED');
  });

  it('refuses an unknown time zone, an unknown field and a wrong type with 400', async () => {
    const zone = await put({ defaultTimezone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(zone.body.errors[0].pointer).toBe('/body/defaultTimezone');
    expect((await put({ notASetting: true })).status).toBe(400);
    expect((await put({ creatorMode: 'yes' })).status).toBe(400);
  });
});
