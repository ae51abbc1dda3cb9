// `drydock login-link` (issue 14 item 8): a new one-time login link for the running service, minted in
// its data dir's database, without a restart; it opens a session once and names the user it signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintLoginLink } from '../../src-main/cli/login-link';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

const exchange = (code: string) => svc.call('POST', '/api/v1/auth/login-code', { auth: null, body: { code } });
const codeOf = (url: string) => new URL(url).searchParams.get('login')!;

describe('drydock login-link', () => {
  it('mints a link for the running service that opens an admin session once', async () => {
    const link = mintLoginLink({ dataDir: svc.dataDir, url: svc.url });
    expect(link.url.startsWith(`${svc.url}/?login=`)).toBe(true);
    const first = await exchange(codeOf(link.url));
    expect(first.status).toBe(200);
    const me = await svc.call('GET', '/api/v1/users/me', { auth: `Bearer ${first.body.token}` });
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('admin');
    expect(me.body.email).toBe(link.email);
    // One-time: the same link does not open a second session.
    expect((await exchange(codeOf(link.url))).status).toBeGreaterThanOrEqual(400);
  });

  it('signs in as the user named with --email, and refuses an unknown one', async () => {
    createUser(svc, 'viewer', { email: 'viewer-link@example.com' });
    const link = mintLoginLink({ dataDir: svc.dataDir, port: String(svc.port), email: 'viewer-link@example.com' });
    expect(link.url.startsWith(`http://127.0.0.1:${svc.port}/?login=`)).toBe(true);
    const session = await exchange(codeOf(link.url));
    const me = await svc.call('GET', '/api/v1/users/me', { auth: `Bearer ${session.body.token}` });
    expect(me.body.email).toBe('viewer-link@example.com');
    expect(() => mintLoginLink({ dataDir: svc.dataDir, email: 'nobody@example.com' })).toThrow(/No active user/);
  });

  it('says so when the folder holds no Drydock data', () => {
    expect(() => mintLoginLink({ dataDir: '/nonexistent-drydock-dir' })).toThrow(/No Drydock data/);
  });

  it('a link opened again says why it failed (used, expired, not this service’s) and, with the command the service was started by, how to get a new one (issue 24)', async () => {
    svc.ctx.services.newLoginLinkCommand = 'drydock login-link --port 4317 --data-dir /srv/drydock';
    try {
      const link = mintLoginLink({ dataDir: svc.dataDir, url: svc.url });
      expect((await exchange(codeOf(link.url))).status).toBe(200);
      const used = await exchange(codeOf(link.url));
      expect(used.status).toBe(401);
      expect(used.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(used.body).toMatchObject({ code: 'LOGIN_CODE_INVALID', reason: 'used', newLinkCommand: 'drydock login-link --port 4317 --data-dir /srv/drydock' });
      expect(used.body.detail).toMatch(/already used.*run: drydock login-link --port 4317/);

      const stale = mintLoginLink({ dataDir: svc.dataDir, url: svc.url });
      svc.ctx.db.prepare('UPDATE login_codes SET expires_at = ? WHERE used_at IS NULL').run('2000-01-01T00:00:00.000Z');
      const expired = await exchange(codeOf(stale.url));
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ code: 'LOGIN_CODE_INVALID', reason: 'expired' });

      const unknown = await exchange('not-a-code-of-this-service-0123456789');
      expect(unknown.body).toMatchObject({ code: 'LOGIN_CODE_INVALID', reason: 'unknown' });
    } finally {
      delete svc.ctx.services.newLoginLinkCommand;
    }
    // Without a command (a service started by other means) the problem still says what went wrong.
    const plain = await exchange('not-a-code-of-this-service-0123456789');
    expect(plain.body.newLinkCommand).toBeUndefined();
    expect(plain.body.detail).toMatch(/is not one this service issued/);
  });
});
