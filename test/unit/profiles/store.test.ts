import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/platform/db/connection';
import { FileSecretStore } from '../../../src-main/platform/secrets';
import { ManualClock } from '../../../src-main/platform/clock';
import { ProfileStore, credentialKey, normalizeBaseUrl, type ProfileError } from '../../../src-main/platform/profiles';

// Real SQLite file and the real file secret backend: the same pieces the CLI opens from a data dir.
function open() {
  const dir = mkdtempSync(join(tmpdir(), 'dd-profiles-'));
  const db = openDatabase(join(dir, 'drydock.sqlite'));
  const secrets = new FileSecretStore(join(dir, 'secrets.json'));
  const clock = new ManualClock();
  return { dir, db, secrets, clock, store: new ProfileStore(db, secrets, clock) };
}

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

async function codeOf(promise: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    if (typeof promise === 'function') promise();
    else await promise;
  } catch (error) {
    return (error as ProfileError).code;
  }
  return undefined;
}

describe('profile store', () => {
  it('creates a profile with its credential in the secret store, not in SQLite', async () => {
    const t = open();
    dbs.push(t.db);
    const { profile, created } = await t.store.upsert({ name: 'staging', baseUrl: 'https://staging.example.com/', credential: 'key-123' });
    expect(created).toBe(true);
    expect(profile).toMatchObject({ name: 'staging', baseUrl: 'https://staging.example.com', credentialKind: 'api-key', lastCheck: null });
    expect(await t.secrets.get(credentialKey('staging'))).toBe('key-123');
    expect(readFileSync(join(t.dir, 'drydock.sqlite')).includes(Buffer.from('key-123'))).toBe(false);
    expect(JSON.stringify(t.db.prepare('SELECT * FROM profiles').all())).not.toContain('key-123');
  });

  it('resolves the Authorization header for each credential kind', async () => {
    const t = open();
    dbs.push(t.db);
    await t.store.upsert({ name: 'a', baseUrl: 'https://a.example.com', credential: 'k1' });
    await t.store.upsert({ name: 'b', baseUrl: 'https://b.example.com', credentialKind: 'bearer', credential: 'jwt.x.y' });
    expect((await t.store.resolveCredential('a')).authorization).toBe('Api-Key k1');
    expect((await t.store.resolveCredential('b')).authorization).toBe('Bearer jwt.x.y');
  });

  it('lists profiles by name and survives reopening the data dir', async () => {
    const t = open();
    await t.store.upsert({ name: 'zeta', baseUrl: 'http://127.0.0.1:4000', credential: 'z' });
    await t.store.upsert({ name: 'alpha', baseUrl: 'https://alpha.example.com', credential: 'a' });
    t.db.close();
    const db = openDatabase(join(t.dir, 'drydock.sqlite'));
    dbs.push(db);
    const again = new ProfileStore(db, new FileSecretStore(join(t.dir, 'secrets.json')));
    expect(again.list().map((p) => p.name)).toEqual(['alpha', 'zeta']);
    expect((await again.resolveCredential('zeta')).secret).toBe('z');
  });

  it('updates without a credential keep the stored one; a new target clears the last check', async () => {
    const t = open();
    dbs.push(t.db);
    await t.store.upsert({ name: 'prod', baseUrl: 'https://prod.example.com', credential: 'old', description: 'tenant' });
    t.store.recordCheck('prod', { ok: true, error: null, specTitle: 'X', specVersion: '1.0.0', apiVersion: '3.1.0', operationIds: ['listDeployments'] });
    expect(t.store.get('prod')!.lastCheck).toMatchObject({ ok: true, specVersion: '1.0.0', operationIds: ['listDeployments'] });

    t.clock.advance(1000);
    const { profile, created } = await t.store.upsert({ name: 'prod', baseUrl: 'https://prod.example.com' });
    expect(created).toBe(false);
    expect(profile.description).toBe('tenant');
    expect(profile.lastCheck).not.toBeNull();
    expect(profile.updatedAt > profile.createdAt).toBe(true);
    expect((await t.store.resolveCredential('prod')).secret).toBe('old');

    const moved = await t.store.upsert({ name: 'prod', baseUrl: 'https://prod2.example.com' });
    expect(moved.profile.lastCheck).toBeNull();
  });

  it('removes the profile and its keychain entry', async () => {
    const t = open();
    dbs.push(t.db);
    await t.store.upsert({ name: 'gone', baseUrl: 'https://g.example.com', credential: 'secret' });
    expect(await t.store.remove('gone')).toBe(true);
    expect(t.store.get('gone')).toBeNull();
    expect(await t.secrets.get(credentialKey('gone'))).toBeNull();
    expect(await t.store.remove('gone')).toBe(false);
    expect(await codeOf(t.store.resolveCredential('gone'))).toBe('PROFILE_NOT_FOUND');
  });

  it('says the credential is missing when the keychain lost it', async () => {
    const t = open();
    dbs.push(t.db);
    await t.store.upsert({ name: 'p', baseUrl: 'https://p.example.com', credential: 's' });
    await t.secrets.delete(credentialKey('p'));
    expect(await codeOf(t.store.resolveCredential('p'))).toBe('PROFILE_CREDENTIAL_MISSING');
  });

  it('refuses bad names, the reserved name, bad URLs, clear-text http to other hosts and bad credentials', async () => {
    const t = open();
    dbs.push(t.db);
    const base = { baseUrl: 'https://x.example.com', credential: 'k' };
    expect(await codeOf(t.store.upsert({ ...base, name: 'Has Space' }))).toBe('PROFILE_NAME_INVALID');
    expect(await codeOf(t.store.upsert({ ...base, name: '../etc' }))).toBe('PROFILE_NAME_INVALID');
    expect(await codeOf(t.store.upsert({ ...base, name: 'local' }))).toBe('PROFILE_NAME_RESERVED');
    expect(await codeOf(t.store.upsert({ ...base, name: 'p', baseUrl: 'not a url' }))).toBe('PROFILE_URL_INVALID');
    expect(await codeOf(t.store.upsert({ ...base, name: 'p', baseUrl: 'ftp://x.example.com' }))).toBe('PROFILE_URL_INVALID');
    expect(await codeOf(t.store.upsert({ ...base, name: 'p', baseUrl: 'https://u:pw@x.example.com' }))).toBe('PROFILE_URL_INVALID');
    expect(await codeOf(t.store.upsert({ ...base, name: 'p', baseUrl: 'http://x.example.com' }))).toBe('PROFILE_URL_INSECURE');
    expect(await codeOf(t.store.upsert({ ...base, name: 'p', credential: 'a\r\nX-Injected: 1' }))).toBe('PROFILE_CREDENTIAL_INVALID');
    expect(await codeOf(t.store.upsert({ ...base, name: 'p', credentialKind: 'basic' as never }))).toBe('PROFILE_CREDENTIAL_INVALID');
    expect(await codeOf(t.store.upsert({ name: 'p', baseUrl: base.baseUrl }))).toBe('PROFILE_CREDENTIAL_REQUIRED');
    expect(t.store.list()).toEqual([]);
    expect(await t.secrets.get(credentialKey('p'))).toBeNull();
  });

  it('normalises base URLs: trailing slash and a pasted /api/v1 suffix go, a path prefix stays', () => {
    expect(normalizeBaseUrl('https://t.example.com/api/v1/')).toBe('https://t.example.com');
    expect(normalizeBaseUrl('https://t.example.com/build/api/v1')).toBe('https://t.example.com');
    expect(normalizeBaseUrl('https://gw.example.com/drydock/')).toBe('https://gw.example.com/drydock');
    expect(normalizeBaseUrl('http://localhost:4317')).toBe('http://localhost:4317');
    expect(normalizeBaseUrl('http://[::1]:4317')).toBe('http://[::1]:4317');
  });

  it('a failed row write restores the previous credential (nothing half-written)', async () => {
    const t = open();
    dbs.push(t.db);
    await t.store.upsert({ name: 'keep', baseUrl: 'https://k.example.com', credential: 'original' });
    // A real SQLite failure on the write (as a full disk or a lock would give).
    t.db.exec(`CREATE TRIGGER fail_update BEFORE UPDATE ON profiles BEGIN SELECT RAISE(ABORT, 'disk full'); END;
               CREATE TRIGGER fail_insert BEFORE INSERT ON profiles BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
    await expect(t.store.upsert({ name: 'keep', baseUrl: 'https://k.example.com', credential: 'replacement' })).rejects.toThrow('disk full');
    expect(await t.secrets.get(credentialKey('keep'))).toBe('original');
    await expect(t.store.upsert({ name: 'new', baseUrl: 'https://n.example.com', credential: 'fresh' })).rejects.toThrow('disk full');
    expect(await t.secrets.get(credentialKey('new'))).toBeNull();
    expect(t.store.get('new')).toBeNull();
  });
});
