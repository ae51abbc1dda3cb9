// Which service a command talks to, and with what credential: --url/--key (or --token) on the
// command line, else a saved profile (--profile, DRYDOCK_PROFILE, or the default profile), else the
// DRYDOCK_URL / DRYDOCK_API_KEY / DRYDOCK_TOKEN environment. Calls go through the typed client of
// src-shared/api, so the command line follows the same contract as the UI.
import type { OptionValueSource } from 'commander';
import { createClient, type Client, type FetchLike } from '../../../src-shared/api/client';
import { normalizeBaseUrl, ProfileError } from '../../platform/profiles/store';
import { CliError } from '../output';
import { authorization, type Credential } from './credential';
import type { SavedProfile } from './profiles';

export interface ConnectionOptions {
  profile?: string;
  url?: string;
  key?: string;
  token?: string;
  dataDir?: string;
  /** Secret store of the data dir's profiles: keychain, file or auto. */
  secrets?: string;
  json?: boolean;
  deployment?: string;
  /** Where each connection option came from (`cli`, `env`, …), so flags beat profiles and profiles beat env. */
  sources: Partial<Record<'profile' | 'url' | 'key' | 'token', OptionValueSource | undefined>>;
}

export interface Connection {
  client: Client;
  baseUrl: string;
  credential: Credential;
  /** The profile used, if any. */
  profile: SavedProfile | null;
}

export const DEFAULT_URL = 'http://127.0.0.1:4317';
/** A request that has not answered after this long is given up (the service answers in milliseconds). */
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The service's base URL as profiles keep it (a pasted `/api/v1` suffix dropped). Plain http only to
 * this machine: the credential travels in a header.
 */
export function normalizeUrl(text: string): string {
  try {
    return normalizeBaseUrl(text);
  } catch (error) {
    if (error instanceof ProfileError) throw new CliError(error.code === 'PROFILE_URL_INSECURE' ? 'URL_INSECURE' : 'INVALID_URL', error.message);
    throw error;
  }
}

/** Node's fetch with a deadline, and the network cause (ECONNREFUSED…) in the message instead of "fetch failed". */
export const nodeFetch: FetchLike = async (url, init) => {
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    return await fetch(url, { ...init, signal });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if ((error as Error).name === 'TimeoutError') throw new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    throw new Error(cause?.code ?? cause?.message ?? (error as Error).message);
  }
};

export function connectTo(baseUrl: string, credential: Credential, profile: SavedProfile | null = null): Connection {
  const auth = authorization(credential);
  const client = createClient({ baseUrl, auth: () => auth, fetch: nodeFetch });
  return { client, baseUrl, credential, profile };
}

function credentialOf(key: string | undefined, token: string | undefined): Credential | null {
  if (key) return { kind: 'apiKey', value: key };
  if (token) return { kind: 'token', value: token };
  return null;
}

/**
 * Which service and credential: --url/--key/--token flags, else the --profile (flag or
 * DRYDOCK_PROFILE), else DRYDOCK_URL and DRYDOCK_API_KEY/DRYDOCK_TOKEN, else the local service on
 * its default port. A flag always beats the profile, and the profile beats the environment.
 */
export async function connect(options: ConnectionOptions): Promise<Connection> {
  const fromCli = (name: 'url' | 'key' | 'token') => (options.sources[name] === 'cli' ? options[name] : undefined);
  const fromEnv = (name: 'url' | 'key' | 'token') => (options.sources[name] === 'env' ? options[name] : undefined);
  if (fromCli('key') && fromCli('token')) throw new CliError('USAGE', 'Pass --key or --token, not both.');
  let profile: SavedProfile | null = null;
  if (options.profile !== undefined) {
    // Loaded only when named: it opens the data dir's SQLite and the keychain.
    const { loadProfile } = await import('./profiles');
    profile = await loadProfile(options.dataDir, options.secrets, options.profile);
  }
  const url = fromCli('url') ?? profile?.url ?? fromEnv('url') ?? DEFAULT_URL;
  const credential = credentialOf(fromCli('key'), fromCli('token')) ?? (profile ? await profile.credential() : null) ?? credentialOf(fromEnv('key'), fromEnv('token'));
  if (!credential) {
    throw new CliError(
      'CREDENTIAL_REQUIRED',
      `No credential for ${url}: pass --key (or set DRYDOCK_API_KEY), or save a profile with \`drydock login --profile NAME --url URL\` and pass --profile NAME.`,
    );
  }
  return connectTo(normalizeUrl(url), credential, profile);
}
