import {
  DEFAULT_FETCH_INTERVAL_SECONDS,
  GitHostErrorCodes as Codes,
  MIN_FETCH_INTERVAL_SECONDS,
  UpstreamErrorCodes,
  type ConnectGitHostInput,
  type ConnectGitHostResult,
  type GitHostConnection,
} from '../../../src-shared/api/git-host';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, invalidField } from '../../http/problem';
import { publishEvent } from '../../platform/events';
import type { RemoteEndpoint } from '../../platform/repo';
import { connectUpstream, disconnectUpstream, onUpstreamFetched, probeUpstream, setUpstreamResolver, type UpstreamConnection } from '../data-model';
import { onDeploymentDeleted } from '../deployments';
import { getLocalGitHost, gitHostFor, gitHostProblem, viaHost } from './host';
import { parseRemote } from './remote-url';

interface ConnectionRow {
  deployment_id: number;
  provider: 'github' | 'local' | 'url';
  installation_id: number | null;
  owner: string;
  repo: string;
  url: string;
  auth: GitHostConnection['authentication'];
  branch: string;
  path: string;
  head_commit: string | null;
  connected_by: number | null;
  connected_at: string;
  fetch_interval_seconds: number;
  next_fetch_at: string | null;
  last_fetch_at: string | null;
  last_fetch_error_code: string | null;
  last_fetch_error: string | null;
}

/** Key of a `url` connection's credentials (`{"username","password"}`) in the SecretStore. */
export const credentialsKey = (deploymentId: number): string => `git-remote:${deploymentId}`;

const toConnection = (row: ConnectionRow): GitHostConnection => ({
  deploymentId: row.deployment_id,
  provider: row.provider,
  installationId: row.installation_id,
  owner: row.owner,
  repo: row.repo,
  fullName: `${row.owner}/${row.repo}`,
  url: row.url,
  authentication: row.auth,
  branch: row.branch,
  path: row.path,
  headCommit: row.head_commit,
  connectedBy: row.connected_by,
  connectedAt: row.connected_at,
  fetchIntervalSeconds: row.fetch_interval_seconds,
  nextFetchAt: row.next_fetch_at,
  lastFetchAt: row.last_fetch_at,
  lastFetchError: row.last_fetch_error_code ? { code: row.last_fetch_error_code, message: row.last_fetch_error ?? '' } : null,
});

const rowOf = (ctx: ServiceContext, deploymentId: number): ConnectionRow | undefined =>
  ctx.db.prepare('SELECT * FROM git_host_connections WHERE deployment_id = ?').get(deploymentId) as ConnectionRow | undefined;

/** The repository the deployment is connected to, or null. */
export function getGitHostConnection(ctx: ServiceContext, deploymentId: number): GitHostConnection | null {
  const row = rowOf(ctx, deploymentId);
  return row ? toConnection(row) : null;
}

function requireRow(ctx: ServiceContext, deploymentId: number): ConnectionRow {
  const row = rowOf(ctx, deploymentId);
  if (!row) throw new ApiError(409, UpstreamErrorCodes.UPSTREAM_NOT_CONNECTED, `Deployment ${deploymentId} is not connected to a git repository.`);
  return row;
}

/** `a/./b/` → `a/b`; 400 for absolute paths and `..`. */
function projectPath(path: string | undefined): string {
  if (path === undefined) return '';
  const parts = path.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (path.startsWith('/') || parts.includes('..')) throw invalidField('/body/path', `path must be a folder inside the repository; got "${path}".`);
  return parts.join('/');
}

function checkInterval(seconds: number | undefined): number | undefined {
  if (seconds !== undefined && seconds !== 0 && seconds < MIN_FETCH_INTERVAL_SECONDS) {
    throw invalidField('/body/fetchIntervalSeconds', `Background fetch runs at most every ${MIN_FETCH_INTERVAL_SECONDS} seconds (0 turns it off).`);
  }
  return seconds;
}

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000).toISOString();

/** How git reaches the connected repository now (a GitHub App token is minted per operation). */
async function endpointOf(ctx: ServiceContext, row: ConnectionRow): Promise<RemoteEndpoint> {
  if (row.provider === 'url') {
    const stored = await ctx.secrets.get(credentialsKey(row.deployment_id));
    const credentials = stored ? (JSON.parse(stored) as { username: string; password: string }) : null;
    return { kind: 'http', url: row.url, ...(credentials ?? {}) };
  }
  try {
    const host = row.provider === 'local' ? getLocalGitHost(ctx) : await gitHostFor(ctx);
    return await host.gitRemote({ owner: row.owner, repo: row.repo, installationId: row.installation_id ?? 0, cloneUrl: row.url || null });
  } catch (error) {
    throw gitHostProblem(error);
  }
}

interface Target {
  provider: ConnectionRow['provider'];
  installationId: number | null;
  owner: string;
  repo: string;
  url: string;
  auth: ConnectionRow['auth'];
  endpoint: RemoteEndpoint;
  credentials: { username: string; password: string } | null;
}

async function targetOf(ctx: ServiceContext, input: ConnectGitHostInput): Promise<Target> {
  if (input.url !== undefined) {
    if (input.owner !== undefined || input.repo !== undefined || input.installationId !== undefined) {
      throw invalidField('/body/url', 'Give either a url or owner and repo, not both.');
    }
    const remote = parseRemote({ url: input.url, token: input.token, username: input.username, password: input.password });
    return {
      provider: 'url',
      installationId: null,
      owner: remote.owner,
      repo: remote.repo,
      url: remote.url,
      auth: remote.auth,
      endpoint: { kind: 'http', url: remote.url, ...(remote.credentials ?? {}) },
      credentials: remote.credentials,
    };
  }
  if (input.owner === undefined || input.repo === undefined) throw invalidField('/body/owner', 'Give owner and repo (a repository the app sees), or a url.');
  if (input.token !== undefined || input.username !== undefined || input.password !== undefined) {
    throw invalidField('/body/token', 'Credentials go with a url; a repository of the host app is reached with the app’s own token.');
  }
  const { owner, repo } = input;
  return viaHost(ctx, async (host) => {
    const repository = await host.repository(owner, repo);
    const installationId = await host.installationFor(owner, repo);
    if (!repository || installationId === null) {
      throw new ApiError(404, Codes.GITHOST_NOT_FOUND, `The app cannot see a repository ${owner}/${repo}: install it on that account, or grant it the repository.`);
    }
    if (input.installationId !== undefined && input.installationId !== installationId) {
      throw new ApiError(409, Codes.GITHOST_INSTALLATION_MISMATCH, `Repository ${repository.fullName} belongs to installation ${installationId}, not ${input.installationId}.`);
    }
    const endpoint = await host.gitRemote({ owner: repository.owner, repo: repository.name, installationId, cloneUrl: repository.cloneUrl });
    return {
      provider: host.provider,
      installationId,
      owner: repository.owner,
      repo: repository.name,
      url: host.provider === 'local' ? '' : repository.cloneUrl,
      auth: host.provider === 'local' ? 'local' : 'app',
      endpoint,
      credentials: null,
    };
  });
}

/**
 * Connects a deployment to a repository: checks it with the host (or takes a URL and its
 * credentials), fetches it and takes its branches (see the data-model area's `connectUpstream`),
 * then records the connection and keeps the credentials in the SecretStore. Nothing is stored when
 * the remote refuses; a later connect replaces the earlier one.
 */
export async function connectDeployment(
  ctx: ServiceContext,
  deploymentId: number,
  input: ConnectGitHostInput,
  principal: Principal,
  onConnected: () => void,
): Promise<ConnectGitHostResult> {
  const path = projectPath(input.path);
  const interval = checkInterval(input.fetchIntervalSeconds) ?? rowOf(ctx, deploymentId)?.fetch_interval_seconds ?? DEFAULT_FETCH_INTERVAL_SECONDS;
  const target = await targetOf(ctx, input);
  let row: ConnectionRow | undefined;
  const result = await connectUpstream(ctx, deploymentId, target.endpoint, input.branch, async (connected) => {
    if (target.credentials) await ctx.secrets.set(credentialsKey(deploymentId), JSON.stringify(target.credentials));
    else await ctx.secrets.delete(credentialsKey(deploymentId));
    const now = ctx.clock.now();
    row = ctx.db.transaction(
      () =>
        ctx.db
          .prepare(
            `INSERT INTO git_host_connections (deployment_id, provider, installation_id, owner, repo, url, auth, branch, path, head_commit, connected_by, connected_at,
               fetch_interval_seconds, next_fetch_at, last_fetch_at, last_fetch_error_code, last_fetch_error)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)
             ON CONFLICT (deployment_id) DO UPDATE SET provider = excluded.provider, installation_id = excluded.installation_id, owner = excluded.owner,
               repo = excluded.repo, url = excluded.url, auth = excluded.auth, branch = excluded.branch, path = excluded.path,
               head_commit = excluded.head_commit, connected_by = excluded.connected_by, connected_at = excluded.connected_at,
               fetch_interval_seconds = excluded.fetch_interval_seconds, next_fetch_at = excluded.next_fetch_at, last_fetch_at = excluded.last_fetch_at,
               last_fetch_error_code = NULL, last_fetch_error = NULL
             RETURNING *`,
          )
          .get(
            deploymentId,
            target.provider,
            target.installationId,
            target.owner,
            target.repo,
            target.url,
            target.auth,
            connected.deployUpstream,
            path,
            connected.headCommit,
            principal.userId,
            now.toISOString(),
            interval,
            interval > 0 ? addSeconds(now, interval) : null,
            now.toISOString(),
          ) as ConnectionRow,
    )();
  });
  onConnected();
  return { ...toConnection(row!), branches: result.branches };
}

/** Changes the fetch interval and, for a `url` connection, the credentials (checked first). */
export async function updateConnection(
  ctx: ServiceContext,
  deploymentId: number,
  input: { fetchIntervalSeconds?: number; token?: string; username?: string; password?: string },
  onChanged: () => void,
): Promise<GitHostConnection> {
  const row = requireRow(ctx, deploymentId);
  const interval = checkInterval(input.fetchIntervalSeconds);
  if (input.token !== undefined || input.password !== undefined || input.username !== undefined) {
    if (row.provider !== 'url') throw invalidField('/body/token', 'Only a connection made with a url has credentials of its own; the host app’s token is used otherwise.');
    const remote = parseRemote({ url: row.url, token: input.token, username: input.username, password: input.password });
    await probeUpstream(ctx, deploymentId, { kind: 'http', url: remote.url, ...(remote.credentials ?? {}) });
    if (remote.credentials) await ctx.secrets.set(credentialsKey(deploymentId), JSON.stringify(remote.credentials));
    ctx.db.prepare('UPDATE git_host_connections SET auth = ? WHERE deployment_id = ?').run(remote.auth, deploymentId);
  }
  if (interval !== undefined) {
    const next = interval > 0 ? addSeconds(ctx.clock.now(), interval) : null;
    ctx.db.prepare('UPDATE git_host_connections SET fetch_interval_seconds = ?, next_fetch_at = ? WHERE deployment_id = ?').run(interval, next, deploymentId);
  }
  onChanged();
  return toConnection(requireRow(ctx, deploymentId));
}

/** Forgets the connection and its credentials; every branch and commit of the deployment stays. */
export async function disconnectDeployment(ctx: ServiceContext, deploymentId: number): Promise<{ disconnected: true }> {
  requireRow(ctx, deploymentId);
  await disconnectUpstream(ctx, deploymentId, async () => {
    ctx.db.prepare('DELETE FROM git_host_connections WHERE deployment_id = ?').run(deploymentId);
    await ctx.secrets.delete(credentialsKey(deploymentId));
  });
  return { disconnected: true };
}

/** Lets the data-model area reach the connected repository, and records every fetch's outcome. */
export function setUpConnections(ctx: ServiceContext): void {
  setUpstreamResolver(ctx, async (deploymentId): Promise<UpstreamConnection | null> => {
    const row = rowOf(ctx, deploymentId);
    return row ? { endpoint: await endpointOf(ctx, row), deployUpstream: row.branch } : null;
  });
  onUpstreamFetched(ctx, (deploymentId, { at, error }) => {
    ctx.db
      .prepare('UPDATE git_host_connections SET last_fetch_at = ?, last_fetch_error_code = ?, last_fetch_error = ? WHERE deployment_id = ?')
      .run(at, error?.code ?? null, error?.message ?? null, deploymentId);
    publishEvent(ctx, { type: 'upstream', deploymentId });
  });
  // The row goes with the deployment (foreign key); its credentials live outside SQLite.
  onDeploymentDeleted(ctx, async (deploymentId) => {
    await ctx.secrets.delete(credentialsKey(deploymentId));
  });
}
