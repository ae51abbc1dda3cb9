import { mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore, KeychainSecretStore, keychainServiceFor, type SecretStore } from '../../src-main/platform/secrets';
import type { KeytarApi } from '../../src-main/platform/secrets/keychain-store';

async function roundTrip(store: SecretStore) {
  expect(await store.get('missing')).toBeNull();
  await store.set('db-password', 's3cret');
  expect(await store.get('db-password')).toBe('s3cret');
  await store.set('db-password', 'rotated');
  expect(await store.get('db-password')).toBe('rotated');
  expect(await store.delete('db-password')).toBe(true);
  expect(await store.get('db-password')).toBeNull();
  expect(await store.delete('db-password')).toBe(false);
}

describe('file secret store', () => {
  it('stores, replaces and deletes secrets', async () => {
    await roundTrip(new FileSecretStore(join(mkdtempSync(join(tmpdir(), 'dd-sec-')), 'secrets.json')));
  });

  it('writes the file readable by its owner only (0600)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dd-sec-')), 'secrets.json');
    await new FileSecretStore(file).set('k', 'v');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('persists across instances', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dd-sec-')), 'secrets.json');
    await new FileSecretStore(file).set('k', 'v');
    expect(await new FileSecretStore(file).get('k')).toBe('v');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ k: 'v' });
  });

  it('refuses a secrets file readable by others', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dd-sec-')), 'secrets.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    expect(() => new FileSecretStore(file)).toThrow(/readable by others/);
  });
});

describe('keychain secret store', () => {
  it('uses one keychain service per data dir', () => {
    expect(keychainServiceFor('/a')).not.toBe(keychainServiceFor('/b'));
    expect(keychainServiceFor('/a')).toBe(keychainServiceFor('/a/'));
  });

  it('reports an unreachable keychain with a clear remedy', async () => {
    const broken: KeytarApi = {
      getPassword: async () => {
        throw new Error('no dbus');
      },
      setPassword: async () => {
        throw new Error('no dbus');
      },
      deletePassword: async () => false,
    };
    await expect(new KeychainSecretStore('drydock:test', broken).probe()).rejects.toThrow(/--secrets file/);
  });
});
