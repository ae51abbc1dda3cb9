import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { FileSecretStore } from './file-store';
import { KeychainSecretStore } from './keychain-store';
import type { SecretStore } from './secret-store';

export type { SecretStore } from './secret-store';
export { MemorySecretStore } from './secret-store';
export { FileSecretStore } from './file-store';
export { KeychainSecretStore } from './keychain-store';

export type SecretsBackend = 'keychain' | 'file';

/** Keychain service name for a data dir: stable per directory, distinct between directories. */
export function keychainServiceFor(dataDir: string): string {
  const digest = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  return `drydock:${digest}`;
}

export async function openSecretStore(backend: SecretsBackend, dataDir: string): Promise<SecretStore> {
  if (backend === 'file') return new FileSecretStore(join(dataDir, 'secrets.json'));
  const store = new KeychainSecretStore(keychainServiceFor(dataDir));
  await store.probe();
  return store;
}
