import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../src-main/platform/secrets';

// Runs against the real OS keychain (gnome-keyring in a D-Bus session under `npm test` on Linux).
describe('keychain secret store against the real OS keychain', () => {
  it('stores, reads back, replaces and deletes a secret', async () => {
    const store = new KeychainSecretStore(`drydock-test:${randomUUID()}`);
    await store.probe();
    expect(await store.get('jwt-signing-key')).toBeNull();
    await store.set('jwt-signing-key', 'first');
    expect(await store.get('jwt-signing-key')).toBe('first');
    await store.set('jwt-signing-key', 'second');
    expect(await store.get('jwt-signing-key')).toBe('second');
    expect(await store.delete('jwt-signing-key')).toBe(true);
    expect(await store.get('jwt-signing-key')).toBeNull();
  });

  it('keeps secrets of two services apart', async () => {
    const a = new KeychainSecretStore(`drydock-test:${randomUUID()}`);
    const b = new KeychainSecretStore(`drydock-test:${randomUUID()}`);
    await a.set('k', 'from-a');
    expect(await b.get('k')).toBeNull();
    await a.delete('k');
  });
});
