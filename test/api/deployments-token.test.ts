import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerFor, createUser } from '../support/users';
import { createDeployment, D, developer, svc, useDeploymentsService, viewer } from '../support/deployments-api';

// Deployments: the deployment token (POST D/token).
useDeploymentsService();

describe('deployment token (POST D/token)', () => {
  it('deployment token: lives 24 hours by default', async () => {
    const id = await createDeployment();
    const before = Date.now();
    const res = await svc.call('POST', `${D(id)}/token`);
    expect(res.status).toBe(200);
    const lifetime = Date.parse(res.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(86400_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(86400_000 + 1_000);
    const claims = decodeJwt(res.body.token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(86400);
  });

  it('deployment token: expiresIn shortens its life', async () => {
    const id = await createDeployment();
    for (const expiresIn of [60, 3600, 86400]) {
      const res = await svc.call('POST', `${D(id)}/token`, { body: { expiresIn } });
      expect(res.status).toBe(200);
      const claims = decodeJwt(res.body.token);
      expect((claims.exp as number) - (claims.iat as number)).toBe(expiresIn);
    }
  });

  it('deployment token: expiresIn outside 60..86400 is 400 with the pointer /body/expiresIn', async () => {
    const id = await createDeployment();
    for (const expiresIn of [59, 0, 86401, 'soon']) {
      const res = await svc.call('POST', `${D(id)}/token`, { body: { expiresIn } });
      expect(res.status, String(expiresIn)).toBe(400);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/body/expiresIn');
    }
  });

  it('deployment token: a bearer JWT of kind deployment with claim deploymentId, good for that deployment only', async () => {
    const id = await createDeployment();
    const other = await createDeployment();
    const res = await svc.call('POST', `${D(id)}/token`, { auth: developer.auth });
    const claims = decodeJwt(res.body.token);
    expect(claims).toMatchObject({ kind: 'deployment', deploymentId: id, sub: String(developer.id) });
    const bearer = `Bearer ${res.body.token}`;
    expect((await svc.call('GET', D(id), { auth: bearer })).status).toBe(200);
    expect((await svc.call('GET', D(other), { auth: bearer })).status).toBe(403);
    const list = await svc.call('GET', '/api/v1/deployments', { auth: bearer });
    expect(list.body.items.map((d: { id: number }) => d.id)).toEqual([id]);
  });

  it('deployment token: carries the caller’s own access, no more', async () => {
    const id = await createDeployment();
    const editor = createUser(svc, 'developer');
    const res = await svc.call('POST', `${D(id)}/token`, { auth: editor.auth });
    svc.ctx.db.prepare("UPDATE users SET role = 'viewer' WHERE id = ?").run(editor.id);
    const put = await svc.call('PUT', D(id), { body: { name: 'renamed' }, auth: `Bearer ${res.body.token}` });
    expect(put.status).toBe(403);
  });

  it('deployment token: needs deployment edit access and refuses embed sessions and deployment tokens', async () => {
    const id = await createDeployment();
    expect((await svc.call('POST', `${D(id)}/token`, { auth: viewer.auth })).status).toBe(403);
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    const byEmbed = await svc.call('POST', `${D(id)}/token`, { auth: embed });
    expect(byEmbed.status).toBe(403);
    expect(byEmbed.body.code).toBe('EMBED_SESSION_REFUSED');
    const token = (await svc.call('POST', `${D(id)}/token`)).body.token;
    const renewed = await svc.call('POST', `${D(id)}/token`, { auth: `Bearer ${token}` });
    expect(renewed.status).toBe(403);
    expect(renewed.body.code).toBe('TOKEN_CANNOT_MINT');
  });

  it('deployment token: minting is logged in the api-proxy log, without the token', async () => {
    const id = await createDeployment();
    const res = await svc.call('POST', `${D(id)}/token`, { body: { expiresIn: 600 } });
    const logs = await svc.call('GET', `${D(id)}/logs?container=api-proxy`);
    expect(logs.body.items[0].message).toContain('Deployment token issued to admin@localhost, valid 600 s');
    expect(logs.text).not.toContain(res.body.token);
  });
});
