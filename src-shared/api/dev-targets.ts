import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Timestamp } from './contract';
import { DEV_TARGET_MODES, MAX_DEV_TEMPLATE_LENGTH, USER_PLACEHOLDER } from './dev-target-rules';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';

// Dev targets: the operations that read and set a deployment's rule, and the target of a branch.
// The naming rules (pure functions and their constants) live in dev-target-rules.ts, a module
// without schemas: the main build carries this module's schemas as data (scripts/contract-snapshot.js).

const TAG = 'Data Model';
const D = '/build/api/v1/deployments/{deploymentId}';

export {
  DEFAULT_DEV_TARGET_MODE,
  DEFAULT_DEV_TEMPLATES,
  DEV_TARGET_MODES,
  DevTargetErrorCodes,
  MAX_DEV_TEMPLATE_LENGTH,
  USER_PLACEHOLDER,
  baseUserTag,
  devTemplateProblem,
  placeDevTarget,
  type DevPlacement,
  type DevTargetMode,
  type DevTargetRule,
} from './dev-target-rules';

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
