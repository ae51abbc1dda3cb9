// `drydock login --profile NAME --url URL [--key KEY | --token T]`: checks the credential against
// the service, then saves the profile (URL in the data dir's SQLite, credential in the keychain),
// the same profiles the desktop app switches between. Nothing is saved when the check fails.
import { getSpec } from '../../../src-shared/api/system';
import { identityRoutes } from '../../../src-shared/api/identity';
import { deploymentsRoutes } from '../../../src-shared/api/deployments';
import { normalizeBaseUrl, validateProfileName, type ProfileCheck } from '../../platform/profiles';
import { connectTo, type ConnectionOptions } from '../api/connection';
import type { Credential } from '../api/credential';
import { asCliError, openProfiles } from '../api/profiles';
import { CliError, createOutput } from '../output';
import { readSecret } from '../secret-input';

export interface LoginOptions extends ConnectionOptions {
  bearer?: boolean;
  description?: string;
}

/** What the service's OpenAPI document says it serves (as the profiles area records it). */
function specSummary(doc: Record<string, unknown>): Omit<ProfileCheck, 'checkedAt' | 'ok' | 'error'> {
  const info = (doc.info ?? {}) as { title?: unknown; version?: unknown };
  const operationIds = new Set<string>();
  for (const operations of Object.values((doc.paths ?? {}) as Record<string, Record<string, { operationId?: unknown }>>)) {
    for (const operation of Object.values(operations ?? {})) if (typeof operation?.operationId === 'string') operationIds.add(operation.operationId);
  }
  return {
    specTitle: typeof info.title === 'string' ? info.title : null,
    specVersion: typeof info.version === 'string' ? info.version : null,
    apiVersion: typeof doc.openapi === 'string' ? doc.openapi : null,
    operationIds: [...operationIds].sort(),
  };
}

export default async function login(options: LoginOptions): Promise<number> {
  const out = createOutput(Boolean(options.json));
  if (!options.profile) throw new CliError('PROFILE_REQUIRED', 'Name the profile to save: drydock login --profile NAME --url URL.');
  if (!options.url) throw new CliError('URL_REQUIRED', 'Give the service’s base URL: drydock login --profile NAME --url URL.');
  let name: string;
  let baseUrl: string;
  try {
    name = validateProfileName(options.profile);
    baseUrl = normalizeBaseUrl(options.url);
  } catch (error) {
    throw asCliError(error);
  }
  let credential: Credential;
  if (options.key) credential = { kind: 'apiKey', value: options.key };
  else if (options.token) credential = { kind: 'token', value: options.token };
  else {
    const what = options.bearer ? 'Bearer token' : 'API key';
    const value = await readSecret(`${what} for ${name} (${baseUrl}): `);
    if (!value) throw new CliError('CREDENTIAL_REQUIRED', `No ${what.toLowerCase()} given: pass --key or --token, pipe it to stdin, or type it at the prompt.`);
    credential = options.bearer ? { kind: 'token', value } : { kind: 'apiKey', value };
  }

  // Check before saving: the spec says what the service is, an authenticated read that the credential works.
  const conn = connectTo(baseUrl, credential);
  const spec = specSummary((await conn.client.call(getSpec)) as Record<string, unknown>);
  let user: { email: string; name: string; role: string } | null = null;
  if (spec.operationIds.length === 0 || spec.operationIds.includes(identityRoutes.getMe.operationId)) {
    const me = await conn.client.call(identityRoutes.getMe);
    user = { email: me.email, name: me.name, role: me.role };
  } else {
    await conn.client.call(deploymentsRoutes.listDeployments, { query: { first: 1 } });
  }

  const opened = await openProfiles(options.dataDir, options.secrets, out.note);
  try {
    const { profile, created } = await opened.store.upsert({
      name,
      baseUrl,
      credentialKind: credential.kind === 'token' ? 'bearer' : 'api-key',
      credential: credential.value,
      ...(options.description !== undefined ? { description: options.description } : {}),
    });
    const checked = opened.store.recordCheck(name, { ok: true, error: null, ...spec });
    out.result({ profile: { ...checked, lastCheck: checked.lastCheck && { ...checked.lastCheck, operationIds: undefined } }, created, user });
    const who = user ? ` as ${user.email} (${user.role})` : '';
    out.line(`${created ? 'Saved' : 'Updated'} profile ${profile.name} for ${profile.baseUrl}${who}; credential in the ${opened.secrets.backend === 'keychain' ? 'OS keychain' : `file ${opened.dataDir}/secrets.json`}.`);
    out.line(`Use it with: drydock deployments --profile ${profile.name}`);
    return 0;
  } catch (error) {
    throw asCliError(error);
  } finally {
    opened.close();
  }
}
