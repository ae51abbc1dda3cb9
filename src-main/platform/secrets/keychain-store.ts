import { createRequire } from 'node:module';
import type { SecretStore } from './secret-store';

/** The keytar API, as exported by @napi-rs/keyring (the maintained N-API successor of keytar). */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export function loadKeytar(): KeytarApi {
  const require = createRequire(import.meta.url);
  return require('@napi-rs/keyring/keytar') as KeytarApi;
}

/**
 * Secrets in the OS keychain (libsecret/gnome-keyring, macOS Keychain, Windows Credential Manager).
 * `service` is per data dir so two Drydock data dirs never share or overwrite each other's secrets.
 */
export class KeychainSecretStore implements SecretStore {
  readonly backend = 'keychain' as const;
  constructor(
    private readonly service: string,
    private readonly keytar: KeytarApi = loadKeytar(),
  ) {}

  async get(key: string): Promise<string | null> {
    return (await this.keytar.getPassword(this.service, key)) ?? null;
  }
  async set(key: string, value: string): Promise<void> {
    await this.keytar.setPassword(this.service, key, value);
  }
  async delete(key: string): Promise<boolean> {
    return this.keytar.deletePassword(this.service, key);
  }

  /** Fails fast with a clear message when no keychain is reachable (e.g. no D-Bus session). */
  async probe(): Promise<void> {
    const probeKey = '__drydock_probe__';
    try {
      await this.set(probeKey, 'ok');
      const read = await this.get(probeKey);
      await this.delete(probeKey);
      if (read !== 'ok') throw new Error('read back a different value');
    } catch (error) {
      throw new Error(
        `The OS keychain is not available (${(error as Error).message}). ` +
          `Start a keychain (e.g. gnome-keyring in a D-Bus session) or run with --secrets file.`,
      );
    }
  }
}
