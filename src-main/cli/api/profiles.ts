// Saved service profiles, from the same store the desktop app and the service use
// (src-main/platform/profiles: a row in the data dir's SQLite, the credential in the SecretStore
// under profile:<name>:credential). The CLI opens the data dir directly; no service needs to run.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseTooNewError, openDatabase, type Db } from '../../platform/db/connection';
import { ProfileError, ProfileStore } from '../../platform/profiles';
import { FileSecretStore, KeychainSecretStore, keychainServiceFor, type SecretStore } from '../../platform/secrets';
import { defaultDataDir } from '../data-dir';
import { CliError } from '../output';
import type { Credential } from './credential';

export interface SavedProfile {
  name: string;
  url: string;
  credential(): Promise<Credential>;
}

export interface OpenedProfiles {
  store: ProfileStore;
  dataDir: string;
  secrets: SecretStore;
  close(): void;
}

/**
 * The SecretStore the service of this data dir uses: `--secrets`/DRYDOCK_SECRETS when given; else
 * the data dir's secrets.json when the service keeps its secrets there; else the OS keychain (or,
 * when none is reachable, secrets.json, as `drydock serve --secrets auto` does).
 */
async function openSecrets(dataDir: string, mode: string | undefined, note: (text: string) => void): Promise<SecretStore> {
  const file = join(dataDir, 'secrets.json');
  const chosen = mode ?? (existsSync(file) ? 'file' : 'auto');
  if (!['keychain', 'file', 'auto'].includes(chosen)) throw new CliError('USAGE', `--secrets must be keychain, file or auto, not "${chosen}".`);
  if (chosen === 'file') return new FileSecretStore(file);
  const keychain = new KeychainSecretStore(keychainServiceFor(dataDir));
  try {
    await keychain.probe();
    return keychain;
  } catch (error) {
    if (chosen === 'keychain') throw new CliError('KEYCHAIN_UNAVAILABLE', (error as Error).message);
    note(`OS keychain not reachable; profile credentials go to ${file} (mode 0600).`);
    return new FileSecretStore(file);
  }
}

export function asCliError(error: unknown): unknown {
  if (error instanceof ProfileError) return new CliError(error.code, error.message);
  if (error instanceof DatabaseTooNewError) return new CliError('DATABASE_TOO_NEW', error.message);
  return error;
}

/** Opens the profile store of a data dir (default: the app's). Close it when done. */
export async function openProfiles(
  dataDir: string | undefined,
  secretsMode: string | undefined,
  note: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
): Promise<OpenedProfiles> {
  const dir = resolve(dataDir ?? defaultDataDir());
  const secrets = await openSecrets(dir, secretsMode, note);
  let db: Db;
  try {
    db = openDatabase(join(dir, 'drydock.sqlite'));
  } catch (error) {
    throw asCliError(error);
  }
  return { store: new ProfileStore(db, secrets), dataDir: dir, secrets, close: () => db.close() };
}

/** A saved profile by name; its credential is read from the keychain when asked for. */
export async function loadProfile(dataDir: string | undefined, secretsMode: string | undefined, name: string): Promise<SavedProfile> {
  const opened = await openProfiles(dataDir, secretsMode);
  try {
    const profile = opened.store.require(name);
    const resolved = await opened.store.resolveCredential(name);
    const credential: Credential = resolved.kind === 'bearer' ? { kind: 'token', value: resolved.secret } : { kind: 'apiKey', value: resolved.secret };
    return { name, url: profile.baseUrl, credential: async () => credential };
  } catch (error) {
    throw asCliError(error);
  } finally {
    opened.close();
  }
}
