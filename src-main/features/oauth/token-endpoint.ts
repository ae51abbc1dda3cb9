import { OAuthErrorCodes } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { clientSecretKey, type IntegrationRow } from './integrations';

/** What a token endpoint granted (RFC 6749 §5.1), read defensively. */
export interface GrantedTokens {
  accessToken: string;
  /** null when the provider sent none (on a refresh: keep the one we have). */
  refreshToken: string | null;
  /** Seconds, or null when the provider does not say. */
  expiresIn: number | null;
  /** null when the provider does not say (then the requested scopes were granted, §5.1). */
  scopes: string[] | null;
}

/** Token responses are small; a larger answer is not one. */
const MAX_RESPONSE_BYTES = 256 * 1024;
const TIMEOUT_MS = 15_000;

/** For tests: the HTTP client that reaches token endpoints. */
export type FetchLike = typeof fetch;

async function readCapped(res: Response): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POSTs a grant to the integration's token endpoint (client authentication `client_secret_post`)
 * and reads the answer. Every failure is a 502 problem with a stable code: the endpoint could not be
 * reached, it answered something that is not a JSON token response, or it refused the grant (its
 * `error` and `error_description` are passed on as `providerError` / `providerErrorDescription`).
 */
export async function requestTokens(
  ctx: ServiceContext,
  integration: IntegrationRow,
  grant: Record<string, string>,
  refusal: { code: string; detail: string },
  fetchImpl: FetchLike = fetch,
): Promise<GrantedTokens> {
  const form = new URLSearchParams({ ...grant, client_id: integration.client_id });
  const clientSecret = await ctx.secrets.get(clientSecretKey(integration.id));
  if (clientSecret !== null) form.set('client_secret', clientSecret);
  let res: Response;
  let text: string | null;
  try {
    res = await fetchImpl(integration.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      // A token endpoint answers; it does not send the code (and the client secret) elsewhere.
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = await readCapped(res);
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (error as Error).message;
    throw new ApiError(502, OAuthErrorCodes.TOKEN_ENDPOINT_UNREACHABLE, `The token endpoint of "${integration.name}" could not be reached (${reason}).`);
  }
  const invalid = (why: string) =>
    new ApiError(502, OAuthErrorCodes.TOKEN_RESPONSE_INVALID, `The token endpoint of "${integration.name}" answered HTTP ${res.status} ${why}.`, {
      providerStatus: res.status,
    });
  if (text === null) throw invalid(`with more than ${MAX_RESPONSE_BYTES / 1024} KiB`);
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    body = parsed as Record<string, unknown>;
  } catch {
    throw invalid(`with ${res.headers.get('content-type') ?? 'no content type'}, not a JSON token response`);
  }
  if (!res.ok || typeof body.error === 'string') {
    const providerError = typeof body.error === 'string' ? body.error.slice(0, 256) : null;
    const description = typeof body.error_description === 'string' ? body.error_description.slice(0, 1024) : null;
    const reason = providerError ? `${providerError}${description ? `: ${description}` : ''}` : `HTTP ${res.status}`;
    throw new ApiError(502, refusal.code, `${refusal.detail} (${reason}).`, {
      providerStatus: res.status,
      providerError,
      providerErrorDescription: description,
    });
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') throw invalid('without an access_token');
  // Drydock sends access tokens as bearer tokens (RFC 6750) and must not use a token of a type it
  // does not understand (RFC 6749 §7.1); the type is case-insensitive (§5.1). A response that leaves
  // `token_type` out is taken as bearer, as several providers omit it.
  if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') {
    throw invalid(`with token_type "${body.token_type.slice(0, 64)}", not a bearer token`);
  }
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : typeof body.expires_in === 'string' ? Number(body.expires_in) : NaN;
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null,
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : null,
  };
}
