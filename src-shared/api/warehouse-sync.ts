import { Type, type Static } from 'typebox';
import { CANCEL_RULE, DeploymentParams, defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

/**
 * Warehouse semantic view sync: push model views to warehouse semantic views, pull semantic views
 * into model files. Both run as durable jobs: start answers 202 with the job's ids, progress is
 * polled, the result is read once the job is COMPLETED.
 */
const TAG = 'warehouse semantic view sync';

// ---- vocabulary -----------------------------------------------------------------------------------

export const SYNC_JOB_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export type SyncJobStatus = (typeof SYNC_JOB_STATUSES)[number];
/** COMPLETED, FAILED and CANCELLED (and PARTIAL, which syncs do not use) never change again. */
export const TERMINAL_SYNC_JOB_STATUSES: readonly SyncJobStatus[] = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];

export const SYNC_DIRECTIONS = ['push', 'pull'] as const;
export type SyncDirection = (typeof SYNC_DIRECTIONS)[number];

/** Model features a push leaves out of the semantic view (push rule 6). */
export const SKIPPED_FEATURES = ['segments', 'access_policies', 'hierarchies', 'granularities', 'view_filters', 'pre_aggregations'] as const;
export type SkippedFeatureName = (typeof SKIPPED_FEATURES)[number];

/** Stages a job reports in `progress.stage`, in order. */
export const PUSH_STAGES = ['queued', 'reading-model', 'generating-ddl', 'connecting', 'creating-views', 'completed'] as const;
export const PULL_STAGES = ['queued', 'connecting', 'listing-views', 'describing-views', 'generating-files', 'committing', 'completed'] as const;

/** Stable `code`s of this area's problems and job errors. */
export const WarehouseSyncErrorCodes = {
  /** Result requested before the job ended COMPLETED (409); `jobStatus` tells where it is. */
  SYNC_JOB_NOT_COMPLETED: 'SYNC_JOB_NOT_COMPLETED',
  SYNC_JOB_NOT_FOUND: 'SYNC_JOB_NOT_FOUND',
  /** A requested model view does not exist at the branch (422). */
  MODEL_VIEW_NOT_FOUND: 'MODEL_VIEW_NOT_FOUND',
  /** A requested view cannot become a semantic view (422; `errors[]` has the analyzer's reasons). */
  MODEL_NOT_PUSHABLE: 'MODEL_NOT_PUSHABLE',
  /** The data source the views use is not a warehouse (422). */
  DATA_SOURCE_NOT_WAREHOUSE: 'DATA_SOURCE_NOT_WAREHOUSE',
  /** The data source has no database (`CUBEJS_DB_NAME`) to create semantic views in (422). */
  DATA_SOURCE_DATABASE_MISSING: 'DATA_SOURCE_DATABASE_MISSING',
  /** Job error: DDL operations are disabled in the deployment configuration (a permissions failure, status 403). */
  SQL_RUNNER_DDL_DISABLED: 'SQL_RUNNER_DDL_DISABLED',
  /** Job error: a requested semantic view does not exist in the schema. */
  SEMANTIC_VIEW_NOT_FOUND: 'SEMANTIC_VIEW_NOT_FOUND',
} as const;

// ---- shapes -----------------------------------------------------------------------------------------

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Uuid = Type.String({ format: 'uuid', description: 'Same key and inputs return the original job; changed inputs need a new key' });
const BranchName = Type.String({ minLength: 1, maxLength: 100, description: "Default: the deployment's deploy branch" });
const DataSourceName = Type.String({ minLength: 1, maxLength: 64, description: 'Data source to pull from (default `default`)' });

export const SyncProgress = Type.Object({
  stage: Type.String({ description: `Push: ${PUSH_STAGES.join(', ')}. Pull: ${PULL_STAGES.join(', ')}.` }),
  percentComplete: Type.Integer({ minimum: 0, maximum: 100 }),
});

export const SyncError = Type.Object(
  {
    code: Type.String({ description: 'Stable code, e.g. SQL_RUNNER_DDL_DISABLED, WAREHOUSE_INSUFFICIENT_PRIVILEGES, JOB_LEASE_EXPIRED' }),
    message: Type.String(),
    status: Type.Optional(Type.Integer({ description: 'HTTP-like class of the failure (403: permissions)' })),
    details: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'e.g. the view and statement that failed, the missing privilege, views already pushed' }),
    ),
  },
  { description: 'Why the job failed' },
);
export type SyncError = Static<typeof SyncError>;

export const StartPushInput = Type.Object(
  {
    schema: Type.String({ minLength: 1, maxLength: 255, description: 'Warehouse schema to create the semantic views in' }),
    prefix: Type.String({ maxLength: 200, description: 'Prefix of the created semantic view names (may be empty)' }),
    viewNames: Type.Array(Name, { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'Model view names' }),
    branchName: Type.Optional(BranchName),
    idempotencyKey: Type.Optional(Uuid),
    helperViewSchema: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Schema of the MODEL_SV_SRC_<ENTITY> helper views of SQL-defined entities (default PUBLIC)' }),
    ),
  },
  { additionalProperties: false },
);
export type StartPushInput = Static<typeof StartPushInput>;

export const StartPullInput = Type.Object(
  {
    schema: Type.String({ minLength: 1, maxLength: 255, description: 'Warehouse schema to read semantic views from' }),
    viewNames: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255, description: 'A name, or a pattern with `*`' }), {
        maxItems: 1000,
        description: 'Warehouse view names; `*` matches any run of characters; omitted means every view in the schema',
      }),
    ),
    outputPath: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'Repository-relative folder under `model/` (or `schema/`) for the generated files',
    }),
    branchName: Type.Optional(BranchName),
    idempotencyKey: Type.Optional(Uuid),
    dataSourceName: Type.Optional(DataSourceName),
  },
  { additionalProperties: false },
);
export type StartPullInput = Static<typeof StartPullInput>;

export const SyncJobStarted = Type.Object({
  syncJobId: Type.String(),
  workflowId: Type.String(),
  statusUrl: Type.String({ description: 'Root-relative URL of the progress endpoint' }),
});

/** The start request as sent: push fields or pull fields. */
export const SyncRequest = Type.Object(
  {
    schema: Type.String(),
    prefix: Type.Optional(Type.String({ description: 'Push only' })),
    viewNames: Type.Optional(Type.Array(Type.String(), { description: 'Push: model views; pull: warehouse names or `*` patterns (absent: every view)' })),
    outputPath: Type.Optional(Type.String({ description: 'Pull only' })),
    branchName: Type.Optional(Type.String()),
    idempotencyKey: Type.Optional(Type.String()),
    helperViewSchema: Type.Optional(Type.String({ description: 'Push only' })),
    dataSourceName: Type.Optional(Type.String({ description: 'Pull only' })),
  },
  { description: 'The start request as sent' },
);
export type SyncRequest = Static<typeof SyncRequest>;

export const PushDevTarget = Type.Object(
  {
    ownerUserId: Type.Integer({ description: 'Owner of the dev branch pushed' }),
    userTag: Type.String({ description: 'The owner’s tag in object names, e.g. `ALICE`' }),
    mode: Type.Enum(['schema-suffix', 'name-prefix']),
    template: Type.String(),
    requestedSchema: Type.String({ description: 'The schema the request named (production)' }),
    requestedPrefix: Type.String(),
    schema: Type.String({ description: 'The per-user schema written to' }),
    prefix: Type.String({ description: 'The per-user name prefix written with' }),
  },
  { description: 'A push from a personal dev branch: it wrote to the owner’s per-user target, never over the production objects' },
);
export type PushDevTarget = Static<typeof PushDevTarget>;

export const SyncJob = Type.Object({
  syncJobId: Type.String(),
  workflowId: Type.String(),
  direction: Type.Enum([...SYNC_DIRECTIONS]),
  status: Type.Enum([...SYNC_JOB_STATUSES]),
  progress: SyncProgress,
  error: Type.Optional(SyncError),
  written: Type.Optional(
    Type.Array(Type.String(), {
      description: 'A cancelled push: the semantic views it created or replaced before the cancel took effect (each complete; the rest untouched)',
    }),
  ),
  warningCount: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'A job that produced a result: its warnings (a push: per view, e.g. access policies a semantic view cannot hold; a pull: members not pulled), listed in the result',
    }),
  ),
  request: SyncRequest,
  devTarget: Type.Optional(PushDevTarget),
  branchName: Type.String({ description: 'Branch read (push) or committed to (pull)' }),
  dataSourceName: Nullable(Type.String()),
  createdBy: Nullable(Type.Integer()),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  finishedAt: Nullable(Timestamp),
  attempts: Type.Integer({ description: 'Runs of the job so far (more than one after a worker restart)' }),
});
export type SyncJob = Static<typeof SyncJob>;

const SkippedFeature = Type.Enum([...SKIPPED_FEATURES]);

export const PushedView = Type.Object({
  viewName: Type.String({ description: 'Model view' }),
  semanticViewName: Type.String({ description: 'Name the warehouse stores for the semantic view' }),
  qualifiedName: Type.String(),
  dataSourceName: Type.String(),
  action: Type.Enum(['created', 'replaced']),
  ddl: Type.String({ description: 'The CREATE OR REPLACE SEMANTIC VIEW statement run' }),
  helperViews: Type.Array(Type.Object({ entity: Type.String(), name: Type.String(), ddl: Type.String() })),
  skipped: Type.Array(Type.Object({ feature: SkippedFeature, items: Type.Array(Type.String()) })),
  warnings: Type.Array(Type.String()),
});
export type PushedView = Static<typeof PushedView>;

export const PushResult = Type.Object({
  syncJobId: Type.String(),
  viewCount: Type.Integer(),
  completedAt: Timestamp,
  durationMs: Type.Integer({ description: 'From the start of the run to completion' }),
  branchName: Type.String(),
  commit: Type.String({ description: 'Model commit the views were read from' }),
  database: Type.String(),
  schema: Type.String({ description: 'The schema written to (a dev push: the per-user schema)' }),
  devTarget: Nullable(PushDevTarget),
  ensuredSchemas: Type.Array(Type.String(), { description: 'A dev push’s per-user schemas, qualified: created first when missing (CREATE SCHEMA IF NOT EXISTS)' }),
  views: Type.Array(PushedView),
  skipped: Type.Array(SkippedFeature, { description: 'Features skipped in any view (rule 6)' }),
});
export type PushResult = Static<typeof PushResult>;

export const GeneratedFile = Type.Object({
  path: Type.String({ description: 'Repository-relative path' }),
  semanticViewName: Type.String(),
  viewName: Type.String({ description: 'Model view the file defines' }),
  cubes: Type.Array(Type.String()),
  status: Type.Enum(['added', 'modified', 'unchanged']),
  warnings: Type.Array(
    Type.Object({
      member: Type.String({ description: '`table.member`, or the name of a derived metric' }),
      message: Type.String(),
    }),
    { description: 'Members of the semantic view the model cannot express (for example window function metrics): not pulled, each said here and as a comment in the file' },
  ),
});

export const PullResult = Type.Object({
  syncJobId: Type.String(),
  viewCount: Type.Integer(),
  completedAt: Timestamp,
  durationMs: Type.Integer({ description: 'From the start of the run to completion' }),
  branchName: Type.String(),
  commit: Nullable(Type.String({ description: 'Commit holding the generated files (null when nothing changed)' })),
  database: Type.String(),
  schema: Type.String(),
  generatedFiles: Type.Array(GeneratedFile),
});
export type PullResult = Static<typeof PullResult>;

const SyncJobParams = Type.Object({ ...DeploymentParams.properties, syncJobId: Type.String({ minLength: 1, maxLength: 64 }) });

// ---- operations -------------------------------------------------------------------------------------

const D = '/api/v1/deployments/{deploymentId}';
const START_DESCRIPTION =
  'Needs SchemaUpdate and SQL Runner read access; an OAuth token needs the `deployment.write` scope. Answers 202 with the job ids; poll progress, then read the result.';
const READ_DESCRIPTION = 'Needs SchemaRead or SchemaUpdate access; an OAuth token needs the `deployment.write` scope.';

export const startWarehouseSemanticViewSync = defineRoute({
  method: 'POST',
  path: `${D}/warehouse-semantic-view-syncs`,
  operationId: 'startWarehouseSemanticViewSync',
  tag: TAG,
  summary: 'Push model views to warehouse semantic views',
  description:
    `${START_DESCRIPTION} The views are read from \`branchName\` (default: the deploy branch) as of the request; each becomes ` +
    '`<prefix><view>` in `schema`, created through the SQL Runner, which needs DDL operations enabled in the deployment configuration ' +
    '(else the job fails with `SQL_RUNNER_DDL_DISABLED`). Views that cannot be pushed are refused with 422 `MODEL_NOT_PUSHABLE` and the reasons.',
  params: DeploymentParams,
  body: StartPushInput,
  status: 202,
  response: SyncJobStarted,
});

export const listWarehouseSemanticViewSyncJobs = defineRoute({
  method: 'GET',
  path: `${D}/warehouse-semantic-view-syncs`,
  operationId: 'listWarehouseSemanticViewSyncJobs',
  tag: TAG,
  summary: 'Push and pull jobs of the deployment, newest first',
  description: READ_DESCRIPTION,
  params: DeploymentParams,
  query: Type.Object({
    ...PageQuery,
    status: Type.Optional(Type.Array(Type.Enum([...SYNC_JOB_STATUSES]), { description: 'Only jobs in these states (repeat the parameter)' })),
    direction: Type.Optional(Type.Enum([...SYNC_DIRECTIONS], { description: 'Only pushes or only pulls' })),
  }),
  response: Page(SyncJob),
});

export const getWarehouseSemanticViewSync = defineRoute({
  method: 'GET',
  path: `${D}/warehouse-semantic-view-syncs/{syncJobId}`,
  operationId: 'getWarehouseSemanticViewSync',
  tag: TAG,
  summary: 'Progress of a push',
  description: READ_DESCRIPTION,
  params: SyncJobParams,
  response: SyncJob,
});

export const getWarehouseSemanticViewSyncResult = defineRoute({
  method: 'GET',
  path: `${D}/warehouse-semantic-view-syncs/{syncJobId}/result`,
  operationId: 'getWarehouseSemanticViewSyncResult',
  tag: TAG,
  summary: 'Result of a completed push: the views, their DDL and the skipped features',
  description: `${READ_DESCRIPTION} 409 \`SYNC_JOB_NOT_COMPLETED\` until the job is COMPLETED (and for good when it failed or was cancelled).`,
  params: SyncJobParams,
  response: PushResult,
});

export const cancelWarehouseSemanticViewSync = defineRoute({
  method: 'DELETE',
  path: `${D}/warehouse-semantic-view-syncs/{syncJobId}`,
  operationId: 'cancelWarehouseSemanticViewSync',
  tag: TAG,
  summary: 'Request cancellation of a push',
  description: `Needs SchemaUpdate access. A running push stops before its next statement (views already created stay). ${CANCEL_RULE}`,
  params: SyncJobParams,
  status: 202,
  response: SyncJob,
});

export const startWarehouseSemanticViewPull = defineRoute({
  method: 'POST',
  path: `${D}/warehouse-semantic-view-pulls`,
  operationId: 'startWarehouseSemanticViewPull',
  tag: TAG,
  summary: 'Pull warehouse semantic views into model files',
  description:
    `${START_DESCRIPTION} Reads the semantic views of \`schema\` (all, or those \`viewNames\` match), writes one model file per view ` +
    'under `outputPath` and commits them to `branchName` (default: the deploy branch).',
  params: DeploymentParams,
  body: StartPullInput,
  status: 202,
  response: SyncJobStarted,
});

export const getWarehouseSemanticViewPull = defineRoute({
  method: 'GET',
  path: `${D}/warehouse-semantic-view-pulls/{syncJobId}`,
  operationId: 'getWarehouseSemanticViewPull',
  tag: TAG,
  summary: 'Progress of a pull',
  description: READ_DESCRIPTION,
  params: SyncJobParams,
  response: SyncJob,
});

export const getWarehouseSemanticViewPullResult = defineRoute({
  method: 'GET',
  path: `${D}/warehouse-semantic-view-pulls/{syncJobId}/result`,
  operationId: 'getWarehouseSemanticViewPullResult',
  tag: TAG,
  summary: 'Result of a completed pull: the generated files and the commit',
  description: `${READ_DESCRIPTION} 409 \`SYNC_JOB_NOT_COMPLETED\` until the job is COMPLETED (and for good when it failed or was cancelled).`,
  params: SyncJobParams,
  response: PullResult,
});

export const cancelWarehouseSemanticViewPull = defineRoute({
  method: 'DELETE',
  path: `${D}/warehouse-semantic-view-pulls/{syncJobId}`,
  operationId: 'cancelWarehouseSemanticViewPull',
  tag: TAG,
  summary: 'Request cancellation of a pull',
  description: `Needs SchemaUpdate access. A pull cancelled before it commits leaves the branch unchanged. ${CANCEL_RULE}`,
  params: SyncJobParams,
  status: 202,
  response: SyncJob,
});

export const warehouseSyncRoutes = {
  startWarehouseSemanticViewSync,
  listWarehouseSemanticViewSyncJobs,
  getWarehouseSemanticViewSync,
  getWarehouseSemanticViewSyncResult,
  cancelWarehouseSemanticViewSync,
  startWarehouseSemanticViewPull,
  getWarehouseSemanticViewPull,
  getWarehouseSemanticViewPullResult,
  cancelWarehouseSemanticViewPull,
};
