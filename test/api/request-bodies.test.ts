/**
 * Issue 13 item 15: a JSON content type with an empty body is no body (operations whose body is
 * optional accept it), and authentication and access are checked before the body is parsed, so a
 * caller without a credential (or without access) never learns about body errors.
 */
import { describe, expect, it } from 'vitest';
import { dep, svc, useServiceWithDeployment } from '../support/deployment-service';
import { createUser } from '../support/users';

useServiceWithDeployment();

const JSON_TYPE = { 'content-type': 'application/json' };
const B = () => `/build/api/v1/deployments/${dep}`;

describe('an empty body sent as application/json', () => {
  it('POST dev-mode (no body in its contract) with Content-Type: application/json and an empty body enters dev mode', async () => {
    const res = await svc.call('POST', `${B()}/dev-mode`, { body: '', headers: JSON_TYPE });
    expect(res.status, res.text).toBe(200);
    expect(res.body.branch.isDevMode).toBe(true);
  });

  it('DELETE dev-mode with Content-Type: application/json and an empty body leaves dev mode', async () => {
    const res = await svc.call('DELETE', `${B()}/dev-mode`, { body: '', headers: JSON_TYPE });
    expect(res.status, res.text).toBe(200);
    expect(res.body.isDevMode).toBe(false);
  });

  it('an operation whose body is optional takes an empty (or whitespace) JSON body as no body', async () => {
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/creation-step/advance`, { body: ' \n', headers: JSON_TYPE });
    expect(res.status, res.text).toBe(200);
  });

  it('an operation whose body is required answers 400 problem+json for an empty JSON body, and creates nothing', async () => {
    const before = (await svc.call('GET', `/api/v1/deployments/${dep}/folders`)).body.items.length;
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: '', headers: JSON_TYPE });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await svc.call('GET', `/api/v1/deployments/${dep}/folders`)).body.items).toHaveLength(before);
  });
});

describe('a body that is not JSON', () => {
  it('answers 415 UNSUPPORTED_MEDIA_TYPE naming its media type, text/plain included, and creates nothing', async () => {
    const before = (await svc.call('GET', `/api/v1/deployments/${dep}/folders`)).body.items.length;
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: JSON.stringify({ name: 'Sent as text' }), headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', detail: `The body is "${type.split(';')[0]}"; send it as application/json.` });
    }
    expect((await svc.call('GET', `/api/v1/deployments/${dep}/folders`)).body.items).toHaveLength(before);
  });
});

describe('authentication comes before the body', () => {
  it('without a credential, malformed JSON answers 401, not a body error', async () => {
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: '{"name": ', headers: JSON_TYPE, auth: null });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('without a credential, a body of the wrong shape or an empty JSON body answers 401', async () => {
    for (const body of ['{"bogus": true}', '']) {
      const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body, headers: JSON_TYPE, auth: null });
      expect(res.status, body).toBe(401);
    }
  });

  it('with an invalid credential, malformed JSON to an unknown API path answers 401, not 400 or 404', async () => {
    const res = await svc.call('POST', '/api/v1/no-such-operation', { body: '{bad', headers: JSON_TYPE, auth: 'Api-Key not-a-key' });
    expect(res.status).toBe(401);
  });

  it('a caller the operation is closed to gets 403 whatever the body, even malformed JSON', async () => {
    const viewer = createUser(svc, 'viewer');
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: '{bad', headers: JSON_TYPE, auth: viewer.auth });
    expect(res.status).toBe(403);
  });

  it('an authenticated caller with access still gets 400 for malformed JSON', async () => {
    const res = await svc.call('POST', `/api/v1/deployments/${dep}/folders`, { body: '{bad', headers: JSON_TYPE });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('unknown keys', () => {
  it('an unknown key in a body whose schema is closed answers 400 naming the key in the pointer, and creates nothing', async () => {
    const email = `unknown-key-${Date.now()}@example.com`;
    const res = await svc.call('POST', '/api/v1/users/', { body: { email, name: 'Unknown key', role: 'viewer', bogus: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ pointer: '/body/bogus', detail: 'is not a known field' }]);
    const users = (await svc.call('GET', '/api/v1/users/?first=100')).body.items as { email: string }[];
    expect(users.map((u) => u.email)).not.toContain(email);
  });
});
