import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAppSettings, updateAppSettings } from '../../src-main/features/app';
import { contrastGrade, contrastRatio, textOn } from '../../src-renderer/src/features/admin/theme';
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

describe('app config (GET /api/v1/app-config)', () => {
  it('app-config: returns the app theme and every switch the spec names', async () => {
    const res = await svc.call('GET', '/api/v1/app-config');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'appTheme',
        'applyThemeGlobally',
        'creatorMode',
        'embedding',
        'sheetsUi',
        'timezoneSettings',
        'dashboardAppsEnabled',
        'restrictDataDownload',
        'sheetsAgentChatEnabled',
        'aiPaywalled',
      ].sort(),
    );
    expect(res.body.appTheme).toEqual((await svc.call('GET', '/api/v1/app-theme')).body);
    expect(res.body.timezoneSettings).toEqual({ defaultTimezone: 'UTC', allowUserOverride: true });
  });

  it('app-config: the switches are the tenant’s settings', async () => {
    const before = getAppSettings(svc.ctx);
    try {
      updateAppSettings(svc.ctx, {
        applyThemeGlobally: true,
        creatorMode: true,
        embeddingEnabled: true,
        sheetsUi: true,
        defaultTimezone: 'Europe/Berlin',
        allowUserTimezoneOverride: false,
        dashboardAppsEnabled: false,
        restrictDataDownload: true,
        sheetsAgentChatEnabled: true,
      });
      const res = await svc.call('GET', '/api/v1/app-config');
      expect(res.body).toMatchObject({
        applyThemeGlobally: true,
        creatorMode: true,
        embedding: { enabled: true },
        sheetsUi: true,
        timezoneSettings: { defaultTimezone: 'Europe/Berlin', allowUserOverride: false },
        dashboardAppsEnabled: false,
        restrictDataDownload: true,
        sheetsAgentChatEnabled: true,
      });
      const stored = JSON.parse((svc.ctx.db.prepare('SELECT settings FROM tenant WHERE id = 1').get() as { settings: string }).settings);
      expect(stored).toMatchObject({ restrictDataDownload: true, embeddingEnabled: true });
    } finally {
      updateAppSettings(svc.ctx, before);
    }
  });

  it('app-config: aiPaywalled is true exactly when the tenant uses the new UI without AI enabled', async () => {
    const before = getAppSettings(svc.ctx);
    try {
      const cases = [
        { newUiEnabled: true, aiEnabled: false, paywalled: true },
        { newUiEnabled: true, aiEnabled: true, paywalled: false },
        { newUiEnabled: false, aiEnabled: false, paywalled: false },
        { newUiEnabled: false, aiEnabled: true, paywalled: false },
      ];
      for (const { newUiEnabled, aiEnabled, paywalled } of cases) {
        updateAppSettings(svc.ctx, { newUiEnabled, aiEnabled });
        const res = await svc.call('GET', '/api/v1/app-config');
        expect(res.body.aiPaywalled, JSON.stringify({ newUiEnabled, aiEnabled })).toBe(paywalled);
      }
    } finally {
      updateAppSettings(svc.ctx, before);
    }
  });

  it('app-config: other keys of the tenant settings are kept when the switches change', async () => {
    svc.ctx.db.prepare("UPDATE tenant SET settings = json_set(settings, '$.otherAreaKey', 'kept') WHERE id = 1").run();
    updateAppSettings(svc.ctx, { creatorMode: getAppSettings(svc.ctx).creatorMode });
    const stored = JSON.parse((svc.ctx.db.prepare('SELECT settings FROM tenant WHERE id = 1').get() as { settings: string }).settings);
    expect(stored.otherAreaKey).toBe('kept');
  });

  it('app-config: readable by any signed-in caller, embed sessions included; not anonymously', async () => {
    expect((await svc.call('GET', '/api/v1/app-config', { auth: viewer.auth })).status).toBe(200);
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    expect((await svc.call('GET', '/api/v1/app-config', { auth: embed })).status).toBe(200);
    expect((await svc.call('GET', '/api/v1/app-theme', { auth: embed })).status).toBe(200);
    const anonymous = await svc.call('GET', '/api/v1/app-config', { auth: null });
    expect(anonymous.status).toBe(401);
  });
});

describe('app theme (GET and PUT /api/v1/app-theme)', () => {
  it('app-theme: returns palette and logoUrl, with the deprecated light and dark derived from the palette', async () => {
    const res = await svc.call('GET', '/api/v1/app-theme');
    expect(res.status).toBe(200);
    const { palette, logoUrl, light, dark } = res.body;
    expect(Object.keys(palette).sort()).toEqual(['accent', 'background', 'foreground', 'primary']);
    expect(light).toEqual({ primaryColor: palette.primary, accentColor: palette.accent, backgroundColor: palette.background, textColor: palette.foreground, logoUrl });
    expect(dark).toEqual({ primaryColor: palette.primary, accentColor: palette.accent, backgroundColor: palette.foreground, textColor: palette.background, logoUrl });
  });

  it('app-theme: the default palette passes the theme screen’s own WCAG AA checks (issue 24)', async () => {
    const { palette } = (await svc.call('GET', '/api/v1/app-theme')).body as { palette: Record<string, string> };
    expect(contrastGrade(contrastRatio(palette.foreground, palette.background))).toMatch(/^AAA?$/);
    expect(contrastGrade(contrastRatio(textOn(palette.primary), palette.primary))).toMatch(/^AAA?$/);
    expect(contrastGrade(contrastRatio(palette.accent, palette.background))).toMatch(/^AAA?$/);
  });

  it('app-theme: the OpenAPI document marks light and dark deprecated', async () => {
    const spec = (await svc.call('GET', '/api/v1/spec', { auth: null })).body;
    const schema = spec.paths['/api/v1/app-theme'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.light.deprecated).toBe(true);
    expect(schema.properties.dark.deprecated).toBe(true);
  });

  it('app-theme: PUT merges the palette colour by colour and sets the logo; light and dark follow', async () => {
    const before = (await svc.call('GET', '/api/v1/app-theme')).body;
    const res = await svc.call('PUT', '/api/v1/app-theme', { body: { palette: { primary: '#112233' }, logoUrl: 'https://cdn.example.com/logo.svg' } });
    expect(res.status).toBe(200);
    expect(res.body.palette).toEqual({ ...before.palette, primary: '#112233' });
    expect(res.body.logoUrl).toBe('https://cdn.example.com/logo.svg');
    expect(res.body.light).toMatchObject({ primaryColor: '#112233', logoUrl: 'https://cdn.example.com/logo.svg' });
    expect(res.body.dark).toMatchObject({ primaryColor: '#112233', backgroundColor: before.palette.foreground });
    const again = await svc.call('PUT', '/api/v1/app-theme', { body: { palette: { background: '#F0F0F0' } } });
    expect(again.body.palette).toEqual({ ...before.palette, primary: '#112233', background: '#F0F0F0' });
    expect(again.body.logoUrl).toBe('https://cdn.example.com/logo.svg');
    expect((await svc.call('GET', '/api/v1/app-config')).body.appTheme).toEqual(again.body);
  });

  it('app-theme: PUT logoUrl null removes the logo', async () => {
    await svc.call('PUT', '/api/v1/app-theme', { body: { logoUrl: 'https://cdn.example.com/a.png' } });
    const res = await svc.call('PUT', '/api/v1/app-theme', { body: { logoUrl: null } });
    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toBeNull();
    expect(res.body.light.logoUrl).toBeNull();
  });

  it('app-theme: PUT needs admin', async () => {
    for (const user of [developer, viewer]) {
      const res = await svc.call('PUT', '/api/v1/app-theme', { body: { palette: { primary: '#000000' } }, auth: user.auth });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect((await svc.call('GET', '/api/v1/app-theme')).body.palette.primary).not.toBe('#000000');
  });

  it('app-theme: PUT refuses bad colours, non-http logos and the derived light/dark, with pointers', async () => {
    const cases: [unknown, string][] = [
      [{ palette: { primary: 'red' } }, '/body/palette/primary'],
      [{ palette: { shadow: '#000000' } }, '/body/palette/shadow'],
      [{ logoUrl: 'javascript:alert(1)' }, '/body/logoUrl'],
      [{ light: { primaryColor: '#000000' } }, '/body/light'],
    ];
    for (const [body, pointer] of cases) {
      const res = await svc.call('PUT', '/api/v1/app-theme', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer), JSON.stringify(res.body.errors)).toContain(pointer);
    }
  });

  it('app-theme: kept in the tenant across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'drydock-app-theme-'));
    const first = await startTestService({ dataDir });
    await first.call('PUT', '/api/v1/app-theme', { body: { palette: { accent: '#ABCDEF' } } });
    await first.close();
    const second = await startTestService({ dataDir });
    try {
      expect((await second.call('GET', '/api/v1/app-theme')).body.palette.accent).toBe('#ABCDEF');
    } finally {
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
