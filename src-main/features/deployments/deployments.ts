import {
  CREATION_STEPS,
  type CloudProvider,
  type CreateDeploymentInput,
  type CreationMethod,
  type CreationStepState,
  type DeployMode,
  type Deployment,
  type ReleaseChannel,
  type StorageProvider,
  type StorageProviderType,
  type UpdateDeploymentInput,
} from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, conflict, invalidField, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { creationStepState, defaultRegion, isRegionOf, isVersionOf, latestVersion, RELEASE_VERSIONS } from './catalog';
import { insertDefaultEnvVars, secretEnvKeys } from './env-vars';
import { appendDeploymentLog } from './logs';
import { everyAreaLoaded } from '../area-events';

type TemplateValue = string | number | boolean;

interface DeploymentRow {
  id: number;
  name: string;
  cloud_provider: CloudProvider;
  creation_method: CreationMethod;
  deploy_mode: DeployMode;
  region: string | null;
  release_channel: ReleaseChannel;
  release_channel_version: string | null;
  release_channel_version_hold: number;
  template: string | null;
  template_variables: string;
  default_launchpad_view_group: string | null;
  launchpad_tabs: string | null;
  storage_provider: string;
  deploy_branch: string;
  creation_step: number;
  settings: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** Deployment-level switches kept in the `settings` JSON column. */
interface DeploymentSwitches {
  sqlRunnerDdlEnabled: boolean;
}

const DEFAULT_SWITCHES: DeploymentSwitches = { sqlRunnerDdlEnabled: true };

/** Where a deployment's storage credentials live in the SecretStore. */
export const storageSecretKey = (deploymentId: number): string => `deployment:${deploymentId}:storage:credentials`;

/** How a principal is named in log lines (never a credential). */
export function actorLabel(principal: Principal): string {
  if (principal.email) return principal.email;
  if (principal.userId !== null) return `user ${principal.userId}`;
  return principal.via;
}

function loadRow(ctx: ServiceContext, deploymentId: number): DeploymentRow {
  const row = ctx.db.prepare('SELECT * FROM deployments WHERE id = ?').get(deploymentId) as DeploymentRow | undefined;
  if (!row) throw notFound(`Deployment ${deploymentId}`);
  return row;
}

const switchesOf = (row: DeploymentRow): DeploymentSwitches => ({ ...DEFAULT_SWITCHES, ...(JSON.parse(row.settings) as Partial<DeploymentSwitches>) });

const effectiveVersion = (row: Pick<DeploymentRow, 'release_channel' | 'release_channel_version'>): string =>
  row.release_channel_version ?? latestVersion(row.release_channel);

function toDeployment(row: DeploymentRow): Deployment {
  return {
    id: row.id,
    name: row.name,
    cloudProvider: row.cloud_provider,
    region: row.region ?? defaultRegion(row.cloud_provider),
    creationMethod: row.creation_method,
    deployMode: row.deploy_mode,
    releaseChannel: row.release_channel,
    releaseChannelVersion: row.release_channel_version,
    releaseChannelVersionHold: row.release_channel_version_hold === 1,
    currentVersion: effectiveVersion(row),
    template: row.template,
    templateVariables: JSON.parse(row.template_variables) as Record<string, TemplateValue>,
    defaultLaunchpadViewGroup: row.default_launchpad_view_group,
    launchpadTabs: row.launchpad_tabs === null ? null : (JSON.parse(row.launchpad_tabs) as string[]),
    storageProvider: JSON.parse(row.storage_provider) as StorageProvider,
    deployBranch: row.deploy_branch,
    sqlRunnerDdlEnabled: switchesOf(row).sqlRunnerDdlEnabled,
    creationStep: creationStepState(row.creation_step),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function getDeployment(ctx: ServiceContext, deploymentId: number): Deployment {
  return toDeployment(loadRow(ctx, deploymentId));
}

/** The branch production deploys from (default `main`). 404 for an unknown deployment. */
export function getDeployBranch(ctx: ServiceContext, deploymentId: number): string {
  const row = ctx.db.prepare('SELECT deploy_branch FROM deployments WHERE id = ?').get(deploymentId) as { deploy_branch: string } | undefined;
  if (!row) throw notFound(`Deployment ${deploymentId}`);
  return row.deploy_branch;
}

/** "DDL operations enabled in the deployment configuration" (setting `sqlRunnerDdlEnabled`, default true). */
export function isDdlEnabled(ctx: ServiceContext, deploymentId: number): boolean {
  return switchesOf(loadRow(ctx, deploymentId)).sqlRunnerDdlEnabled;
}

/** The version the deployment runs (pinned, else its channel's latest). */
export function getCurrentVersion(ctx: ServiceContext, deploymentId: number): string {
  return effectiveVersion(loadRow(ctx, deploymentId));
}

/** Deployments by id; a deployment token sees only its own deployment. */
export function listDeployments(ctx: ServiceContext, page: PageRequest, onlyDeploymentId: number | null): PageResult<Deployment> {
  const { limit, after } = pageWindow<number>(page);
  if (after !== null && !Number.isInteger(after)) {
    throw new ApiError(400, 'INVALID_CURSOR', 'The `after` cursor is not one this service issued.');
  }
  const rows = ctx.db
    .prepare('SELECT * FROM deployments WHERE id > ? AND (? IS NULL OR id = ?) ORDER BY id LIMIT ?')
    .all(after ?? 0, onlyDeploymentId, onlyDeploymentId, limit) as DeploymentRow[];
  return toPage(rows, page, (row) => row.id, toDeployment);
}

function validateStorage(input: CreateDeploymentInput['storageProvider']): void {
  const cloudBucket: StorageProviderType[] = ['s3', 'gcs', 'azure-blob'];
  if (cloudBucket.includes(input.type) && !input.bucket) {
    throw invalidField('/body/storageProvider/bucket', `A ${input.type} storage provider needs a bucket.`);
  }
  if (input.type === 'local') {
    for (const field of ['bucket', 'region', 'prefix', 'credentials'] as const) {
      if (input[field] !== undefined) {
        throw invalidField(`/body/storageProvider/${field}`, 'The local storage provider keeps artifacts in the data directory and takes no other settings.');
      }
    }
  }
}

/**
 * Creates a deployment with its production environment on the deploy branch and the default env
 * vars (both data sources on the local emulators). Storage credentials go to the SecretStore.
 */
export async function createDeployment(ctx: ServiceContext, input: CreateDeploymentInput, principal: Principal): Promise<Deployment> {
  const name = input.name.trim();
  if (input.region !== undefined && !isRegionOf(input.cloudProvider, input.region)) {
    throw invalidField('/body/region', `"${input.region}" is not a ${input.cloudProvider} region; see GET /api/v1/regions/?cloudProvider=${input.cloudProvider}.`);
  }
  validateStorage(input.storageProvider);
  const region = input.region ?? defaultRegion(input.cloudProvider);
  const releaseChannel = input.releaseChannel ?? 'stable';
  const storage: StorageProvider = {
    type: input.storageProvider.type,
    bucket: input.storageProvider.bucket ?? null,
    region: input.storageProvider.region ?? null,
    prefix: input.storageProvider.prefix ?? null,
    credentialsConfigured: input.storageProvider.credentials !== undefined && Object.keys(input.storageProvider.credentials).length > 0,
  };
  const now = ctx.clock.now().toISOString();
  const deployBranch = 'main';
  // Every area that hooks into a new deployment (its production environment) is listening first.
  await everyAreaLoaded(ctx);

  const id = ctx.db.transaction(() => {
    const result = ctx.db
      .prepare(
        `INSERT INTO deployments (name, cloud_provider, creation_method, deploy_mode, region, release_channel, template, template_variables,
           storage_provider, deploy_branch, creation_step, settings, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
      )
      .run(
        name,
        input.cloudProvider,
        input.creationMethod,
        input.deployMode,
        region,
        releaseChannel,
        input.template ?? null,
        JSON.stringify(input.templateVariables ?? {}),
        JSON.stringify(storage),
        deployBranch,
        JSON.stringify(DEFAULT_SWITCHES),
        principal.userId,
        now,
        now,
      );
    const deploymentId = Number(result.lastInsertRowid);
    insertDefaultEnvVars(ctx, deploymentId, now);
    const log = (message: string) => appendDeploymentLog(ctx, deploymentId, { source: 'production', container: 'INIT', message });
    log(
      `Deployment "${name}" created by ${actorLabel(principal)}: ${input.cloudProvider} ${region}, creation method ${input.creationMethod}, ` +
        `deploy mode ${input.deployMode}, release channel ${releaseChannel} (${latestVersion(releaseChannel)}), storage ${storage.type}` +
        (storage.bucket ? ` bucket ${storage.bucket}` : ''),
    );
    for (const hook of hooksOf<DeploymentCreatedHook>(ctx, CREATED_HOOKS)) {
      const line = hook(deploymentId, deployBranch);
      if (line) log(line);
    }
    log('Default data sources configured: default (snowflake, local emulator), lake (databricks-jdbc, local emulator).');
    return deploymentId;
  })();

  if (storage.credentialsConfigured) {
    try {
      await ctx.secrets.set(storageSecretKey(id), JSON.stringify(input.storageProvider.credentials));
    } catch (error) {
      // Nothing half-written: without its credentials the deployment is not created.
      ctx.db.transaction(() => ctx.db.prepare('DELETE FROM deployments WHERE id = ?').run(id))();
      throw error;
    }
  }
  return getDeployment(ctx, id);
}

/** The storage credentials of a deployment, for the code that uploads artifacts. Never return them to a client. */
export async function getStorageCredentials(ctx: ServiceContext, deploymentId: number): Promise<Record<string, string> | null> {
  const raw = await ctx.secrets.get(storageSecretKey(deploymentId));
  return raw === null ? null : (JSON.parse(raw) as Record<string, string>);
}

const show = (value: unknown): string => (value === null || value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Partial merge: only fields present in `input` change; `templateVariables` merges key by key (a
 * null value removes the key). `releaseChannelVersion` must be one of the versions of the
 * resulting channel.
 */
export function updateDeployment(ctx: ServiceContext, deploymentId: number, input: UpdateDeploymentInput, principal: Principal): Deployment {
  const row = loadRow(ctx, deploymentId);
  const next: DeploymentRow = { ...row };
  const changes: string[] = [];
  const note = (field: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.push(`${field} ${show(before)} → ${show(after)}`);
  };

  if (input.name !== undefined) next.name = input.name.trim();

  if (input.cloudProvider !== undefined) next.cloud_provider = input.cloudProvider;
  if (input.region !== undefined) {
    if (!isRegionOf(next.cloud_provider, input.region)) {
      throw invalidField('/body/region', `"${input.region}" is not a ${next.cloud_provider} region; see GET /api/v1/regions/?cloudProvider=${next.cloud_provider}.`);
    }
    next.region = input.region;
  } else if (next.region === null || !isRegionOf(next.cloud_provider, next.region)) {
    // Moving to another cloud without naming a region lands in that cloud's default region.
    next.region = defaultRegion(next.cloud_provider);
  }

  if (input.releaseChannel !== undefined) next.release_channel = input.releaseChannel;
  if (input.releaseChannelVersion !== undefined) {
    if (input.releaseChannelVersion !== null && !isVersionOf(next.release_channel, input.releaseChannelVersion)) {
      const offered = RELEASE_VERSIONS[next.release_channel].map((v) => v.version).join(', ');
      throw invalidField(
        '/body/releaseChannelVersion',
        `${input.releaseChannelVersion} is not a version of the ${next.release_channel} channel; GET versions offers ${offered}.`,
      );
    }
    next.release_channel_version = input.releaseChannelVersion;
  } else if (next.release_channel_version !== null && !isVersionOf(next.release_channel, next.release_channel_version)) {
    // A pin the new channel does not offer is dropped: the deployment follows the new channel.
    next.release_channel_version = null;
  }
  if (input.releaseChannelVersionHold !== undefined) next.release_channel_version_hold = input.releaseChannelVersionHold ? 1 : 0;
  if (next.release_channel_version_hold === 1 && next.release_channel_version === null) {
    if (input.releaseChannelVersionHold === true) {
      // Holding without naming a version holds the version running now.
      next.release_channel_version = latestVersion(next.release_channel);
    } else {
      // The pin was removed: nothing is left to hold.
      next.release_channel_version_hold = 0;
    }
  }

  if (input.template !== undefined) next.template = input.template;
  if (input.templateVariables !== undefined) {
    const merged = JSON.parse(row.template_variables) as Record<string, TemplateValue>;
    for (const [key, value] of Object.entries(input.templateVariables)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    if (Object.keys(merged).length > 200) throw invalidField('/body/templateVariables', 'A deployment holds at most 200 template variables.');
    next.template_variables = JSON.stringify(merged);
  }
  if (input.defaultLaunchpadViewGroup !== undefined) next.default_launchpad_view_group = input.defaultLaunchpadViewGroup;
  if (input.launchpadTabs !== undefined) next.launchpad_tabs = input.launchpadTabs === null ? null : JSON.stringify(input.launchpadTabs);
  if (input.sqlRunnerDdlEnabled !== undefined) {
    next.settings = JSON.stringify({ ...switchesOf(row), sqlRunnerDdlEnabled: input.sqlRunnerDdlEnabled });
  }

  note('name', row.name, next.name);
  note('cloudProvider', row.cloud_provider, next.cloud_provider);
  note('region', row.region, next.region);
  note('releaseChannel', row.release_channel, next.release_channel);
  note('releaseChannelVersion', row.release_channel_version, next.release_channel_version);
  note('releaseChannelVersionHold', row.release_channel_version_hold === 1, next.release_channel_version_hold === 1);
  note('template', row.template, next.template);
  note('templateVariables', JSON.parse(row.template_variables), JSON.parse(next.template_variables));
  note('defaultLaunchpadViewGroup', row.default_launchpad_view_group, next.default_launchpad_view_group);
  note('launchpadTabs', row.launchpad_tabs && JSON.parse(row.launchpad_tabs), next.launchpad_tabs && JSON.parse(next.launchpad_tabs));
  note('sqlRunnerDdlEnabled', switchesOf(row).sqlRunnerDdlEnabled, switchesOf(next).sqlRunnerDdlEnabled);
  if (changes.length === 0) return toDeployment(row);

  next.updated_at = ctx.clock.now().toISOString();
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `UPDATE deployments SET name = ?, cloud_provider = ?, region = ?, release_channel = ?, release_channel_version = ?,
           release_channel_version_hold = ?, template = ?, template_variables = ?, default_launchpad_view_group = ?, launchpad_tabs = ?,
           settings = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        next.name,
        next.cloud_provider,
        next.region,
        next.release_channel,
        next.release_channel_version,
        next.release_channel_version_hold,
        next.template,
        next.template_variables,
        next.default_launchpad_view_group,
        next.launchpad_tabs,
        next.settings,
        next.updated_at,
        deploymentId,
      );
    appendDeploymentLog(ctx, deploymentId, {
      source: 'production',
      container: 'MAIN',
      message: `Deployment settings changed by ${actorLabel(principal)}: ${changes.join('; ')}.`,
    });
  })();
  return getDeployment(ctx, deploymentId);
}

// ---- deletion -----------------------------------------------------------------------------------

// Areas built on deployments (environments, data model, exports) hook into its life cycle instead of
// being called from here, so this area never imports them.

/** Runs inside the creating transaction; may return a line for the deployment's log. */
export type DeploymentCreatedHook = (deploymentId: number, deployBranch: string) => string | void;
/** Runs inside the deleting transaction, before the deployment's rows go. */
export type DeploymentDeletingHook = (deploymentId: number) => void;
/** Runs after the deletion committed, for what an area keeps outside SQLite (files, repositories). */
export type DeploymentDeletedHook = (deploymentId: number) => Promise<void> | void;

const CREATED_HOOKS = 'deployments.onCreated';
const DELETING_HOOKS = 'deployments.onDeleting';
const HOOKS_KEY = 'deployments.onDeleted';

function addHook<H>(ctx: ServiceContext, key: string, hook: H): void {
  ctx.services[key] = [...hooksOf<H>(ctx, key), hook];
}

function hooksOf<H>(ctx: ServiceContext, key: string): H[] {
  return (ctx.services[key] as H[] | undefined) ?? [];
}

export const onDeploymentCreated = (ctx: ServiceContext, hook: DeploymentCreatedHook): void => addHook(ctx, CREATED_HOOKS, hook);
export const onDeploymentDeleting = (ctx: ServiceContext, hook: DeploymentDeletingHook): void => addHook(ctx, DELETING_HOOKS, hook);
export const onDeploymentDeleted = (ctx: ServiceContext, hook: DeploymentDeletedHook): void => addHook(ctx, HOOKS_KEY, hook);

/**
 * Deletes the deployment and everything under it (environments, env vars, logs, tokens, build
 * states), revokes its deployment and environment tokens, then removes its secrets.
 */
export async function deleteDeployment(ctx: ServiceContext, deploymentId: number): Promise<void> {
  // Every area that keeps something of a deployment (files, repositories, tokens) removes it.
  await everyAreaLoaded(ctx);
  const row = loadRow(ctx, deploymentId);
  const secretKeys = secretEnvKeys(ctx, deploymentId);
  const storage = JSON.parse(row.storage_provider) as StorageProvider;
  if (storage.credentialsConfigured) secretKeys.push(storageSecretKey(deploymentId));

  ctx.db.transaction(() => {
    for (const hook of hooksOf<DeploymentDeletingHook>(ctx, DELETING_HOOKS)) hook(deploymentId);
    const sids = ctx.db.prepare('SELECT sid FROM deployment_tokens WHERE deployment_id = ?').all(deploymentId) as { sid: string }[];
    for (const { sid } of sids) ctx.tokens.revoke(sid);
    ctx.db.prepare('DELETE FROM deployments WHERE id = ?').run(deploymentId);
  })();

  // After the commit: a failure here leaves an orphan secret, never a deployment without its secrets.
  for (const key of secretKeys) {
    try {
      await ctx.secrets.delete(key);
    } catch (error) {
      ctx.log.warn('could not delete a secret of a deleted deployment', { deploymentId, key, error: String(error) });
    }
  }
  for (const hook of hooksOf<DeploymentDeletedHook>(ctx, HOOKS_KEY)) {
    try {
      await hook(deploymentId);
    } catch (error) {
      ctx.log.error('a deployment deletion hook failed', { deploymentId, error: String(error) });
    }
  }
}

// ---- setup wizard ---------------------------------------------------------------------------------

export function getCreationStep(ctx: ServiceContext, deploymentId: number): CreationStepState {
  return creationStepState(loadRow(ctx, deploymentId).creation_step);
}

/** Marks the current wizard step done. 409 once complete, or when `from` is not the current step. */
export function advanceCreationStep(ctx: ServiceContext, deploymentId: number, from: string | undefined, principal: Principal): CreationStepState {
  return ctx.db.transaction(() => {
    const row = loadRow(ctx, deploymentId);
    const state = creationStepState(row.creation_step);
    if (state.completed) {
      throw conflict('CREATION_ALREADY_COMPLETE', 'The setup wizard is already complete; reset it to start over.');
    }
    if (from !== undefined && from !== state.currentStep) {
      throw conflict('CREATION_STEP_MISMATCH', `The current step is "${state.currentStep}", not "${from}".`, {
        currentStep: state.currentStep,
      });
    }
    const done = row.creation_step + 1;
    ctx.db.prepare('UPDATE deployments SET creation_step = ?, updated_at = ? WHERE id = ?').run(done, ctx.clock.now().toISOString(), deploymentId);
    const after = creationStepState(done);
    appendDeploymentLog(ctx, deploymentId, {
      source: 'production',
      container: 'INIT',
      message:
        `Setup step "${state.currentStep}" completed by ${actorLabel(principal)}` +
        (after.completed ? '; setup complete.' : `; next: "${after.currentStep}".`),
    });
    return after;
  })();
}

export function resetCreationStep(ctx: ServiceContext, deploymentId: number, principal: Principal): CreationStepState {
  return ctx.db.transaction(() => {
    loadRow(ctx, deploymentId);
    ctx.db.prepare('UPDATE deployments SET creation_step = 0, updated_at = ? WHERE id = ?').run(ctx.clock.now().toISOString(), deploymentId);
    appendDeploymentLog(ctx, deploymentId, {
      source: 'production',
      container: 'INIT',
      message: `Setup wizard reset by ${actorLabel(principal)}; next: "${CREATION_STEPS[0].id}".`,
    });
    return creationStepState(0);
  })();
}
