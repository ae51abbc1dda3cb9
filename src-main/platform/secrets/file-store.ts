import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { SecretStore } from './secret-store';

/**
 * Explicit opt-in backend for headless servers without a keychain: one JSON file readable only by
 * its owner (0600). Writes go to a temp file renamed into place, so a crash never leaves half a file.
 */
export class FileSecretStore implements SecretStore {
  readonly backend = 'file' as const;
  constructor(private readonly file: string) {
    if (existsSync(file)) {
      const mode = statSync(file).mode & 0o777;
      if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
        throw new Error(`Secrets file ${file} is readable by others (mode ${mode.toString(8)}); run chmod 600 on it.`);
      }
    }
  }

  private read(): Record<string, string> {
    if (!existsSync(this.file)) return {};
    return JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>;
  }

  private write(values: Record<string, string>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(values, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  async get(key: string): Promise<string | null> {
    return this.read()[key] ?? null;
  }
  async set(key: string, value: string): Promise<void> {
    const values = this.read();
    values[key] = value;
    this.write(values);
  }
  async delete(key: string): Promise<boolean> {
    const values = this.read();
    if (!(key in values)) return false;
    delete values[key];
    this.write(values);
    return true;
  }
}
