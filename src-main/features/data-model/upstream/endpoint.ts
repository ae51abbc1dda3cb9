import { UpstreamErrorCodes as Codes } from '../../../../src-shared/api/git-host';
import type { ServiceContext } from '../../../context';
import { ApiError } from '../../../http/problem';
import { KeyedMutex, RemoteError, type RemoteEndpoint } from '../../../platform/repo';
import { areaEvent } from '../../area-events';

/**
 * How this area reaches the team's repository. The git-host area owns connections and their
 * credentials; it registers a resolver here (so this area never reads another area's tables or
 * the keychain entries of connections), and hears about fetches through `onUpstreamFetched`.
 */
export interface UpstreamConnection {
  endpoint: RemoteEndpoint;
  /** The remote branch the deploy branch tracks. */
  deployUpstream: string;
}

export type UpstreamResolver = (deploymentId: number) => Promise<UpstreamConnection | null>;
export type FetchListener = (deploymentId: number, outcome: { at: string; error: { code: string; message: string } | null }) => void;

const resolvers = new WeakMap<ServiceContext, UpstreamResolver>();
// The git host area records each fetch; it subscribes when it loads (area-events.ts).
const upstreamFetched = areaEvent<Parameters<FetchListener>>('an upstream fetch listener failed', (deploymentId) => ({ deploymentId }));

/** One remote operation at a time per deployment repository (fetches, pushes, remote deletes). */
export const remoteLocks = new KeyedMutex();

export function setUpstreamResolver(ctx: ServiceContext, resolver: UpstreamResolver): void {
  resolvers.set(ctx, resolver);
}

/** The connected repository, or null when the deployment is not connected. */
export async function resolveUpstream(ctx: ServiceContext, deploymentId: number): Promise<UpstreamConnection | null> {
  const resolver = resolvers.get(ctx);
  return resolver ? resolver(deploymentId) : null;
}

/** The connected repository (409 `UPSTREAM_NOT_CONNECTED` without one). */
export async function requireUpstream(ctx: ServiceContext, deploymentId: number): Promise<UpstreamConnection> {
  const connection = await resolveUpstream(ctx, deploymentId).catch((error: unknown) => upstreamFailure(error));
  if (!connection) {
    throw new ApiError(409, Codes.UPSTREAM_NOT_CONNECTED, `Deployment ${deploymentId} is not connected to a git repository: connect it first (POST git-host/connect).`);
  }
  return connection;
}

export function onUpstreamFetched(ctx: ServiceContext, listener: FetchListener): () => void {
  return upstreamFetched.on(ctx, listener);
}

export function emitUpstreamFetched(ctx: ServiceContext, deploymentId: number, error: { code: string; message: string } | null): void {
  upstreamFetched.emit(ctx, deploymentId, { at: ctx.clock.now().toISOString(), error });
}

const STATUS: Record<RemoteError['code'], number> = {
  UPSTREAM_AUTH_FAILED: 502,
  UPSTREAM_NOT_FOUND: 502,
  UPSTREAM_UNREACHABLE: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_CANCELLED: 409,
  PUSH_REJECTED: 409,
  UPSTREAM_ERROR: 502,
};

/**
 * A remote failure as a problem response. While connecting, refused credentials and a missing
 * repository are the caller's input (422, 404); later they are the remote's answer (502).
 */
export function upstreamProblem(error: unknown, phase: 'connect' | 'later' = 'later'): unknown {
  if (!(error instanceof RemoteError)) return error;
  let status = STATUS[error.code];
  if (phase === 'connect' && error.code === 'UPSTREAM_AUTH_FAILED') status = 422;
  if (phase === 'connect' && error.code === 'UPSTREAM_NOT_FOUND') status = 404;
  return new ApiError(status, error.code, error.message);
}

export function upstreamFailure(error: unknown, phase: 'connect' | 'later' = 'later'): never {
  throw upstreamProblem(error, phase);
}
