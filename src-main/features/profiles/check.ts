import { getMe } from '../../../src-shared/api/identity';
import { listDeployments } from '../../../src-shared/api/deployments';
import { ProfileErrorCodes as Codes, type ProfileConnection } from '../../../src-shared/api/profiles';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import type { ProfileCheck } from '../../platform/profiles';
import { mapProfileErrors, profileStore, toView } from './access';
import { callRemote, openRemote, readBounded, remoteFetch, remoteTimeoutMs, type Remote } from './remote';

interface SpecSummary {
  specTitle: string | null;
  specVersion: string | null;
  apiVersion: string | null;
  operationIds: string[];
}

/** Reads the remote's OpenAPI document (no credential: the spec is public on the platform). */
export async function readRemoteSpec(remote: Remote, signal?: AbortSignal): Promise<SpecSummary> {
  const response = await remoteFetch(remote, `${remote.baseUrl}/api/v1/spec`, {
    method: 'GET',
    headers: { accept: 'application/json', 'user-agent': 'Drydock-profile' },
    signal,
    // The biggest document the remote serves, generated on first request: more time than other calls.
    timeoutMs: remoteTimeoutMs() * 3,
  });
  const notPlatform = (why: string) =>
    new ApiError(502, Codes.PROFILE_NOT_A_PLATFORM, `Profile "${remote.name}" (${remote.baseUrl}) ${why}; is the base URL the service's address?`, {
      profile: remote.name,
    });
  if (!response.ok) {
    await response.body?.cancel();
    throw notPlatform(`answered GET /api/v1/spec with status ${response.status}`);
  }
  let doc: { openapi?: unknown; info?: { title?: unknown; version?: unknown }; paths?: unknown };
  try {
    doc = JSON.parse((await readBounded(remote, response)).toString('utf8')) as typeof doc;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw notPlatform('does not serve an OpenAPI document at /api/v1/spec');
  }
  if (!doc || typeof doc.openapi !== 'string' || typeof doc.paths !== 'object' || doc.paths === null) {
    throw notPlatform('does not serve an OpenAPI document at /api/v1/spec');
  }
  const operationIds = new Set<string>();
  for (const operations of Object.values(doc.paths as Record<string, unknown>)) {
    if (!operations || typeof operations !== 'object') continue;
    for (const operation of Object.values(operations as Record<string, unknown>)) {
      const id = (operation as { operationId?: unknown } | null)?.operationId;
      if (typeof id === 'string' && id.length <= 200) operationIds.add(id);
    }
  }
  return {
    specTitle: typeof doc.info?.title === 'string' ? doc.info.title : null,
    specVersion: typeof doc.info?.version === 'string' ? doc.info.version : null,
    apiVersion: doc.openapi,
    operationIds: [...operationIds].sort(),
  };
}

/**
 * Connects to a profile: reads its spec (what it serves, which version), then makes one
 * authenticated read so a wrong credential shows now rather than on the first screen. The outcome
 * is kept as the profile's `lastCheck`; a failure answers normally with `ok: false` and the reason.
 */
export async function connectProfile(ctx: ServiceContext, name: string): Promise<ProfileConnection> {
  const store = profileStore(ctx);
  await mapProfileErrors(() => store.require(name));
  let spec: SpecSummary = { specTitle: null, specVersion: null, apiVersion: null, operationIds: [] };
  let remoteUser: ProfileConnection['remoteUser'] = null;
  let check: Omit<ProfileCheck, 'checkedAt'>;
  try {
    const remote = await openRemote(ctx, name);
    spec = await readRemoteSpec(remote);
    const served = new Set(spec.operationIds);
    if (served.has(getMe.operationId)) {
      const me = await callRemote(remote, getMe, {});
      remoteUser = { email: me.email ?? null, name: me.name ?? null, role: me.role ?? null };
    } else if (served.has(listDeployments.operationId)) {
      await callRemote(remote, listDeployments, { query: { first: 1 } });
    }
    check = { ok: true, error: null, ...spec };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    check = { ok: false, error: `${error.code}: ${error.detail}`, ...spec };
  }
  const profile = store.recordCheck(name, check);
  return { profile: await toView(ctx, profile), remoteUser };
}
