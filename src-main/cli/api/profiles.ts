// Saved service profiles (name, base URL, credential in the keychain), shared with the desktop app.
import type { Credential } from './connection';
import { CliError } from '../output';

export interface SavedProfile {
  name: string;
  url: string;
  /** The profile's default deployment, if it has one. */
  deployment?: string | null;
  credential(): Promise<Credential | null>;
}

/**
 * The named profile, or the default one when `name` is undefined (null if there is none).
 * Profiles are not stored yet: a named profile is refused with a clear code.
 */
export async function loadProfile(_dataDir: string | undefined, name: string | undefined): Promise<SavedProfile | null> {
  if (name === undefined) return null;
  throw new CliError('PROFILE_NOT_FOUND', `No profile named "${name}": pass --url and --key instead.`);
}
