import { Type, type Static } from 'typebox';
import { CANCEL_RULE, DeploymentParams, defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';
import { DevTargetPlacement } from './dev-targets';

// The spec's lakehouse tag: its eleven operations and the shapes they share (settings, previews,
// runs, per-view outcomes). One module per tag group, as every contract module (README, Adding to
// the service); that is why it passes 500 lines.

const TAG = 'lakehouse metric view publication and integration';
const D = '/api/v1/deployments/{deploymentId}';
const I = `${D}/lakehouse-metric-view-integrations/{dataSourceName}`;

const literals = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Enum(values as unknown as T[number][], description ? { description } : {});

// ---- limits and enumerations ---------------------------------------------------------------------

/** Views one preview or sync may resolve per data source. */
export const MAX_VIEWS_PER_SCOPE = 128;
/** Longest name pattern, in characters. */
export const MAX_NAME_PATTERN_LENGTH = 128;
/** How long a preview's request and result are kept. */
export const PREVIEW_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const SELECTION_MODES = ['all', 'selected', 'pattern'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** `delete-managed` is deprecated: accepted, and behaves like `retain` (nothing is deleted). */
export const DELETION_POLICIES = ['retain', 'delete-managed'] as const;
export type DeletionPolicy = (typeof DELETION_POLICIES)[number];

export const RUN_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_VIEW_OUTCOMES = [
  'unchanged',
  'created',
  'updated',
  'blocked',
  'validation_failed',
  'publish_failed',
  'retained_obsolete',
  'deleted_obsolete',
] as const;
export type RunViewOutcome = (typeof RUN_VIEW_OUTCOMES)[number];

/** Outcomes that count as success: a run whose views all end in one of these is COMPLETED. */
export const SUCCESSFUL_RUN_OUTCOMES: readonly RunViewOutcome[] = ['created', 'updated', 'unchanged', 'retained_obsolete'];

export const PREVIEW_VIEW_OUTCOMES = ['create', 'update', 'unchanged', 'partial', 'blocked', 'retained_obsolete'] as const;
export type PreviewViewOutcome = (typeof PREVIEW_VIEW_OUTCOMES)[number];

export const PREVIEW_ACTIONS = ['create', 'update', 'unchanged'] as const;

export const ACCESS_CHECKS = ['warehouse', 'target_schema', 'source_read', 'create_view', 'replace_view', 'drop_view'] as const;
export type AccessCheckName = (typeof ACCESS_CHECKS)[number];

/** Stable problem codes of this area. */
export const LakehouseErrorCodes = {
  DATA_SOURCE_NOT_FOUND: 'LAKEHOUSE_DATA_SOURCE_NOT_FOUND',
  NOT_A_LAKEHOUSE_DATA_SOURCE: 'LAKEHOUSE_DATA_SOURCE_REQUIRED',
  SETTINGS_NOT_FOUND: 'LAKEHOUSE_SETTINGS_NOT_FOUND',
  CONFIGURATION_VERSION_CONFLICT: 'LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT',
  NAME_PATTERN_INVALID: 'LAKEHOUSE_NAME_PATTERN_INVALID',
  SCOPE_TOO_LARGE: 'LAKEHOUSE_SCOPE_TOO_LARGE',
  INVALID_CONFIGURATION: 'LAKEHOUSE_INVALID_CONFIGURATION',
  TARGET_NAME_CONFLICT: 'LAKEHOUSE_TARGET_NAME_CONFLICT',
  TARGET_REQUIRED: 'LAKEHOUSE_TARGET_REQUIRED',
  VIEW_OF_OTHER_DATA_SOURCE: 'LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE',
  RUN_ACTIVE: 'LAKEHOUSE_RUN_ACTIVE',
  RUN_NOT_FOUND: 'LAKEHOUSE_RUN_NOT_FOUND',
  PREVIEW_NOT_FOUND: 'LAKEHOUSE_PREVIEW_NOT_FOUND',
  PREVIEW_NOT_FINISHED: 'LAKEHOUSE_PREVIEW_NOT_FINISHED',
  PREVIEW_NO_RESULT: 'LAKEHOUSE_PREVIEW_NO_RESULT',
  FEATURE_NOT_ACTIVE: 'LAKEHOUSE_PUBLICATION_NOT_ACTIVATED',
  NO_SUCCESSFUL_BUILD: 'LAKEHOUSE_NO_SUCCESSFUL_BUILD',
  /** A branch that is neither the deploy branch nor a personal dev branch (422). */
  BRANCH_NOT_PUBLISHABLE: 'LAKEHOUSE_BRANCH_NOT_PUBLISHABLE',
  /** A dev publication's per-user schema could not be created. */
  DEV_SCHEMA_FAILED: 'LAKEHOUSE_DEV_SCHEMA_FAILED',
  // Per-view reasons
  TARGET_UNMANAGED: 'LAKEHOUSE_TARGET_UNMANAGED',
  TARGET_MANAGED_ELSEWHERE: 'LAKEHOUSE_TARGET_MANAGED_ELSEWHERE',
  TARGET_DRIFTED: 'LAKEHOUSE_TARGET_DRIFTED',
  WRITE_NOT_CONFIRMED: 'LAKEHOUSE_WRITE_NOT_CONFIRMED',
} as const;

// ---- name pattern grammar --------------------------------------------------------------------------

export type NamePatternCheck = { ok: true; regex: RegExp } | { ok: false; message: string };

const LITERAL = /^[A-Za-z0-9_-]$/;

/**
 * The scope pattern grammar: literals (letters, digits, `_`, `-`), `^` first, `$` last, a bare `.`
 * matching one character and at most one `.*`, at most 128 characters. Without `^`/`$` the pattern
 * may match anywhere in the view name. Anything else is refused with the reason.
 */
export function checkNamePattern(pattern: string): NamePatternCheck {
  if (pattern.length === 0) return { ok: false, message: 'The name pattern is empty.' };
  if (pattern.length > MAX_NAME_PATTERN_LENGTH) {
    return { ok: false, message: `The name pattern has ${pattern.length} characters; at most ${MAX_NAME_PATTERN_LENGTH} are allowed.` };
  }
  let source = '';
  let wildcards = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    const at = `at position ${i + 1}`;
    if (ch === '^') {
      if (i !== 0) return { ok: false, message: `"^" ${at} is only allowed as the first character.` };
      source += '^';
    } else if (ch === '$') {
      if (i !== pattern.length - 1) return { ok: false, message: `"$" ${at} is only allowed as the last character.` };
      source += '$';
    } else if (ch === '.') {
      if (pattern[i + 1] === '*') {
        wildcards++;
        if (wildcards > 1) return { ok: false, message: `A second ".*" ${at}: at most one ".*" is allowed.` };
        source += '.*';
        i++;
      } else {
        source += '.';
      }
    } else if (ch === '*') {
      return { ok: false, message: `"*" ${at} is only allowed right after "." (as ".*").` };
    } else if (LITERAL.test(ch)) {
      source += ch;
    } else {
      return {
        ok: false,
        message: `"${ch}" ${at} is not allowed: a pattern has literals (letters, digits, "_", "-"), "^", "$", "." and at most one ".*".`,
      };
    }
  }
  return { ok: true, regex: new RegExp(source) };
}

// ---- settings ----------------------------------------------------------------------------------------

/** The scope rule, stated on every operation that resolves a scope. */
const SCOPE_RULE =
  'The scope holds only views whose cubes use this data source: `all` and `pattern` never include a view of another data source ' +
  '(nor count it toward the 128-view limit); a `selected` view of another data source is planned and blocked with ' +
  '`MODEL_PUBLISH_OTHER_DATA_SOURCE`, and saving settings that select one is refused with 422 `LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE`.';

const ObjectName = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

export const LakehouseConfigurationInput = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether runs publish; when false, a run writes nothing and reports managed targets as retained' }),
    selectionMode: literals(SELECTION_MODES, '`all` views, the `selected` ones, or those matching `namePattern`'),
    deletionPolicy: Type.Optional(
      literals(DELETION_POLICIES, '`retain` (default). `delete-managed` is deprecated, accepted, and behaves like `retain`.'),
    ),
    targetCatalog: ObjectName('Catalog the metric views are written to'),
    targetSchema: ObjectName('Schema the metric views are written to'),
    targetNamePrefix: Type.Optional(Nullable(Type.String({ maxLength: 128, description: 'Prefix of every target name' }))),
    namePattern: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'Scope pattern when selectionMode is `pattern`' }))),
    selectedViews: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1024 })),
    targetNameOverrides: Type.Optional(
      Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 255 }), { description: 'View name → target name' }),
    ),
    rootSourceOverrides: Type.Optional(
      Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 767 }), {
        description: 'View name → `catalog.schema.table` used as the metric view source instead of the root cube table',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LakehouseConfigurationInput = Static<typeof LakehouseConfigurationInput>;

export const LakehouseConfiguration = Type.Object({
  enabled: Type.Boolean(),
  selectionMode: literals(SELECTION_MODES),
  deletionPolicy: literals(DELETION_POLICIES),
  targetCatalog: Type.String(),
  targetSchema: Type.String(),
  targetNamePrefix: Nullable(Type.String()),
  namePattern: Nullable(Type.String()),
  selectedViews: Type.Array(Type.String()),
  targetNameOverrides: Type.Record(Type.String(), Type.String()),
  rootSourceOverrides: Type.Record(Type.String(), Type.String()),
});
export type LakehouseConfiguration = Static<typeof LakehouseConfiguration>;

export const LakehouseSettings = Type.Object({
  dataSourceName: Type.String(),
  configuration: LakehouseConfiguration,
  configurationVersion: Type.Integer({ minimum: 1, description: 'Send it back as expectedConfigurationVersion (PUT) or configurationVersion (sync)' }),
  updatedAt: Timestamp,
  updatedBy: Nullable(Type.Integer()),
});
export type LakehouseSettings = Static<typeof LakehouseSettings>;

export const IntegrationParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  dataSourceName: Type.String({ minLength: 1, maxLength: 255, description: 'URL-encoded data source name, e.g. `lake`' }),
});

// ---- per-view results ----------------------------------------------------------------------------------

export const PublicationIssue = Type.Object({
  code: Type.String({ description: 'Stable code, e.g. MODEL_VIEW_JOIN_NOT_REPRESENTABLE, MODEL_MEMBER_WITHHELD, LAKEHOUSE_TARGET_UNMANAGED' }),
  message: Type.String(),
  member: Type.Optional(Type.String()),
});
export type PublicationIssue = Static<typeof PublicationIssue>;

export const PreviewView = Type.Object({
  viewName: Type.String(),
  target: Nullable(Type.String({ description: '`catalog.schema.name`, null when no target is configured' })),
  outcome: literals(PREVIEW_VIEW_OUTCOMES, '`partial`: publishable with withheld members'),
  action: Nullable(literals(PREVIEW_ACTIONS, 'What a run would do with the target (also for `partial` views)')),
  yaml: Nullable(Type.String({ description: 'Metric view YAML (spec version 1.1); null when blocked' })),
  blockedReasons: Type.Array(PublicationIssue),
  warnings: Type.Array(PublicationIssue),
  withheldMembers: Type.Array(Type.String()),
});
export type PreviewView = Static<typeof PreviewView>;

export const RunView = Type.Object({
  viewName: Type.String(),
  target: Nullable(Type.String()),
  outcome: literals(RUN_VIEW_OUTCOMES),
  withheldMembers: Type.Array(Type.String()),
  reasons: Type.Array(PublicationIssue, { description: 'Why the view did not publish' }),
  warnings: Type.Array(PublicationIssue),
  definitionWritten: Type.Boolean({
    description:
      'This run wrote the view’s definition to its target: true for `created` and `updated`, and for a failed write that had already ' +
      'replaced the definition (its properties failed); false when nothing was written (`unchanged`, `blocked`, a refused target).',
  }),
  finishedAt: Timestamp,
});
export type RunView = Static<typeof RunView>;

/** The branch a preview or run reads (extension: the spec's runs read the deploy branch only). */
const BranchName = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'Default: the deploy branch. A personal dev branch publishes its head to the owner’s per-user target (dev-mode target rule), never over the production metric views; other branches are refused with 422 `LAKEHOUSE_BRANCH_NOT_PUBLISHABLE`.',
});
/** Set for a dev-branch preview or run: the per-user schema or prefix its targets use; null otherwise. */
const DevTarget = Nullable(DevTargetPlacement);

const JobError = Nullable(Type.Object({ code: Type.String(), message: Type.String() }));
const Progress = Type.Object({ stage: Type.String(), percentComplete: Type.Integer({ minimum: 0, maximum: 100 }) });

// ---- runs -------------------------------------------------------------------------------------------------

export const StartRunInput = Type.Object(
  {
    configurationVersion: Type.Integer({ minimum: 1, description: 'Must equal the current configurationVersion' }),
    idempotencyKey: Type.Optional(Type.String({ format: 'uuid', description: 'Same key and inputs return the original run' })),
    branchName: Type.Optional(BranchName),
  },
  { additionalProperties: false },
);

export const RunStarted = Type.Object({
  runId: Type.String(),
  buildJobId: Nullable(Type.String({ description: 'The deployed build the run reads; null when there was none' })),
  commit: Type.Optional(Type.String()),
  statusUrl: Type.String({ description: 'Root-relative URL of the run' }),
  status: literals(RUN_STATUSES),
  branchName: Type.String({ description: 'The branch the run reads' }),
  devTarget: DevTarget,
});

const RunFields = {
  runId: Type.String(),
  dataSourceName: Type.String(),
  buildJobId: Nullable(Type.String()),
  commit: Type.Optional(Type.String()),
  statusUrl: Type.String(),
  branchName: Type.String({ description: 'The branch the run reads' }),
  devTarget: DevTarget,
  configurationVersion: Type.Integer(),
  status: literals(RUN_STATUSES),
  progress: Progress,
  incompleteViewCount: Type.Integer({ description: 'Published views whose withheldMembers is nonempty' }),
  outcomeCounts: Type.Record(Type.String(), Type.Integer()),
  error: JobError,
  createdBy: Nullable(Type.Integer()),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  finishedAt: Nullable(Timestamp),
};

export const RunSummary = Type.Object({ ...RunFields, viewCount: Type.Integer() });
export type RunSummary = Static<typeof RunSummary>;

export const Run = Type.Object({
  ...RunFields,
  viewNames: Type.Array(Type.String(), { description: 'Views the run planned to publish' }),
  views: Type.Array(RunView),
});
export type Run = Static<typeof Run>;

// ---- previews ------------------------------------------------------------------------------------------------

export const StartPreviewInput = Type.Object(
  {
    dataSourceName: Type.String({ minLength: 1, maxLength: 255 }),
    selectionMode: Type.Optional(literals(SELECTION_MODES, 'Default: the saved settings’ scope')),
    selectedViews: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1024 })),
    namePattern: Type.Optional(Type.String({ maxLength: 1024 })),
    targetCatalog: Type.Optional(ObjectName('Default: the saved target catalog')),
    targetSchema: Type.Optional(ObjectName('Default: the saved target schema')),
    targetNamePrefix: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
    branchName: Type.Optional(BranchName),
  },
  { additionalProperties: false },
);
export type StartPreviewInput = Static<typeof StartPreviewInput>;

const PreviewParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), previewId: Type.String({ minLength: 1, maxLength: 64 }) });

export const PreviewStarted = Type.Object({
  previewId: Type.String(),
  status: literals(RUN_STATUSES),
  statusUrl: Type.String(),
  resultUrl: Type.String(),
});

export const PreviewStatus = Type.Object({
  previewId: Type.String(),
  dataSourceName: Type.String(),
  status: literals(RUN_STATUSES),
  progress: Progress,
  buildJobId: Nullable(Type.String()),
  commit: Nullable(Type.String()),
  branchName: Type.String({ description: 'The branch the preview reads' }),
  devTarget: DevTarget,
  error: JobError,
  statusUrl: Type.String(),
  resultUrl: Type.String(),
  createdAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  expiresAt: Nullable(Timestamp),
});

export const PreviewResult = Type.Object({
  previewId: Type.String(),
  dataSourceName: Type.String(),
  buildJobId: Type.String(),
  commit: Type.String(),
  targetCatalog: Nullable(Type.String()),
  targetSchema: Nullable(Type.String({ description: 'The schema written to: for a dev-branch preview, the per-user one' })),
  branchName: Type.String({ description: 'The branch the preview reads' }),
  devTarget: DevTarget,
  selectionMode: literals(SELECTION_MODES),
  views: Type.Array(PreviewView),
  outcomeCounts: Type.Record(Type.String(), Type.Integer()),
  completedAt: Timestamp,
});
export type PreviewResult = Static<typeof PreviewResult>;

// ---- access test ----------------------------------------------------------------------------------------------

export const AccessTestInput = Type.Object(
  {
    targetCatalog: Type.Optional(ObjectName('Default: the saved target catalog')),
    targetSchema: Type.Optional(ObjectName('Default: the saved target schema')),
  },
  { additionalProperties: false },
);

export const AccessCheck = Type.Object({
  name: literals(ACCESS_CHECKS),
  status: literals(['passed', 'failed', 'skipped'] as const),
  subject: Nullable(Type.String({ description: 'What was checked: a source, a schema or the temporary view' })),
  message: Nullable(Type.String()),
  errorCode: Nullable(Type.String()),
});

export const AccessTestResult = Type.Object({
  dataSourceName: Type.String(),
  ok: Type.Boolean(),
  targetCatalog: Type.String(),
  targetSchema: Type.String(),
  temporaryViewName: Type.String(),
  checks: Type.Array(AccessCheck),
});

// ---- routes ------------------------------------------------------------------------------------------------------

export const getLakehouseMetricViewIntegration = defineRoute({
  method: 'GET',
  path: I,
  operationId: 'getLakehouseMetricViewIntegration',
  tag: TAG,
  summary: 'Publication settings of a lakehouse data source',
  description: 'Needs SchemaRead or SchemaUpdate. 404 `LAKEHOUSE_SETTINGS_NOT_FOUND` until settings are saved.',
  params: IntegrationParams,
  response: LakehouseSettings,
});

export const putLakehouseMetricViewIntegration = defineRoute({
  method: 'PUT',
  path: I,
  operationId: 'putLakehouseMetricViewIntegration',
  tag: TAG,
  summary: 'Create or update the publication settings of a lakehouse data source',
  description:
    'Needs SchemaUpdate. `expectedConfigurationVersion` is 0 to create, else the current version; a stale version is refused with 409 ' +
    '`LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT` and nothing changes. ' +
    SCOPE_RULE,
  params: IntegrationParams,
  body: Type.Object(
    {
      expectedConfigurationVersion: Type.Integer({ minimum: 0 }),
      configuration: LakehouseConfigurationInput,
    },
    { additionalProperties: false },
  ),
  response: LakehouseSettings,
});

export const testLakehouseMetricViewAccess = defineRoute({
  method: 'POST',
  path: `${I}/access-test`,
  operationId: 'testLakehouseMetricViewAccess',
  tag: TAG,
  summary: 'Check warehouse, source and target-schema access with a temporary metric view',
  description:
    'Creates, replaces and drops a uniquely named temporary view in the target schema; never touches a published target. Needs SchemaUpdate.',
  params: IntegrationParams,
  body: AccessTestInput,
  bodyOptional: true,
  response: AccessTestResult,
});

export const startLakehouseMetricViewSync = defineRoute({
  method: 'POST',
  path: `${I}/syncs`,
  operationId: 'startLakehouseMetricViewSync',
  tag: TAG,
  summary: 'Start a publication run',
  description:
    `Reads the latest successful deployed build, or with \`branchName\` a personal dev branch's head, published to the owner's per-user schema or name prefix. ` +
    `409 \`LAKEHOUSE_RUN_ACTIVE\` while another run is active. Needs SchemaUpdate. ${SCOPE_RULE}`,
  params: IntegrationParams,
  body: StartRunInput,
  status: 202,
  response: RunStarted,
});

export const listLakehouseMetricViewSyncs = defineRoute({
  method: 'GET',
  path: `${I}/syncs`,
  operationId: 'listLakehouseMetricViewSyncs',
  tag: TAG,
  summary: 'Publication runs of a data source, newest first',
  params: IntegrationParams,
  query: Type.Object(PageQuery),
  response: Page(RunSummary),
});

const RunParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  dataSourceName: Type.String({ minLength: 1, maxLength: 255 }),
  runId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const getLakehouseMetricViewSync = defineRoute({
  method: 'GET',
  path: `${I}/syncs/{runId}`,
  operationId: 'getLakehouseMetricViewSync',
  tag: TAG,
  summary: 'Status and per-view outcomes of a publication run',
  params: RunParams,
  response: Run,
});

export const cancelLakehouseMetricViewSync = defineRoute({
  method: 'DELETE',
  path: `${I}/syncs/{runId}`,
  operationId: 'cancelLakehouseMetricViewSync',
  tag: TAG,
  summary: 'Request cancellation of a run: further writes stop, writes already done stay',
  description: `Needs SchemaUpdate. ${CANCEL_RULE}`,
  params: RunParams,
  status: 202,
  response: Run,
});

export const startLakehouseMetricViewPreview = defineRoute({
  method: 'POST',
  path: `${D}/lakehouse-metric-view-previews`,
  operationId: 'startLakehouseMetricViewPreview',
  tag: TAG,
  summary: 'Start a preview of what a run would publish',
  description: `Needs SchemaRead or SchemaUpdate. Request and result are kept at most 7 days. ${SCOPE_RULE}`,
  params: DeploymentParams,
  body: StartPreviewInput,
  status: 202,
  response: PreviewStarted,
});

export const getLakehouseMetricViewPreview = defineRoute({
  method: 'GET',
  path: `${D}/lakehouse-metric-view-previews/{previewId}`,
  operationId: 'getLakehouseMetricViewPreview',
  tag: TAG,
  summary: 'Progress of a preview',
  params: PreviewParams,
  response: PreviewStatus,
});

export const getLakehouseMetricViewPreviewResult = defineRoute({
  method: 'GET',
  path: `${D}/lakehouse-metric-view-previews/{previewId}/result`,
  operationId: 'getLakehouseMetricViewPreviewResult',
  tag: TAG,
  summary: 'Result of a completed preview',
  description: '409 `LAKEHOUSE_PREVIEW_NOT_FINISHED` while it runs, `LAKEHOUSE_PREVIEW_NO_RESULT` when it ended without one.',
  params: PreviewParams,
  response: PreviewResult,
});

export const cancelLakehouseMetricViewPreview = defineRoute({
  method: 'DELETE',
  path: `${D}/lakehouse-metric-view-previews/{previewId}`,
  operationId: 'cancelLakehouseMetricViewPreview',
  tag: TAG,
  summary: 'Request cancellation of a preview',
  description: `Needs SchemaRead or SchemaUpdate. ${CANCEL_RULE}`,
  params: PreviewParams,
  status: 202,
  response: PreviewStatus,
});

export const lakehouseRoutes = {
  getLakehouseMetricViewIntegration,
  putLakehouseMetricViewIntegration,
  testLakehouseMetricViewAccess,
  startLakehouseMetricViewSync,
  listLakehouseMetricViewSyncs,
  getLakehouseMetricViewSync,
  cancelLakehouseMetricViewSync,
  startLakehouseMetricViewPreview,
  getLakehouseMetricViewPreview,
  getLakehouseMetricViewPreviewResult,
  cancelLakehouseMetricViewPreview,
};
