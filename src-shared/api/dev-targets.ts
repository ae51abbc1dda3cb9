import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Timestamp } from './contract';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';

// Dev targets: where a push (warehouse semantic views) or a publication (lakehouse metric views)
// made from a user's dev branch writes its objects — a per-user schema (`<schema>_DEV_<USER>`) or a
// per-user name prefix (`DEV_<USER>_<name>`), never the production objects. The rule is one per
// deployment; the functions here are pure so the service and the renderer name targets alike.

const TAG = 'Data Model';
const D = '/build/api/v1/deployments/{deploymentId}';

export const DEV_TARGET_MODES = ['schema-suffix', 'name-prefix'] as const;
export type DevTargetMode = (typeof DEV_TARGET_MODES)[number];

/** The placeholder a template must contain (once): the user's tag, e.g. `ALICE`. */
export const USER_PLACEHOLDER = '{user}';

export const DEFAULT_DEV_TEMPLATES: Record<DevTargetMode, string> = {
  'schema-suffix': '_DEV_{user}',
  'name-prefix': 'DEV_{user}_',
};
export const DEFAULT_DEV_TARGET_MODE: DevTargetMode = 'schema-suffix';
export const MAX_DEV_TEMPLATE_LENGTH = 64;

export const DevTargetErrorCodes = {
  /** The template lacks `{user}` (or has it more than once): two users would write the same objects (422). */
  DEV_TARGET_TEMPLATE_WITHOUT_USER: 'DEV_TARGET_TEMPLATE_WITHOUT_USER',
  /** The template has characters an unquoted identifier cannot hold, or is too long (422). */
  DEV_TARGET_TEMPLATE_INVALID: 'DEV_TARGET_TEMPLATE_INVALID',
} as const;

export interface DevTargetRule {
  mode: DevTargetMode;
  template: string;
}

/** Why a template cannot name per-user objects, or null when it can. */
export function devTemplateProblem(template: string): { code: string; detail: string } | null {
  const uses = template.split(USER_PLACEHOLDER).length - 1;
  if (uses !== 1) {
    return {
      code: DevTargetErrorCodes.DEV_TARGET_TEMPLATE_WITHOUT_USER,
      detail: `The template "${template}" must contain ${USER_PLACEHOLDER} exactly once, so that each user gets their own objects (found ${uses}).`,
    };
  }
  const rest = template.replace(USER_PLACEHOLDER, '');
  if (template.length > MAX_DEV_TEMPLATE_LENGTH || !/^[A-Za-z0-9_]*$/.test(rest)) {
    return {
      code: DevTargetErrorCodes.DEV_TARGET_TEMPLATE_INVALID,
      detail: `The template "${template}" may hold only letters, digits, underscores and ${USER_PLACEHOLDER}, at most ${MAX_DEV_TEMPLATE_LENGTH} characters.`,
    };
  }
  return null;
}

/**
 * The base tag of a user in object names: the local part of the email, upper-cased, runs of other
 * characters as one `_` (`alice.smith@x.com` → `ALICE_SMITH`). The service appends `_<id>` when an
 * earlier user has the same base tag.
 */
export function baseUserTag(email: string, userId: number): string {
  const local = email.split('@')[0] ?? '';
  const tag = local
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32);
  return tag === '' || /^[0-9]/.test(tag) ? `U${userId}${tag ? `_${tag}` : ''}` : tag;
}

/** Where a dev push or publication writes, from what was asked: schema and name prefix. */
export interface DevPlacement {
  schema: string;
  prefix: string;
}

/**
 * Applies a rule: `schema-suffix` appends the filled template to the schema (`ANALYTICS` →
 * `ANALYTICS_DEV_ALICE`); `name-prefix` keeps the schema and puts the filled template before the
 * requested prefix (`SV_` → `DEV_ALICE_SV_`). `lowerCase` for the lakehouse, whose names are lower case.
 */
export function placeDevTarget(rule: DevTargetRule, userTag: string, requested: DevPlacement, lowerCase = false): DevPlacement {
  const filled = rule.template.replace(USER_PLACEHOLDER, userTag);
  const placed = rule.mode === 'schema-suffix' ? { schema: `${requested.schema}${filled}`, prefix: requested.prefix } : { schema: requested.schema, prefix: `${filled}${requested.prefix}` };
  return lowerCase ? { schema: placed.schema.toLowerCase(), prefix: placed.prefix.toLowerCase() } : placed;
}

// ---- shapes -------------------------------------------------------------------------------------

const Mode = Type.Enum([...DEV_TARGET_MODES], {
  description: '`schema-suffix`: dev objects go to `<schema><template>` (e.g. `ANALYTICS_DEV_ALICE`); `name-prefix`: same schema, names `<template><name>`',
});
const Template = Type.String({ minLength: 1, maxLength: MAX_DEV_TEMPLATE_LENGTH, description: `Contains ${USER_PLACEHOLDER} once; letters, digits and underscores otherwise` });

export const DevTargetRuleSchema = Type.Object({
  mode: Mode,
  template: Type.String(),
  isDefault: Type.Boolean({ description: 'No rule was saved: the default (`schema-suffix`, `_DEV_{user}`) applies' }),
  updatedAt: Nullable(Timestamp),
});
export type DevTargetRuleView = Static<typeof DevTargetRuleSchema>;

export const UpdateDevTargetRuleInput = Type.Object(
  {
    mode: Mode,
    template: Type.Optional(Template),
  },
  { additionalProperties: false, description: 'Omitting `template` uses the default template of the mode' },
);
export type UpdateDevTargetRuleInput = Static<typeof UpdateDevTargetRuleInput>;

export const DevTarget = Type.Object({
  branchName: Type.String(),
  isDevBranch: Type.Boolean({ description: 'A user’s personal dev branch: pushes and publications from it go to the per-user target' }),
  ownerUserId: Nullable(Type.Integer()),
  userTag: Nullable(Type.String({ description: 'The owner’s tag in object names, e.g. `ALICE` (null for other branches)' })),
  rule: Type.Object({ mode: Mode, template: Type.String() }),
});
export type DevTarget = Static<typeof DevTarget>;

/**
 * Where one dev-mode push or publication wrote: the owner, the rule applied, what the request (or
 * the saved settings) named, and the per-user schema and prefix used instead.
 */
export const DevTargetPlacement = Type.Object(
  {
    ownerUserId: Type.Integer({ description: 'Owner of the dev branch' }),
    userTag: Type.String({ description: 'The owner’s tag in object names, e.g. `ALICE`' }),
    mode: Mode,
    template: Type.String(),
    requestedSchema: Type.String({ description: 'The production schema asked for' }),
    requestedPrefix: Type.String({ description: 'The production name prefix asked for' }),
    schema: Type.String({ description: 'The per-user schema written to' }),
    prefix: Type.String({ description: 'The per-user name prefix written with' }),
  },
  { description: 'Made from a personal dev branch: written to the owner’s per-user target, never over the production objects' },
);
export type DevTargetPlacement = Static<typeof DevTargetPlacement>;

export const getDevTargetRule = defineRoute({
  method: 'GET',
  path: `${D}/dev-mode/target-rule`,
  operationId: 'getDevTargetRule',
  tag: TAG,
  summary: 'Where dev-mode pushes and publications write: per-user schema suffix or name prefix',
  description: ETAG_RULE,
  params: DeploymentParams,
  response: DevTargetRuleSchema,
});

export const updateDevTargetRule = defineRoute({
  method: 'PUT',
  path: `${D}/dev-mode/target-rule`,
  operationId: 'updateDevTargetRule',
  tag: TAG,
  summary: 'Set the per-user target rule of dev-mode pushes and publications',
  description:
    'Needs deployment edit access. A template without `{user}` answers 422 `DEV_TARGET_TEMPLATE_WITHOUT_USER`; other characters than ' +
    'letters, digits and underscores 422 `DEV_TARGET_TEMPLATE_INVALID`. Objects already written keep their names. ' +
    IF_MATCH_RULE,
  params: DeploymentParams,
  body: UpdateDevTargetRuleInput,
  response: DevTargetRuleSchema,
});

export const getDevTarget = defineRoute({
  method: 'GET',
  path: `${D}/dev-mode/target`,
  operationId: 'getDevTarget',
  tag: TAG,
  summary: 'The per-user target a push or publication from a branch writes to',
  description: 'For a personal dev branch: its owner’s tag and the rule; for other branches `isDevBranch: false` (objects go where asked).',
  params: DeploymentParams,
  query: Type.Object({ branchName: Type.String({ minLength: 1, maxLength: 100 }) }),
  response: DevTarget,
});

export const devTargetRoutes = { getDevTargetRule, updateDevTargetRule, getDevTarget };
