/** What other areas may call on OAuth integrations and user connections. */
export { completeUserOAuthAuthorization, getUserAccessToken, pkceChallenge } from './user-tokens';
export { getOidcConfig } from './oidc';
export { registerOAuthRoutes } from './routes';
