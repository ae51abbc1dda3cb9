import type { Migration } from './types';

/**
 * The user OAuth authorization-code flow end to end. An authorization in flight remembers the
 * redirect URI it was started with (the token request must repeat it, and the service's own
 * loopback callback follows the port it serves on) and when its state was used: a used state is
 * kept until it expires so a replay is told apart from a state that never existed. A connection
 * names the SecretStore entries holding its tokens (`secret_ref`, never the tokens) and when they
 * were last refreshed.
 */
export const oauthFlow: Migration = {
  version: 15,
  name: 'oauth-flow',
  up: `
    ALTER TABLE oauth_authorizations ADD COLUMN redirect_uri TEXT;
    ALTER TABLE oauth_authorizations ADD COLUMN used_at TEXT;
    ALTER TABLE user_oauth_tokens ADD COLUMN secret_ref TEXT;
    ALTER TABLE user_oauth_tokens ADD COLUMN refreshed_at TEXT;
  `,
};
