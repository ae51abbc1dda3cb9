/**
 * Where every credential lives: the JWT signing key, data source passwords and keys,
 * secret env vars. Never SQLite, never logs.
 */
export interface SecretStore {
  readonly backend: 'keychain' | 'file' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** In-process store for unit tests of code that needs a SecretStore but not its persistence. */
export class MemorySecretStore implements SecretStore {
  readonly backend = 'memory' as const;
  private readonly values = new Map<string, string>();
  async get(key: string): Promise<string | null> {
    return this.values.get(key) ?? null;
  }
  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<boolean> {
    return this.values.delete(key);
  }
}
