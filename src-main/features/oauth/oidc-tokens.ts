import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { OIDC_ISSUER_PATH, OIDC_JWKS_PATH } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { getUserRow } from '../identity';
import { attributeValuesByName } from '../user-attributes';
import { getOidcConfig, REGISTERED_CLAIMS } from './oidc';
import { OIDC_SIGNING_KEY } from './secret-keys';

/** RS256: the algorithm every relying party (warehouses' external OAuth, cloud federation) accepts. */
export const OIDC_ALGORITHM = 'RS256';


/** The public half as published in the key set. */
interface PublicJwk {
  kty: string;
  kid: string;
  alg: string;
  use: string;
  n: string;
  e: string;
}

interface SigningKey {
  privateKey: CryptoKey | Uint8Array;
  publicJwk: PublicJwk;
}

const keys = new WeakMap<ServiceContext, Promise<SigningKey>>();

/**
 * The key pair that signs minted tokens: created on first use, the private half kept in the
 * SecretStore (keychain) as a JWK, so tokens minted before a restart still verify after it.
 */
function signingKey(ctx: ServiceContext): Promise<SigningKey> {
  let key = keys.get(ctx);
  if (!key) {
    key = loadOrCreateKey(ctx);
    keys.set(ctx, key);
    key.catch(() => keys.delete(ctx));
  }
  return key;
}

async function loadOrCreateKey(ctx: ServiceContext): Promise<SigningKey> {
  const stored = await ctx.secrets.get(OIDC_SIGNING_KEY);
  let privateJwk: JWK;
  if (stored !== null) privateJwk = JSON.parse(stored) as JWK;
  else {
    const pair = await generateKeyPair(OIDC_ALGORITHM, { modulusLength: 2048, extractable: true });
    privateJwk = await exportJWK(pair.privateKey);
    privateJwk.kid = await calculateJwkThumbprint(privateJwk);
    await ctx.secrets.set(OIDC_SIGNING_KEY, JSON.stringify(privateJwk));
  }
  const { kty, n, e, kid } = privateJwk;
  if (kty !== 'RSA' || !n || !e || !kid) throw new Error('The stored OIDC signing key is not an RSA key with an id.');
  return {
    privateKey: await importJWK({ ...privateJwk, alg: OIDC_ALGORITHM }, OIDC_ALGORITHM),
    publicJwk: { kty, n, e, kid, alg: OIDC_ALGORITHM, use: 'sig' },
  };
}

/** The issuer of minted tokens: this service's loopback origin and the issuer path. */
export const oidcIssuer = (servicePort: number): string => `http://127.0.0.1:${servicePort}${OIDC_ISSUER_PATH}`;

export async function oidcJwks(ctx: ServiceContext): Promise<{ keys: PublicJwk[] }> {
  return { keys: [(await signingKey(ctx)).publicJwk] };
}

export function oidcDiscovery(servicePort: number) {
  return {
    issuer: oidcIssuer(servicePort),
    jwks_uri: `http://127.0.0.1:${servicePort}${OIDC_JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [OIDC_ALGORITHM],
    claims_supported: [...REGISTERED_CLAIMS],
  };
}

/**
 * Mints a token for a user under an OIDC token config: `aud` the config's audience, `sub` the
 * user's email or id, `exp` the config's lifetime, plus the user's values of the config's attribute
 * claims (attributes the user has no value for are left out).
 */
export async function mintOidcToken(ctx: ServiceContext, configId: number, userId: number, servicePort: number) {
  const config = getOidcConfig(ctx, configId);
  const user = getUserRow(ctx, userId);
  const values = attributeValuesByName(ctx, userId);
  const byLowerName = new Map(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  const claims: Record<string, unknown> = {};
  for (const name of config.attributeClaims) {
    const value = byLowerName.get(name.toLowerCase());
    if (value !== undefined && value !== null && !REGISTERED_CLAIMS.has(name)) claims[name] = value;
  }
  const { privateKey, publicJwk } = await signingKey(ctx);
  const issuer = oidcIssuer(servicePort);
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const exp = now + config.ttlSeconds;
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: OIDC_ALGORITHM, typ: 'JWT', kid: publicJwk.kid })
    .setIssuer(issuer)
    .setSubject(config.subjectClaim === 'email' ? user.email : String(user.id))
    .setAudience(config.audience)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(privateKey);
  return {
    token,
    tokenType: 'Bearer' as const,
    expiresAt: new Date(exp * 1000).toISOString(),
    issuer,
    audience: config.audience,
    jwksUri: `http://127.0.0.1:${servicePort}${OIDC_JWKS_PATH}`,
  };
}
