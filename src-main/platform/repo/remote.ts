import fs from 'node:fs';
import { gitFs, holdRefWrites } from './durable-fs';
import git from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import type { GitHttpRequest, HttpClient } from 'isomorphic-git';
import { copyMissingObjects, deleteLocalBranch, pushLocal } from './local-transport';
import { consolidatePacksWhenMany } from './pack-consolidation';
import { RemoteError } from './remote-error';
import { notifyRefChange } from './repository';

export { RemoteError, type RemoteErrorCode } from './remote-error';

/** Name of the one remote a deployment repository has (its refs live under `refs/remotes/origin/`). */
export const REMOTE = 'origin';
const ZERO = '0'.repeat(40);

/**
 * Where the team's repository is and how to reach it: smart HTTP(S) with optional Basic
 * credentials (a token is a password; GitHub wants the user `x-access-token`), or a bare
 * repository on this disk (the local repository host).
 */
export type RemoteEndpoint =
  | { kind: 'http'; url: string; username?: string; password?: string }
  | { kind: 'local'; gitdir: string; label: string };

export interface RemoteOptions {
  /** Aborts the transfer (cancellation, shutdown). */
  signal?: AbortSignal;
  /** Gives up after this long (default 60 s). */
  timeoutMs?: number;
}

export interface FetchResult {
  /** Every branch of the remote: name → head commit. */
  heads: Map<string, string>;
  /** The branch the remote's HEAD names, when it says. */
  defaultBranch: string | null;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export const labelOf = (endpoint: RemoteEndpoint): string => (endpoint.kind === 'http' ? endpoint.url : endpoint.label);

/** Every value that must never appear in a message: the password and the Basic header made of it. */
function secretsOf(endpoint: RemoteEndpoint): string[] {
  if (endpoint.kind !== 'http' || !endpoint.password) return [];
  const basic = Buffer.from(`${endpoint.username ?? ''}:${endpoint.password}`).toString('base64');
  return [endpoint.password, encodeURIComponent(endpoint.password), basic];
}

/** Replaces every secret in `text` with `***` (also userinfo that slipped into a URL). */
export function redact(text: string, secrets: string[]): string {
  let out = text.replace(/(https?:\/\/)[^/@\s]+@/g, '$1***@');
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join('***');
  return out;
}

/** isomorphic-git's Node HTTP client, with every request bound to the operation's abort signal. */
function httpClient(signal: AbortSignal): HttpClient {
  return { request: (request: GitHttpRequest) => nodeHttp.request({ ...request, signal }) };
}

/**
 * Basic credentials sent with every request of the operation (a token is the password). Sent up
 * front rather than after a 401 challenge: half the round trips, and a refusal is a plain 401.
 * Fresh object per call: isomorphic-git adds its own headers to it.
 */
function authHeaders(endpoint: Extract<RemoteEndpoint, { kind: 'http' }>): { headers: Record<string, string> } {
  if (endpoint.password === undefined && endpoint.username === undefined) return { headers: {} };
  const basic = Buffer.from(`${endpoint.username ?? ''}:${endpoint.password ?? ''}`).toString('base64');
  return { headers: { Authorization: `Basic ${basic}` } };
}

/** Runs a transfer under a deadline and the caller's signal; maps failures to `RemoteError`. */
async function transfer<T>(endpoint: RemoteEndpoint, options: RemoteOptions, what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    signal.throwIfAborted();
    return await fn(signal);
  } catch (error) {
    if (error instanceof RemoteError) throw new RemoteError(error.code, redact(error.message, secretsOf(endpoint)));
    const timedOut = deadline.aborted && !options.signal?.aborted;
    throw toRemoteError(error, endpoint, what, signal.aborted ? (timedOut ? 'timeout' : 'cancelled') : null);
  }
}

function toRemoteError(error: unknown, endpoint: RemoteEndpoint, what: string, aborted: 'timeout' | 'cancelled' | null): RemoteError {
  const where = labelOf(endpoint);
  const e = error as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string; reason?: string; prettyDetails?: string } };
  const clean = (text: string) => redact(text, secretsOf(endpoint));
  if (aborted === 'timeout') return new RemoteError('UPSTREAM_TIMEOUT', `${what} ${where} took too long and was stopped.`);
  if (aborted === 'cancelled') return new RemoteError('UPSTREAM_CANCELLED', `${what} ${where} was cancelled.`);
  switch (e?.code) {
    case 'HttpError': {
      const status = e.data?.statusCode ?? 0;
      if (status === 401 || status === 403) {
        return new RemoteError('UPSTREAM_AUTH_FAILED', `${where} refused the credentials (HTTP ${status}): check the user and token or password.`);
      }
      if (status === 404) return new RemoteError('UPSTREAM_NOT_FOUND', `There is no git repository at ${where} (HTTP 404).`);
      return new RemoteError('UPSTREAM_ERROR', `${where} answered HTTP ${status} ${clean(e.data?.statusMessage ?? '')} to ${what.toLowerCase()}.`);
    }
    case 'UserCanceledError':
      return new RemoteError('UPSTREAM_AUTH_FAILED', `${where} refused the credentials.`);
    case 'SmartHttpError':
      return new RemoteError('UPSTREAM_NOT_FOUND', `${where} did not answer as a git server (smart HTTP); check the repository URL.`);
    case 'PushRejectedError':
      return new RemoteError('PUSH_REJECTED', `${where} has commits this branch does not have (not a fast-forward); pull first, then push.`);
    case 'GitPushError':
      return new RemoteError('PUSH_REJECTED', `${where} refused the push: ${clean((e.data?.prettyDetails ?? '').trim()) || 'no reason given'}.`);
    case 'UrlParseError':
    case 'UnknownTransportError':
      return new RemoteError('UPSTREAM_NOT_FOUND', `"${where}" is not a repository URL this service can reach (http or https).`);
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return new RemoteError('UPSTREAM_UNREACHABLE', `Could not reach ${where} (${e.code}).`);
    default:
      return new RemoteError('UPSTREAM_ERROR', `${what} ${where} failed: ${clean(e?.message ?? String(error))}`);
  }
}

/** Points `remote.origin` at the URL (credentials never go into the config) with the usual refspec. */
async function configureOrigin(gitdir: string, url: string): Promise<void> {
  await git.setConfig({ fs: gitFs, gitdir, path: `remote.${REMOTE}.url`, value: url });
  await git.setConfig({ fs: gitFs, gitdir, path: `remote.${REMOTE}.fetch`, value: `+refs/heads/*:refs/remotes/${REMOTE}/*` });
}

/** Remote-tracking heads (`refs/remotes/origin/*`): branch → commit. */
export async function remoteTrackingHeads(gitdir: string): Promise<Map<string, string>> {
  const heads = new Map<string, string>();
  for (const name of await git.listBranches({ fs: gitFs, gitdir, remote: REMOTE })) {
    // A `.lock` file is a ref being written (or left by a crash), never a branch.
    if (name === 'HEAD' || name.endsWith('.lock')) continue;
    try {
      heads.set(name, await git.resolveRef({ fs: gitFs, gitdir, ref: `refs/remotes/${REMOTE}/${name}` }));
    } catch {
      // A ref deleted between listing and reading: skip it.
    }
  }
  return heads;
}

export async function remoteTrackingHead(gitdir: string, branch: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: gitFs, gitdir, ref: `refs/remotes/${REMOTE}/${branch}` });
  } catch {
    return null;
  }
}

/** Makes `refs/remotes/origin/*` exactly `heads` (the remote's branches after a fetch). */
export async function setRemoteTrackingHeads(gitdir: string, heads: Map<string, string>): Promise<void> {
  for (const name of (await remoteTrackingHeads(gitdir)).keys()) {
    if (!heads.has(name)) await git.deleteRef({ fs: gitFs, gitdir, ref: `refs/remotes/${REMOTE}/${name}` });
  }
  for (const [name, oid] of heads) await git.writeRef({ fs: gitFs, gitdir, ref: `refs/remotes/${REMOTE}/${name}`, value: oid, force: true });
  notifyRefChange({ gitdir, remote: true });
}

/** Forgets every remote-tracking ref (before connecting to another repository). */
export async function clearRemoteTracking(gitdir: string): Promise<void> {
  await setRemoteTrackingHeads(gitdir, new Map());
}

/**
 * Fetches every branch of the remote into `refs/remotes/origin/*` (pruning branches the remote
 * deleted). Local branches are not touched. Objects arrive as a pack (HTTP) or are copied (local).
 */
export async function fetchRemote(gitdir: string, endpoint: RemoteEndpoint, options: RemoteOptions = {}): Promise<FetchResult> {
  return transfer(endpoint, options, 'Fetching from', async (signal) => {
    if (endpoint.kind === 'local') {
      const source = await listLocalHeads(endpoint.gitdir);
      for (const oid of source.heads.values()) {
        signal.throwIfAborted();
        await copyMissingObjects(endpoint.gitdir, gitdir, oid, signal);
      }
      await setRemoteTrackingHeads(gitdir, source.heads);
      return source;
    }
    const http = httpClient(signal);
    await configureOrigin(gitdir, endpoint.url);
    // The remote-tracking refs move only once the pack they need is on disk (see holdRefWrites).
    const held = holdRefWrites(gitdir);
    const fetchAll = (remoteRef?: string) =>
      git.fetch({ fs: held.fs, http, gitdir, url: endpoint.url, remote: REMOTE, tags: false, prune: true, ...(remoteRef ? { remoteRef } : {}), ...authHeaders(endpoint) });
    let result;
    try {
      result = await fetchAll();
    } catch (error) {
      if ((error as { code?: string }).code !== 'NotFoundError') throw error;
      // The remote's HEAD names no branch (e.g. an unborn default branch): name one that exists.
      const refs = await git.listServerRefs({ http, url: endpoint.url, prefix: 'refs/heads/', ...authHeaders(endpoint) });
      result = refs.length > 0 ? await fetchAll(refs[0].ref) : { fetchHead: null, defaultBranch: null };
    }
    await held.release();
    // Each fetch keeps what it brings as a pack of its own: past 50, they become one (as git's gc --auto).
    await consolidatePacksWhenMany(gitdir);
    signal.throwIfAborted();
    // An empty repository sends nothing and prunes nothing: it has no branches.
    if (result.fetchHead === null) await setRemoteTrackingHeads(gitdir, new Map());
    else notifyRefChange({ gitdir, remote: true });
    const heads = await remoteTrackingHeads(gitdir);
    const named = result.defaultBranch?.replace(/^refs\/heads\//, '') ?? null;
    return { heads, defaultBranch: named && heads.has(named) ? named : null };
  });
}

async function listLocalHeads(gitdir: string): Promise<FetchResult> {
  if (!fs.existsSync(gitdir)) throw new RemoteError('UPSTREAM_NOT_FOUND', `The repository ${gitdir} does not exist.`);
  const heads = new Map<string, string>();
  for (const name of await git.listBranches({ fs: gitFs, gitdir })) if (!name.endsWith('.lock')) heads.set(name, await git.resolveRef({ fs: gitFs, gitdir, ref: `refs/heads/${name}` }));
  const current = await git.currentBranch({ fs: gitFs, gitdir, fullname: false }).catch(() => undefined);
  return { heads, defaultBranch: current && heads.has(current) ? current : null };
}

/**
 * Pushes local branch `branch` to remote branch `remoteBranch`, fast-forward only (never forced):
 * the remote must not have commits the branch lacks (`PUSH_REJECTED` otherwise). On success the
 * remote-tracking ref follows. Returns the remote head before the push (null: branch created).
 */
export async function pushBranch(gitdir: string, endpoint: RemoteEndpoint, branch: string, remoteBranch: string, options: RemoteOptions = {}): Promise<{ before: string | null; after: string }> {
  // What the server says on the side band (hook output, protected-branch notices) explains a refusal.
  const said: string[] = [];
  return transfer(endpoint, options, 'Pushing to', async (signal) => {
    const oid = await git.resolveRef({ fs: gitFs, gitdir, ref: `refs/heads/${branch}` });
    if (endpoint.kind === 'local') {
      const before = await pushLocal(gitdir, endpoint.gitdir, oid, remoteBranch, signal);
      await git.writeRef({ fs: gitFs, gitdir, ref: `refs/remotes/${REMOTE}/${remoteBranch}`, value: oid, force: true });
      notifyRefChange({ gitdir, remote: true });
      return { before, after: oid };
    }
    await configureOrigin(gitdir, endpoint.url);
    let before: string | null = null;
    let after = oid;
    const result = await git.push({
      fs: gitFs,
      http: httpClient(signal),
      gitdir,
      url: endpoint.url,
      remote: REMOTE,
      ref: `refs/heads/${branch}`,
      remoteRef: `refs/heads/${remoteBranch}`,
      force: false,
      signal,
      ...authHeaders(endpoint),
      onMessage: (line) => {
        if (line.trim()) said.push(line.trim());
      },
      onPrePush: ({ localRef, remoteRef }) => {
        before = remoteRef.oid === ZERO ? null : remoteRef.oid;
        after = localRef.oid;
        return true;
      },
    });
    if (!result.ok) throw new RemoteError('PUSH_REJECTED', `${endpoint.url} refused the push: ${result.error ?? 'no reason given'}.`);
    notifyRefChange({ gitdir, remote: true });
    return { before, after };
  }).catch((error: unknown) => {
    if (error instanceof RemoteError && error.code === 'PUSH_REJECTED' && said.length > 0) {
      throw new RemoteError(error.code, redact(`${error.message} The server said: ${said.join(' ').slice(0, 500)}`, secretsOf(endpoint)));
    }
    throw error;
  });
}

/**
 * Deletes a remote branch, but only while its head is `expected` (what this service last saw and
 * knows is kept elsewhere): a branch someone pushed to meanwhile is left alone (`PUSH_REJECTED`).
 */
export async function deleteRemoteBranch(gitdir: string, endpoint: RemoteEndpoint, remoteBranch: string, expected: string, options: RemoteOptions = {}): Promise<void> {
  await transfer(endpoint, options, 'Deleting a branch on', async (signal) => {
    if (endpoint.kind === 'local') {
      await deleteLocalBranch(endpoint.gitdir, remoteBranch, expected);
    } else {
      await configureOrigin(gitdir, endpoint.url);
      const gone = new Error('already deleted');
      try {
        const result = await git.push({
          fs: gitFs,
          http: httpClient(signal),
          gitdir,
          url: endpoint.url,
          remote: REMOTE,
          // The remote-tracking ref names what is deleted; the local branch may be gone or named differently.
          ref: `refs/remotes/${REMOTE}/${remoteBranch}`,
          remoteRef: `refs/heads/${remoteBranch}`,
          delete: true,
          signal,
          ...authHeaders(endpoint),
          onPrePush: ({ remoteRef }) => {
            if (remoteRef.oid === ZERO) throw gone;
            if (remoteRef.oid !== expected) throw new RemoteError('PUSH_REJECTED', `Branch "${remoteBranch}" on ${endpoint.url} has commits this service has not fetched; fetch first.`);
            return true;
          },
        });
        if (!result.ok) throw new RemoteError('PUSH_REJECTED', `${endpoint.url} refused to delete "${remoteBranch}": ${result.error ?? 'no reason given'}.`);
      } catch (error) {
        if (error !== gone) throw error;
      }
    }
    await git.deleteRef({ fs: gitFs, gitdir, ref: `refs/remotes/${REMOTE}/${remoteBranch}` }).catch(() => undefined);
  });
}
