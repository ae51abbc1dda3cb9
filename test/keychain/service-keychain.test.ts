import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore, keychainServiceFor } from '../../src-main/platform/secrets';
import { createService, silentLogger, type Service } from '../../src-main/service';
import { ADMIN_KEY } from '../support/service';

// The service with its default secrets backend, against the real OS keychain.
let service: Service;
let dataDir: string;
let deploymentId: number | null = null;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dd-keychain-'));
  service = await createService({ dataDir, secrets: 'keychain', log: silentLogger, bootstrapApiKey: ADMIN_KEY });
});
afterAll(async () => {
  const keychain = new KeychainSecretStore(keychainServiceFor(dataDir));
  // Deleting the deployment removes its secrets from the keychain.
  if (deploymentId !== null) expect((await call('DELETE', `/api/v1/deployments/${deploymentId}`)).status).toBeLessThan(300);
  await service.close();
  await keychain.delete('jwt-signing-key');
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Api-Key ${ADMIN_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe('service secrets in the OS keychain', () => {
  it('keeps the JWT signing key in the keychain under the data dir’s service name', async () => {
    expect(service.ctx.secrets.backend).toBe('keychain');
    const key = await new KeychainSecretStore(keychainServiceFor(dataDir)).get('jwt-signing-key');
    expect(key).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
  });

  it('stores a secret env var value in the keychain, never in SQLite', async () => {
    const created = await call('POST', '/build/api/v1/deployments/', {
      name: 'keychain',
      cloudProvider: 'aws',
      creationMethod: 'upload',
      deployMode: 'cli',
      storageProvider: { type: 'local' },
    });
    expect(created.status).toBeLessThan(300);
    const { id } = (await created.json()) as { id: number };
    deploymentId = id;
    const secret = `s3cret-${Date.now()}`;
    const put = await call('PUT', `/api/v1/deployments/${id}/env-vars`, [{ name: 'CUBEJS_DB_PASS', value: secret, isSecret: true }]);
    expect(put.status).toBe(200);
    const keychain = new KeychainSecretStore(keychainServiceFor(dataDir));
    expect(await keychain.get(`deployment:${id}:env:CUBEJS_DB_PASS`)).toBe(secret);
    service.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(join(dataDir, 'drydock.sqlite')).toString('latin1').includes(secret)).toBe(false);
  });
});
