import { versionOf } from '../../http/preconditions';
import {
  ENV_VAR_NAME_PATTERN,
  MAX_ENV_VARS_PER_DEPLOYMENT,
  type EnvVar,
  type EnvVarInput,
} from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import { ApiError, invalidField } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { appendDeploymentLog } from './logs';

const NAME = new RegExp(ENV_VAR_NAME_PATTERN);
/** Data source names as they appear in CUBEJS_DATASOURCES and in CUBEJS_DS_<NAME>_… variables. */
const DATA_SOURCE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Where a secret env var's value lives in the SecretStore. */
export const envSecretKey = (deploymentId: number, name: string): string => `deployment:${deploymentId}:env:${name}`;

interface EnvRow {
  name: string;
  value: string | null;
  is_secret: number;
  updated_at: string;
}

const toEnvVar = (row: EnvRow): EnvVar =>
  row.is_secret
    ? { name: row.name, isSecret: true, updatedAt: row.updated_at }
    : { name: row.name, value: row.value ?? '', isSecret: false, updatedAt: row.updated_at };

/** One env var as stored: secret values are not here (read them with `readSecretEnvVar`). */
export interface StoredEnvVar {
  name: string;
  isSecret: boolean;
  /** The value of a non-secret variable; null for secrets. */
  value: string | null;
  updatedAt: string;
}

export function readEnvVars(ctx: ServiceContext, deploymentId: number): Map<string, StoredEnvVar> {
  const rows = ctx.db
    .prepare('SELECT name, value, is_secret, updated_at FROM env_vars WHERE deployment_id = ? ORDER BY name')
    .all(deploymentId) as EnvRow[];
  return new Map(
    rows.map((r) => [r.name, { name: r.name, isSecret: r.is_secret === 1, value: r.is_secret ? null : r.value, updatedAt: r.updated_at }]),
  );
}

/** Every env var, secrets without their value, by name. */
export function allEnvVars(ctx: ServiceContext, deploymentId: number): EnvVar[] {
  const rows = ctx.db
    .prepare('SELECT name, value, is_secret, updated_at FROM env_vars WHERE deployment_id = ? ORDER BY name')
    .all(deploymentId) as EnvRow[];
  return rows.map(toEnvVar);
}

/** The version of a deployment's env vars as a whole (names, plain values, secrecy, times; never a secret). */
export function envVarsVersion(ctx: ServiceContext, deploymentId: number): string {
  const rows = ctx.db.prepare('SELECT name, value, is_secret, updated_at FROM env_vars WHERE deployment_id = ? ORDER BY name').all(deploymentId);
  return versionOf(rows);
}

export function listEnvVars(ctx: ServiceContext, deploymentId: number, page: PageRequest): PageResult<EnvVar> {
  const { limit, after } = pageWindow<string>(page);
  if (after !== null && typeof after !== 'string') throw invalidCursor();
  const rows = ctx.db
    .prepare(
      `SELECT name, value, is_secret, updated_at FROM env_vars WHERE deployment_id = ? ${after !== null ? 'AND name > ?' : ''} ORDER BY name LIMIT ?`,
    )
    .all(...(after !== null ? [deploymentId, after, limit] : [deploymentId, limit])) as EnvRow[];
  return toPage(rows, page, (row) => row.name, toEnvVar);
}

const invalidCursor = () =>
  new ApiError(400, 'INVALID_CURSOR', 'The `after` cursor is not one this service issued.', {
    errors: [{ pointer: '/querystring/after', detail: 'malformed cursor' }],
  });

/** The value of a secret env var, from the SecretStore. Only connectors that need it should ask. */
export async function readSecretEnvVar(ctx: ServiceContext, deploymentId: number, name: string): Promise<string | null> {
  return ctx.secrets.get(envSecretKey(deploymentId, name));
}

function validate(inputs: EnvVarInput[], existing: Map<string, StoredEnvVar>): void {
  const seen = new Set<string>();
  inputs.forEach((input, i) => {
    if (!NAME.test(input.name)) {
      throw invalidField(`/body/${i}/name`, `"${input.name}" is not a valid env var name: use upper-case letters, digits and underscores, not starting with a digit.`);
    }
    if (seen.has(input.name)) throw invalidField(`/body/${i}/name`, `${input.name} is named more than once in this request.`);
    seen.add(input.name);
    if (input.name === 'CUBEJS_DATASOURCES' && input.value !== null) {
      const names = input.value.split(',').map((n) => n.trim());
      const bad = names.find((n) => !DATA_SOURCE_NAME.test(n));
      if (bad !== undefined) {
        throw invalidField(`/body/${i}/value`, `CUBEJS_DATASOURCES must be a comma-separated list of data source names (letters, digits, underscores); "${bad}" is not one.`);
      }
      const lower = names.map((n) => n.toLowerCase());
      if (new Set(lower).size !== lower.length) throw invalidField(`/body/${i}/value`, 'CUBEJS_DATASOURCES names a data source twice.');
    }
  });
  const after = new Set(existing.keys());
  for (const input of inputs) {
    if (input.value === null) after.delete(input.name);
    else after.add(input.name);
  }
  if (after.size > MAX_ENV_VARS_PER_DEPLOYMENT) {
    throw new ApiError(400, 'TOO_MANY_ENV_VARS', `A deployment holds at most ${MAX_ENV_VARS_PER_DEPLOYMENT} env vars; this would make ${after.size}.`);
  }
}

/**
 * Creates, replaces (and with `value: null` deletes) the named env vars. Secret values go to the
 * SecretStore and never to SQLite; if the database write fails the previous secrets are restored,
 * so nothing is left half-written.
 */
export async function setEnvVars(ctx: ServiceContext, deploymentId: number, inputs: EnvVarInput[], actor: string): Promise<EnvVar[]> {
  const existing = readEnvVars(ctx, deploymentId);
  validate(inputs, existing);
  const changes = inputs.map((input) => {
    const before = existing.get(input.name);
    const isSecret = input.isSecret ?? before?.isSecret ?? false;
    return { name: input.name, value: input.value, isSecret, wasSecret: before?.isSecret ?? false, existed: before !== undefined };
  });

  const restore = new Map<string, string | null>();
  try {
    for (const change of changes) {
      if (change.value === null || !change.isSecret) continue;
      const key = envSecretKey(deploymentId, change.name);
      if (!restore.has(key)) restore.set(key, await ctx.secrets.get(key));
      await ctx.secrets.set(key, change.value);
    }
    const now = ctx.clock.now().toISOString();
    ctx.db.transaction(() => {
      const upsert = ctx.db.prepare(
        `INSERT INTO env_vars (deployment_id, name, value, is_secret, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (deployment_id, name) DO UPDATE SET value = excluded.value, is_secret = excluded.is_secret, updated_at = excluded.updated_at`,
      );
      const remove = ctx.db.prepare('DELETE FROM env_vars WHERE deployment_id = ? AND name = ?');
      for (const change of changes) {
        if (change.value === null) remove.run(deploymentId, change.name);
        else upsert.run(deploymentId, change.name, change.isSecret ? null : change.value, change.isSecret ? 1 : 0, now);
      }
      appendDeploymentLog(ctx, deploymentId, {
        source: 'production',
        container: 'cubejs-server',
        message: `Env vars changed by ${actor}: ${describeChanges(changes)}. The server picks them up on its next restart.`,
      });
    })();
  } catch (error) {
    for (const [key, previous] of restore) {
      try {
        if (previous === null) await ctx.secrets.delete(key);
        else await ctx.secrets.set(key, previous);
      } catch (restoreError) {
        ctx.log.error('could not restore a secret env var after a failed update', { key, error: String(restoreError) });
      }
    }
    throw error;
  }

  // Secrets no longer needed: deleted variables and variables that stopped being secret.
  for (const change of changes) {
    if (change.wasSecret && (change.value === null || !change.isSecret)) {
      await ctx.secrets.delete(envSecretKey(deploymentId, change.name));
    }
  }
  return allEnvVars(ctx, deploymentId);
}

/** Names only: values (secret or not) never go to the log. */
function describeChanges(changes: { name: string; value: string | null; isSecret: boolean; existed: boolean }[]): string {
  const set = changes.filter((c) => c.value !== null).map((c) => `${c.name}${c.isSecret ? ' (secret)' : ''}`);
  const removed = changes.filter((c) => c.value === null && c.existed).map((c) => c.name);
  const parts: string[] = [];
  if (set.length) parts.push(`set ${set.join(', ')}`);
  if (removed.length) parts.push(`removed ${removed.join(', ')}`);
  return parts.length ? parts.join('; ') : 'nothing';
}

/** The env vars every new deployment starts with: both data sources on the local emulators. */
export const DEFAULT_ENV_VARS: Readonly<Record<string, string>> = {
  CUBEJS_DB_TYPE: 'snowflake',
  CUBEJS_DB_NAME: 'ANALYTICS',
  CUBEJS_DATASOURCES: 'default,lake',
  CUBEJS_DS_LAKE_DB_TYPE: 'databricks-jdbc',
  CUBEJS_DS_LAKE_DB_DATABRICKS_CATALOG: 'main',
};

/** Inserts the default env vars (inside the creating transaction). */
export function insertDefaultEnvVars(ctx: ServiceContext, deploymentId: number, now: string): void {
  const insert = ctx.db.prepare('INSERT INTO env_vars (deployment_id, name, value, is_secret, updated_at) VALUES (?, ?, ?, 0, ?)');
  for (const [name, value] of Object.entries(DEFAULT_ENV_VARS)) insert.run(deploymentId, name, value, now);
}

/** Keys of every secret this deployment's env vars hold in the SecretStore. */
export function secretEnvKeys(ctx: ServiceContext, deploymentId: number): string[] {
  const rows = ctx.db.prepare('SELECT name FROM env_vars WHERE deployment_id = ? AND is_secret = 1').all(deploymentId) as { name: string }[];
  return rows.map((r) => envSecretKey(deploymentId, r.name));
}

/** Time of the latest env var change, or null when none were ever set. */
export function lastEnvVarChange(ctx: ServiceContext, deploymentId: number): string | null {
  const row = ctx.db.prepare('SELECT MAX(updated_at) AS at FROM env_vars WHERE deployment_id = ?').get(deploymentId) as { at: string | null };
  return row.at;
}
