import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { RemoteEndpoint } from '../../platform/repo';
import {
  GitHostError,
  GitHostErrorCodes,
  type GitHostApp,
  type GitHostBranch,
  type GitHostConnector,
  type GitHostInstallation,
  type GitHostRepository,
} from './types';

/** The part of `fetch` the client uses, so tests can hand in a fake. */
export type GitHostFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; ok: boolean; headers: { get(name: string): string | null }; text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface GitHubAppClientOptions {
  appId: string;
  /** The app's private key (PEM, PKCS#1 as GitHub issues it, or PKCS#8). */
  privateKey: string;
  /** REST API root; `https://api.github.com` unless GitHub Enterprise. */
  baseUrl?: string;
  fetch?: GitHostFetch;
  now?: () => Date;
  /** Pages followed for a list (100 items each; default 10). */
  maxPages?: number;
}

const API_VERSION = '2022-11-28';

interface RawInstallation {
  id: number;
  account: { login: string; type: string } | null;
  repository_selection: string;
  created_at?: string;
}
interface RawRepository {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string };
  private: boolean;
  default_branch: string;
  html_url?: string;
  clone_url?: string;
}
interface RawBranch {
  name: string;
  commit: { sha: string };
  protected?: boolean;
}

/**
 * A GitHub App's REST client. The app authenticates with a short-lived RS256 JWT (app-level
 * calls), exchanges it for an installation access token per installation (repository calls),
 * and follows `Link: rel="next"` pagination.
 */
export class GitHubAppClient implements GitHostConnector {
  readonly provider = 'github' as const;
  private readonly baseUrl: string;
  private readonly fetch: GitHostFetch;
  private readonly now: () => Date;
  private readonly key: KeyObject;
  private appToken: { jwt: string; expiresAt: number } | null = null;
  private readonly installationTokens = new Map<number, { token: string; expiresAt: number }>();

  constructor(private readonly options: GitHubAppClientOptions) {
    this.baseUrl = (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, '');
    if (!/^https?:\/\//.test(this.baseUrl)) throw new Error(`GitHub API URL "${this.baseUrl}" is not an http(s) URL.`);
    this.fetch = options.fetch ?? (globalThis.fetch as unknown as GitHostFetch);
    this.now = options.now ?? (() => new Date());
    try {
      this.key = createPrivateKey(options.privateKey);
    } catch (error) {
      throw new GitHostError(GitHostErrorCodes.GITHOST_NOT_CONFIGURED, 'The GitHub App private key is not a PEM private key.', { cause: error });
    }
  }

  // ---- authentication ----------------------------------------------------------------------------

  /** The app JWT: issued a minute in the past (clock drift), valid 9 minutes, reused for 8. */
  async appJwt(): Promise<string> {
    const nowMs = this.now().getTime();
    if (this.appToken && this.appToken.expiresAt > nowMs) return this.appToken.jwt;
    const iat = Math.floor(nowMs / 1000) - 60;
    const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).setIssuer(this.options.appId).setIssuedAt(iat).setExpirationTime(iat + 600).sign(this.key);
    this.appToken = { jwt, expiresAt: nowMs + 8 * 60_000 };
    return jwt;
  }

  private async installationToken(installationId: number): Promise<string> {
    const cached = this.installationTokens.get(installationId);
    if (cached && cached.expiresAt > this.now().getTime() + 60_000) return cached.token;
    const body = await this.json<{ token: string; expires_at: string }>('POST', `/app/installations/${installationId}/access_tokens`, { auth: 'app' });
    this.installationTokens.set(installationId, { token: body.token, expiresAt: new Date(body.expires_at).getTime() });
    return body.token;
  }

  // ---- HTTP ----------------------------------------------------------------------------------------

  private async request(
    method: string,
    pathOrUrl: string,
    options: { auth: 'app' | number; accept?: string },
  ): Promise<Awaited<ReturnType<GitHostFetch>>> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    const token = options.auth === 'app' ? await this.appJwt() : await this.installationToken(options.auth);
    let response;
    try {
      response = await this.fetch(url, {
        method,
        headers: {
          accept: options.accept ?? 'application/vnd.github+json',
          authorization: `Bearer ${token}`,
          'x-github-api-version': API_VERSION,
          'user-agent': 'drydock',
        },
      });
    } catch (error) {
      throw new GitHostError(GitHostErrorCodes.GITHOST_UNREACHABLE, `GitHub (${this.baseUrl}) could not be reached: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) throw errorOf(response.status, await response.text(), response.headers, `${method} ${new URL(url).pathname}`, this.now().getTime());
    return response;
  }

  private async json<T>(method: string, path: string, options: { auth: 'app' | number }): Promise<T> {
    const response = await this.request(method, path, options);
    return JSON.parse(await response.text()) as T;
  }

  /** Every page of a list (`pick` takes the items out of a page body). */
  private async all<R, T>(path: string, auth: 'app' | number, pick: (body: R) => T[]): Promise<T[]> {
    const items: T[] = [];
    let next: string | null = `${path}${path.includes('?') ? '&' : '?'}per_page=100`;
    for (let page = 0; next && page < (this.options.maxPages ?? 10); page++) {
      const response = await this.request('GET', next, { auth });
      items.push(...pick(JSON.parse(await response.text()) as R));
      next = nextLink(response.headers.get('link'));
    }
    return items;
  }

  private async orNull<T>(fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof GitHostError && error.code === GitHostErrorCodes.GITHOST_NOT_FOUND) return null;
      throw error;
    }
  }

  // ---- the connector -------------------------------------------------------------------------------

  async app(): Promise<GitHostApp> {
    const app = await this.json<{ slug: string; name: string; owner?: { login: string } | null; html_url?: string }>('GET', '/app', { auth: 'app' });
    return { slug: app.slug, name: app.name, owner: app.owner?.login ?? null, htmlUrl: app.html_url ?? null };
  }

  async installations(): Promise<GitHostInstallation[]> {
    const raw = await this.all<RawInstallation[], RawInstallation>('/app/installations', 'app', (body) => body);
    return raw.map((i) => ({
      id: i.id,
      account: { login: i.account?.login ?? '', type: i.account?.type === 'User' ? 'User' : 'Organization' },
      repositorySelection: i.repository_selection === 'selected' ? 'selected' : 'all',
      createdAt: i.created_at ?? null,
    }));
  }

  async repositories(installationId: number): Promise<GitHostRepository[]> {
    const raw = await this.all<{ repositories: RawRepository[] }, RawRepository>('/installation/repositories', installationId, (body) => body.repositories);
    return raw.map(toRepository);
  }

  async installationFor(owner: string, repo: string): Promise<number | null> {
    const found = await this.orNull(() => this.json<{ id: number }>('GET', `/repos/${enc(owner)}/${enc(repo)}/installation`, { auth: 'app' }));
    return found?.id ?? null;
  }

  private async covering(owner: string, repo: string): Promise<number> {
    const installation = await this.installationFor(owner, repo);
    if (installation === null) throw new GitHostError(GitHostErrorCodes.GITHOST_NOT_FOUND, `The app is not installed on a repository ${owner}/${repo}.`, { status: 404 });
    return installation;
  }

  async repository(owner: string, repo: string): Promise<GitHostRepository | null> {
    const installation = await this.installationFor(owner, repo);
    if (installation === null) return null;
    const raw = await this.orNull(() => this.json<RawRepository>('GET', `/repos/${enc(owner)}/${enc(repo)}`, { auth: installation }));
    return raw ? toRepository(raw) : null;
  }

  async branches(owner: string, repo: string): Promise<GitHostBranch[]> {
    const installation = await this.covering(owner, repo);
    const raw = await this.all<RawBranch[], RawBranch>(`/repos/${enc(owner)}/${enc(repo)}/branches`, installation, (body) => body);
    return raw.map((b) => ({ name: b.name, commit: b.commit.sha, protected: b.protected === true }));
  }

  async resolveRef(owner: string, repo: string, ref: string): Promise<string | null> {
    const installation = await this.installationFor(owner, repo);
    if (installation === null) return null;
    const response = await this.orNull(() =>
      this.request('GET', `/repos/${enc(owner)}/${enc(repo)}/commits/${enc(ref)}`, { auth: installation, accept: 'application/vnd.github.sha' }),
    );
    return response ? (await response.text()).trim() : null;
  }

  async gitRemote(target: { owner: string; repo: string; installationId: number; cloneUrl?: string | null }): Promise<RemoteEndpoint> {
    let url = target.cloneUrl ?? null;
    if (!url) {
      const raw = await this.json<RawRepository>('GET', `/repos/${enc(target.owner)}/${enc(target.repo)}`, { auth: target.installationId });
      url = toRepository(raw).cloneUrl;
    }
    return { kind: 'http', url, username: 'x-access-token', password: await this.installationToken(target.installationId) };
  }

  async readFile(owner: string, repo: string, ref: string, path: string): Promise<Uint8Array | null> {
    const installation = await this.installationFor(owner, repo);
    if (installation === null) return null;
    const filePath = path.split('/').map(enc).join('/');
    // The raw media type returns the bytes themselves, also for files over 1 MB.
    const response = await this.orNull(() =>
      this.request('GET', `/repos/${enc(owner)}/${enc(repo)}/contents/${filePath}?ref=${enc(ref)}`, { auth: installation, accept: 'application/vnd.github.raw+json' }),
    );
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  }
}

const enc = encodeURIComponent;

function toRepository(raw: RawRepository): GitHostRepository {
  return {
    id: raw.id,
    owner: raw.owner.login,
    name: raw.name,
    fullName: raw.full_name,
    private: raw.private,
    defaultBranch: raw.default_branch,
    htmlUrl: raw.html_url ?? null,
    cloneUrl: raw.clone_url ?? `https://github.com/${raw.full_name}.git`,
  };
}

/** The `rel="next"` URL of a Link header. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (match && match[2].split(/\s+/).includes('next')) return match[1];
  }
  return null;
}

function errorOf(status: number, text: string, headers: { get(name: string): string | null }, what: string, nowMs: number): GitHostError {
  let message = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as { message?: string };
    if (body.message) message = body.message;
  } catch {
    // Not JSON: keep the start of the text.
  }
  const said = message ? `: ${message}` : '';
  if (status === 401) return new GitHostError(GitHostErrorCodes.GITHOST_UNAUTHORIZED, `GitHub refused the app's credentials (${what}, 401)${said}`, { status });
  const remaining = headers.get('x-ratelimit-remaining');
  if (status === 429 || (status === 403 && remaining === '0')) {
    const reset = Number(headers.get('x-ratelimit-reset'));
    const retryAfter = Number(headers.get('retry-after'));
    return new GitHostError(GitHostErrorCodes.GITHOST_RATE_LIMITED, `GitHub rate limit reached (${what})${said}`, {
      status,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : Number.isFinite(reset) && reset > 0 ? { retryAfterMs: Math.max(0, reset * 1000 - nowMs) } : {}),
    });
  }
  if (status === 404) return new GitHostError(GitHostErrorCodes.GITHOST_NOT_FOUND, `GitHub found nothing at ${what}${said}`, { status });
  if (status === 403) return new GitHostError(GitHostErrorCodes.GITHOST_UNAUTHORIZED, `GitHub refused ${what} (403)${said}`, { status });
  return new GitHostError(GitHostErrorCodes.GITHOST_ERROR, `GitHub answered ${status} to ${what}${said}`, { status });
}
