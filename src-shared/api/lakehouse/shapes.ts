// The shapes of lakehouse publication: settings, per-view results, runs, previews and the access test.
import { Type, type Static } from 'typebox';
import { literals, Nullable, Timestamp } from '../contract';
import { DevTargetPlacement } from '../dev-targets';
import { ACCESS_CHECKS, DELETION_POLICIES, PREVIEW_ACTIONS, PREVIEW_VIEW_OUTCOMES, RUN_STATUSES, RUN_VIEW_OUTCOMES, SELECTION_MODES } from './limits';

// ---- settings ----------------------------------------------------------------------------------------

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
