import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src-main/platform/clock';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

let svc: TestService;
const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));
beforeAll(async () => {
  svc = await startTestService({ clock });
});
afterAll(async () => svc.stop());

const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe('POST /api/v1/usage-analytics/token', () => {
  it('issues a usage-analytics token that expires after exactly one hour', async () => {
    const res = await svc.call('POST', '/api/v1/usage-analytics/token');
    expect(res.status).toBe(200);
    expect(res.body.expiresAt).toBe('2026-03-01T13:00:00.000Z');
    const payload = decode(res.body.token);
    expect(payload.kind).toBe('usage-analytics');
    expect(payload.exp - payload.iat).toBe(3600);
    const verified = await svc.ctx.tokens.verify(res.body.token);
    expect(verified.kind).toBe('usage-analytics');
    clock.advance(3601 * 1000);
    await expect(svc.ctx.tokens.verify(res.body.token)).rejects.toThrow(/expired/);
  });

  it('is admin only', async () => {
    const developer = createUser(svc, 'developer');
    const res = await svc.call('POST', '/api/v1/usage-analytics/token', { auth: developer.auth });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  it('refuses embed sessions', async () => {
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    expect((await svc.call('POST', '/api/v1/usage-analytics/token', { auth: embed })).status).toBe(403);
  });

  it('gives a token the management API does not accept', async () => {
    const { token } = (await svc.call('POST', '/api/v1/usage-analytics/token')).body;
    const res = await svc.call('GET', '/api/v1/users/me', { auth: `Bearer ${token}` });
    expect(res.status).toBe(401);
  });
});
