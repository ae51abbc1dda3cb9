import type { Migration } from './types';

/**
 * Account-level administration: groups and policies (their actions feed each member's access),
 * user attributes and their values, OAuth integrations and per-user OAuth connections, OIDC token
 * configs, and embedding (embed tenant profiles, embed users and groups, embed sessions, signed
 * embedding per dashboard, dashboard comments). Client secrets, OAuth tokens and PKCE verifiers
 * live in the SecretStore, never here.
 */
export const admin: Migration = {
  version: 8,
  name: 'admin',
  up: `
    CREATE TABLE user_groups (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      description TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE user_group_members (
      group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      PRIMARY KEY (group_id, user_id)
    );
    CREATE INDEX user_group_members_by_user ON user_group_members(user_id);

    -- actions: JSON array of policy action names (SchemaUpdate, DownloadData…).
    CREATE TABLE access_policies (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      description TEXT,
      actions TEXT NOT NULL DEFAULT '[]',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    -- A policy attaches to a group or to a user, never both in one row.
    CREATE TABLE access_policy_attachments (
      policy_id INTEGER NOT NULL REFERENCES access_policies(id) ON DELETE CASCADE,
      group_id INTEGER REFERENCES user_groups(id) ON DELETE CASCADE,
      user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
      CHECK ((group_id IS NULL) <> (user_id IS NULL))
    );
    CREATE UNIQUE INDEX access_policy_attachments_group ON access_policy_attachments(policy_id, group_id) WHERE group_id IS NOT NULL;
    CREATE UNIQUE INDEX access_policy_attachments_user ON access_policy_attachments(policy_id, user_id) WHERE user_id IS NOT NULL;
    CREATE INDEX access_policy_attachments_by_group ON access_policy_attachments(group_id);
    CREATE INDEX access_policy_attachments_by_user ON access_policy_attachments(user_id);

    -- default_value and value: JSON of the attribute's type.
    CREATE TABLE user_attributes (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      display_name TEXT,
      type TEXT NOT NULL CHECK (type IN ('string', 'number', 'boolean', 'string_array', 'number_array')),
      description TEXT,
      default_value TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE user_attribute_values (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      attribute_id INTEGER NOT NULL REFERENCES user_attributes(id) ON DELETE CASCADE,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (user_id, attribute_id)
    );
    CREATE INDEX user_attribute_values_by_attribute ON user_attribute_values(attribute_id);

    CREATE TABLE oauth_integrations (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      provider TEXT NOT NULL,
      client_id TEXT NOT NULL,
      authorization_url TEXT NOT NULL,
      token_url TEXT NOT NULL,
      redirect_uri TEXT NOT NULL,
      scopes TEXT NOT NULL DEFAULT '[]',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    -- A user's connection to an integration; the tokens themselves are in the SecretStore.
    CREATE TABLE user_oauth_tokens (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      integration_id INTEGER NOT NULL REFERENCES oauth_integrations(id) ON DELETE CASCADE,
      scopes TEXT NOT NULL DEFAULT '[]',
      has_refresh_token INTEGER NOT NULL DEFAULT 0,
      connected_at TEXT NOT NULL,
      expires_at TEXT,
      PRIMARY KEY (user_id, integration_id)
    );
    -- An authorization in flight: state (hashed) → who started it; the PKCE verifier is in the SecretStore.
    CREATE TABLE oauth_authorizations (
      state_hash TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      integration_id INTEGER NOT NULL REFERENCES oauth_integrations(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );

    CREATE TABLE oidc_token_configs (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      description TEXT,
      audience TEXT NOT NULL,
      subject_claim TEXT NOT NULL CHECK (subject_claim IN ('email', 'userId')),
      attribute_claims TEXT NOT NULL DEFAULT '[]',
      ttl_seconds INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );

    -- What the embedding app says about a tenant (display name, settings), beside embed_tenants.
    CREATE TABLE embed_tenant_profiles (
      tenant_name TEXT PRIMARY KEY REFERENCES embed_tenants(name) ON DELETE CASCADE,
      display_name TEXT,
      settings TEXT NOT NULL DEFAULT '{}',
      updated_at TEXT NOT NULL
    );
    CREATE TABLE embed_users (
      id INTEGER PRIMARY KEY,
      tenant_name TEXT NOT NULL REFERENCES embed_tenants(name) ON DELETE CASCADE,
      external_id TEXT NOT NULL,
      email TEXT,
      name TEXT,
      created_at TEXT NOT NULL,
      last_session_at TEXT,
      UNIQUE (tenant_name, external_id)
    );
    CREATE TABLE embed_groups (
      id INTEGER PRIMARY KEY,
      tenant_name TEXT NOT NULL REFERENCES embed_tenants(name) ON DELETE CASCADE,
      name TEXT NOT NULL COLLATE NOCASE,
      description TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (tenant_name, name)
    );
    CREATE TABLE embed_group_members (
      group_id INTEGER NOT NULL REFERENCES embed_groups(id) ON DELETE CASCADE,
      embed_user_id INTEGER NOT NULL REFERENCES embed_users(id) ON DELETE CASCADE,
      PRIMARY KEY (group_id, embed_user_id)
    );
    CREATE INDEX embed_group_members_by_user ON embed_group_members(embed_user_id);

    -- One embed session: the session id (stored hashed) is exchanged once for a token whose sid is token_sid.
    CREATE TABLE embed_sessions (
      session_hash TEXT PRIMARY KEY,
      tenant_name TEXT NOT NULL REFERENCES embed_tenants(name) ON DELETE CASCADE,
      embed_user_id INTEGER NOT NULL REFERENCES embed_users(id) ON DELETE CASCADE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      branch TEXT NOT NULL,
      settings TEXT NOT NULL,
      group_names TEXT NOT NULL DEFAULT '[]',
      status TEXT NOT NULL CHECK (status IN ('unexchanged', 'exchanged', 'revoked')),
      token_sid TEXT,
      created_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      exchanged_at TEXT,
      token_expires_at TEXT,
      revoked_at TEXT
    );
    CREATE INDEX embed_sessions_by_tenant ON embed_sessions(tenant_name, status);

    CREATE TABLE embed_dashboards (
      workbook_id INTEGER PRIMARY KEY REFERENCES workbooks(id) ON DELETE CASCADE,
      signed_embedding_enabled INTEGER NOT NULL DEFAULT 0,
      updated_by_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      updated_at TEXT NOT NULL
    );

    -- Comments are scoped to one embed tenant: other tenants never see them.
    CREATE TABLE embed_dashboard_comments (
      id INTEGER PRIMARY KEY,
      workbook_id INTEGER NOT NULL REFERENCES workbooks(id) ON DELETE CASCADE,
      tenant_name TEXT NOT NULL REFERENCES embed_tenants(name) ON DELETE CASCADE,
      author_embed_user_id INTEGER NOT NULL REFERENCES embed_users(id) ON DELETE CASCADE,
      body TEXT NOT NULL,
      widget_id TEXT,
      mentions TEXT NOT NULL DEFAULT '[]',
      resolved_at TEXT,
      resolved_by_embed_user_id INTEGER REFERENCES embed_users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX embed_dashboard_comments_by_dashboard ON embed_dashboard_comments(workbook_id, tenant_name, id);
  `,
};
