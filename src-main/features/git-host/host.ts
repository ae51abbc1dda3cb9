import { join } from 'node:path';
import { GitHostErrorCodes as Codes, type GitHostStatus } from '../../../src-shared/api/git-host';
import { GitHostError, GitHubAppClient, LocalGitHost, type GitHostConnector } from '../../connectors/githost';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';

/** Key of the GitHub App's private key in the SecretStore. */
export const GITHUB_APP_KEY_SECRET = 'githost:github-app-private-key';

const isConnector = (value: unknown): value is GitHostConnector =>
  typeof value === 'object' && value !== null && typeof (value as GitHostConnector).installations === 'function';

/** The local repository host of this data dir (`<dataDir>/emulators/githost`). */
export function getLocalGitHost(ctx: ServiceContext): LocalGitHost {
  const existing = ctx.services.localGitHost;
  if (existing instanceof LocalGitHost) return existing;
  const host = new LocalGitHost(join(ctx.dataDir, 'emulators', 'githost'), () => ctx.clock.now());
  ctx.services.localGitHost = host;
  return host;
}

/**
 * The repository host: one the composition root (or a test) put in `ctx.services.gitHost`; a
 * GitHub App when `DRYDOCK_GITHUB_APP_ID` is set (private key from the SecretStore under
 * `githost:github-app-private-key`, or `DRYDOCK_GITHUB_APP_PRIVATE_KEY`; API root
 * `DRYDOCK_GITHUB_API_URL` for GitHub Enterprise); else the local host.
 */
export async function gitHostFor(ctx: ServiceContext): Promise<GitHostConnector> {
  if (isConnector(ctx.services.gitHost)) return ctx.services.gitHost;
  const appId = process.env.DRYDOCK_GITHUB_APP_ID;
  if (!appId) return getLocalGitHost(ctx);
  const privateKey = (await ctx.secrets.get(GITHUB_APP_KEY_SECRET)) ?? process.env.DRYDOCK_GITHUB_APP_PRIVATE_KEY ?? null;
  if (!privateKey) {
    throw new ApiError(503, Codes.GITHOST_NOT_CONFIGURED, `DRYDOCK_GITHUB_APP_ID is set but the app's private key is not stored (secret "${GITHUB_APP_KEY_SECRET}").`);
  }
  const client = new GitHubAppClient({ appId, privateKey, ...(process.env.DRYDOCK_GITHUB_API_URL ? { baseUrl: process.env.DRYDOCK_GITHUB_API_URL } : {}) });
  ctx.services.gitHost = client;
  return client;
}

/** A connector failure as a problem response. */
export function gitHostProblem(error: unknown): unknown {
  if (!(error instanceof GitHostError)) return error;
  switch (error.code) {
    case 'GITHOST_NOT_FOUND':
      return new ApiError(404, Codes.GITHOST_NOT_FOUND, error.message);
    case 'GITHOST_RATE_LIMITED':
      return new ApiError(503, Codes.GITHOST_RATE_LIMITED, error.message, error.options.retryAfterMs !== undefined ? { retryAfterMs: error.options.retryAfterMs } : {});
    case 'GITHOST_NOT_CONFIGURED':
      return new ApiError(503, Codes.GITHOST_NOT_CONFIGURED, error.message);
    case 'GITHOST_UNAUTHORIZED':
      return new ApiError(502, Codes.GITHOST_UNAUTHORIZED, error.message);
    case 'GITHOST_UNREACHABLE':
      return new ApiError(502, Codes.GITHOST_UNREACHABLE, error.message);
    default:
      return new ApiError(502, Codes.GITHOST_ERROR, error.message);
  }
}

/** Runs a connector call, turning its failures into problem responses. */
export async function viaHost<T>(ctx: ServiceContext, fn: (host: GitHostConnector) => Promise<T>): Promise<T> {
  try {
    return await fn(await gitHostFor(ctx));
  } catch (error) {
    throw gitHostProblem(error);
  }
}

export async function gitHostStatus(ctx: ServiceContext): Promise<GitHostStatus> {
  let host: GitHostConnector;
  try {
    host = await gitHostFor(ctx);
  } catch (error) {
    const e = error as ApiError;
    return { provider: 'github', connected: false, app: null, installationCount: null, error: { code: e.code, message: e.detail } };
  }
  try {
    const app = await host.app();
    const installations = await host.installations();
    return { provider: host.provider, connected: true, app, installationCount: installations.length, error: null };
  } catch (error) {
    const e = error instanceof GitHostError ? error : new GitHostError('GITHOST_ERROR', String(error));
    return { provider: host.provider, connected: false, app: null, installationCount: null, error: { code: e.code, message: e.message } };
  }
}

/**
 * A file of a repository at a ref through the host: the commit the ref names and the content;
 * null content when the file does not exist there; null altogether when the ref names nothing.
 */
export async function readRepositoryFile(
  ctx: ServiceContext,
  owner: string,
  repo: string,
  ref: string,
  path: string,
): Promise<{ commit: string; content: Uint8Array | null } | null> {
  const host = await gitHostFor(ctx);
  const commit = await host.resolveRef(owner, repo, ref);
  if (commit === null) return null;
  return { commit, content: await host.readFile(owner, repo, commit, path) };
}
