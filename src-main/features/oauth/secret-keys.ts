/**
 * Names of the SecretStore entries of the OAuth area. SQLite keeps only metadata and, per
 * connection, the prefix of its entries (`secret_ref`); the values live in the keychain.
 */

/** Prefix of a user's token entries for one integration. */
export const userTokenRef = (userId: number, integrationId: number): string => `user-oauth:${userId}:${integrationId}`;
export const accessTokenKey = (ref: string): string => `${ref}:access-token`;
export const refreshTokenKey = (ref: string): string => `${ref}:refresh-token`;

/** The PKCE code verifier of an authorization in flight, by the hash of its state. */
export const verifierKey = (stateHash: string): string => `oauth-pkce:${stateHash}`;

/** The private key (a JWK) that signs minted OIDC tokens. */
export const OIDC_SIGNING_KEY = 'oidc-signing-key';
