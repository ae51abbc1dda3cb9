import { UpstreamErrorCodes as Codes } from '../../../src-shared/api/git-host';
import { ApiError } from '../../http/problem';

export interface ParsedRemote {
  /** The URL without credentials, query or fragment, no trailing slash. */
  url: string;
  owner: string;
  repo: string;
  auth: 'none' | 'token' | 'basic';
  credentials: { username: string; password: string } | null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

const invalid = (detail: string, pointer = '/body/url') => new ApiError(400, Codes.INVALID_REPOSITORY_URL, detail, { errors: [{ pointer, detail }] });

/**
 * A smart-HTTP(S) repository URL and its credentials: a token (sent as the password, user
 * `x-access-token` unless one is named) or a user and password. Credentials written into the URL
 * (`https://user:token@host/…`) are taken out of it. Plain http only to this machine when there
 * are credentials: elsewhere they would cross the network unencrypted. Messages never echo them.
 */
export function parseRemote(input: { url: string; token?: string; username?: string; password?: string }): ParsedRemote {
  let parsed: URL;
  try {
    parsed = new URL(input.url.trim());
  } catch {
    throw invalid('url is not a URL; give the repository’s https:// clone URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalid(`Only smart HTTP(S) git URLs can be connected (https://…); got a ${parsed.protocol.replace(':', '')} URL.`);
  }
  if (parsed.search || parsed.hash) throw invalid('A repository URL has no query or fragment.');
  const fromUrl = parsed.username || parsed.password ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) } : null;
  parsed.username = '';
  parsed.password = '';
  const path = parsed.pathname.replace(/\/+$/, '');
  const url = `${parsed.protocol}//${parsed.host}${path}`;
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) throw invalid(`${url} names a server, not a repository.`);

  if (input.token !== undefined && input.password !== undefined) throw invalid('Give a token or a password, not both.', '/body/token');
  let auth: ParsedRemote['auth'] = 'none';
  let credentials: ParsedRemote['credentials'] = null;
  if (input.token !== undefined) {
    auth = 'token';
    credentials = { username: input.username ?? 'x-access-token', password: input.token };
  } else if (input.password !== undefined) {
    if (input.username === undefined) throw invalid('A password needs a username.', '/body/username');
    auth = 'basic';
    credentials = { username: input.username, password: input.password };
  } else if (input.username !== undefined) {
    throw invalid('A username needs a password or a token.', '/body/password');
  } else if (fromUrl) {
    auth = fromUrl.password ? 'basic' : 'token';
    credentials = fromUrl.password ? fromUrl : { username: 'x-access-token', password: fromUrl.username };
  }
  if (credentials && parsed.protocol === 'http:' && !LOOPBACK.has(parsed.hostname)) {
    throw invalid(`Credentials would travel unencrypted to ${parsed.hostname}: use the https:// URL of the repository.`);
  }
  const repo = segments[segments.length - 1].replace(/\.git$/, '');
  const owner = segments.length > 1 ? segments[segments.length - 2] : parsed.hostname;
  return { url, owner, repo, auth, credentials };
}
