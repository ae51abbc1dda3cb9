import { OAUTH_CALLBACK_PATH, type OAuthIntegration } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { conflict, invalidField, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';

export interface IntegrationRow {
  id: number;
  name: string;
  provider: string;
  client_id: string;
  authorization_url: string;
  token_url: string;
  redirect_uri: string;
  scopes: string;
  created_at: string;
  updated_at: string;
}

export const OAUTH_INTEGRATION_NOT_FOUND = 'OAUTH_INTEGRATION_NOT_FOUND';

/** Where an integration's client secret lives in the SecretStore. */
export const clientSecretKey = (integrationId: number): string => `oauth-integration:${integrationId}:client-secret`;

export function integrationRow(ctx: ServiceContext, id: number): IntegrationRow {
  const row = ctx.db.prepare('SELECT * FROM oauth_integrations WHERE id = ?').get(id) as IntegrationRow | undefined;
  if (!row) throw notFound(`OAuth integration ${id}`, OAUTH_INTEGRATION_NOT_FOUND);
  return row;
}

async function toIntegration(ctx: ServiceContext, row: IntegrationRow): Promise<OAuthIntegration> {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider,
    clientId: row.client_id,
    authorizationUrl: row.authorization_url,
    tokenUrl: row.token_url,
    redirectUri: row.redirect_uri,
    scopes: JSON.parse(row.scopes) as string[],
    hasClientSecret: (await ctx.secrets.get(clientSecretKey(row.id))) !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Endpoints of an authorization server must be https; plain http only on this machine (local providers, tests). */
function assertEndpoint(url: string | undefined, pointer: string): void {
  if (url === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidField(pointer, 'is not a URL');
  }
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return;
  throw invalidField(pointer, 'must be an https URL (http is allowed only for localhost)');
}

export interface IntegrationInput {
  name?: string;
  provider?: string;
  clientId?: string;
  clientSecret?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  redirectUri?: string;
  scopes?: string[];
}

function assertInput(input: IntegrationInput): void {
  assertEndpoint(input.authorizationUrl, '/body/authorizationUrl');
  assertEndpoint(input.tokenUrl, '/body/tokenUrl');
  assertEndpoint(input.redirectUri, '/body/redirectUri');
}

function assertNameFree(ctx: ServiceContext, name: string | undefined, exceptId: number): void {
  if (name === undefined) return;
  const row = ctx.db.prepare('SELECT id FROM oauth_integrations WHERE name = ? AND id != ?').get(name, exceptId);
  if (row) throw conflict('OAUTH_INTEGRATION_NAME_TAKEN', `An OAuth integration named "${name}" already exists.`);
}

export async function listIntegrations(ctx: ServiceContext, page: PageRequest): Promise<PageResult<OAuthIntegration>> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db.prepare('SELECT * FROM oauth_integrations WHERE id > ? ORDER BY id LIMIT ?').all(after ?? 0, limit) as IntegrationRow[];
  const result = toPage(rows, page, (r) => r.id, (r) => r);
  return { items: await Promise.all(result.items.map((r) => toIntegration(ctx, r))), pageInfo: result.pageInfo };
}

export const getIntegration = (ctx: ServiceContext, id: number): Promise<OAuthIntegration> => toIntegration(ctx, integrationRow(ctx, id));

/** This service's own callback on the port it serves on: the redirect URI of an integration that names none. */
export const ownCallbackUri = (servicePort: number): string => `http://127.0.0.1:${servicePort}${OAUTH_CALLBACK_PATH}`;

/** The row is written first and removed again if the secret cannot be stored: nothing half-written. */
export async function createIntegration(
  ctx: ServiceContext,
  fields: Required<Omit<IntegrationInput, 'scopes' | 'redirectUri'>> & { scopes?: string[]; redirectUri?: string },
  servicePort: number,
): Promise<OAuthIntegration> {
  const input = { ...fields, redirectUri: fields.redirectUri ?? ownCallbackUri(servicePort) };
  assertInput(input);
  const id = ctx.db.transaction(() => {
    assertNameFree(ctx, input.name, 0);
    const now = ctx.clock.now().toISOString();
    return Number(
      ctx.db
        .prepare(
          `INSERT INTO oauth_integrations (name, provider, client_id, authorization_url, token_url, redirect_uri, scopes, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(input.name, input.provider, input.clientId, input.authorizationUrl, input.tokenUrl, input.redirectUri, JSON.stringify(input.scopes ?? []), now, now)
        .lastInsertRowid,
    );
  })();
  try {
    await ctx.secrets.set(clientSecretKey(id), input.clientSecret);
  } catch (error) {
    ctx.db.prepare('DELETE FROM oauth_integrations WHERE id = ?').run(id);
    throw error;
  }
  return getIntegration(ctx, id);
}

/** A new client secret is stored before the row changes and put back if the row cannot be written. */
export async function updateIntegration(ctx: ServiceContext, id: number, input: IntegrationInput): Promise<OAuthIntegration> {
  integrationRow(ctx, id);
  assertInput(input);
  assertNameFree(ctx, input.name, id);
  const previousSecret = input.clientSecret !== undefined ? await ctx.secrets.get(clientSecretKey(id)) : null;
  if (input.clientSecret !== undefined) await ctx.secrets.set(clientSecretKey(id), input.clientSecret);
  try {
    ctx.db.transaction(() => {
      const row = integrationRow(ctx, id);
      assertNameFree(ctx, input.name, id);
      ctx.db
        .prepare(
          `UPDATE oauth_integrations SET name = ?, provider = ?, client_id = ?, authorization_url = ?, token_url = ?, redirect_uri = ?,
             scopes = ?, updated_at = ? WHERE id = ?`,
        )
        .run(
          input.name ?? row.name,
          input.provider ?? row.provider,
          input.clientId ?? row.client_id,
          input.authorizationUrl ?? row.authorization_url,
          input.tokenUrl ?? row.token_url,
          input.redirectUri ?? row.redirect_uri,
          input.scopes ? JSON.stringify(input.scopes) : row.scopes,
          ctx.clock.now().toISOString(),
          id,
        );
    })();
  } catch (error) {
    if (input.clientSecret !== undefined) {
      if (previousSecret === null) await ctx.secrets.delete(clientSecretKey(id));
      else await ctx.secrets.set(clientSecretKey(id), previousSecret);
    }
    throw error;
  }
  return getIntegration(ctx, id);
}
