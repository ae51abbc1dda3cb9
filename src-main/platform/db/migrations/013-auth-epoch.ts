import type { Migration } from './types';

/** Tables (and the columns of them) a resolved principal is made of: key → user → groups → policies, sessions. */
const WATCHED: { table: string; update: string[] | 'any'; insert: boolean }[] = [
  // A new user or key has no cached principal yet; a settings write changes no principal.
  { table: 'users', update: ['email', 'name', 'role', 'actions', 'active'], insert: false },
  { table: 'api_keys', update: ['key_hash', 'user_id'], insert: false },
  // Issuing a token inserts a session; revoking one sets revoked_at.
  { table: 'sessions', update: ['revoked_at', 'expires_at', 'user_id'], insert: false },
  { table: 'user_groups', update: [], insert: false },
  { table: 'user_group_members', update: 'any', insert: true },
  { table: 'access_policies', update: ['actions'], insert: false },
  { table: 'access_policy_attachments', update: 'any', insert: true },
];

const bump = 'UPDATE auth_epoch SET version = version + 1 WHERE id = 1;';

const triggers = WATCHED.map(({ table, update, insert }) =>
  [
    `CREATE TRIGGER ${table}_auth_epoch_delete AFTER DELETE ON ${table} BEGIN ${bump} END;`,
    insert ? `CREATE TRIGGER ${table}_auth_epoch_insert AFTER INSERT ON ${table} BEGIN ${bump} END;` : '',
    update === 'any'
      ? `CREATE TRIGGER ${table}_auth_epoch_update AFTER UPDATE ON ${table} BEGIN ${bump} END;`
      : update.length > 0
        ? `CREATE TRIGGER ${table}_auth_epoch_update AFTER UPDATE OF ${update.join(', ')} ON ${table} BEGIN ${bump} END;`
        : '',
  ].join('\n'),
).join('\n');

/**
 * The authentication epoch: a counter that every write able to change who a credential is or what
 * it may do bumps, in the same transaction as the write (triggers, so no writer can forget it —
 * revoking a key or token, deactivating a user, changing a role, a policy, a group or an
 * attachment). The service caches resolved principals and drops them when the counter moves, which
 * it reads once per request (see src-main/http/principal-cache.ts).
 */
export const authEpoch: Migration = {
  version: 13,
  name: 'auth-epoch',
  up: `
    CREATE TABLE auth_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
    INSERT INTO auth_epoch (id, version) VALUES (1, 0);
    ${triggers}
  `,
};
