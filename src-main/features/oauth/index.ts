/** What other areas may call on OAuth integrations, user connections and OIDC tokens. */
export { completeUserOAuthAuthorization, pkceChallenge } from './authorization';
export { getUserAccessToken, refreshUserToken } from './user-tokens';
export { getOidcConfig } from './oidc';
export { registerOAuthRoutes } from './routes';
