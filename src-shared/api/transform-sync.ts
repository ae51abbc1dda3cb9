import { Type, type Static } from 'typebox';
import { CANCEL_RULE, DeploymentParams, defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

/**
 * Transform sync: model files generated from a dbt project's manifest — sent in the request
 * (`source: manifest`) or read from the repository at a git ref (`source: git`). The generated
 * cubes are committed to a branch (`output: branch`, the default) or only held for download for
 * one hour (`output: files`, which commits nothing). Runs are durable jobs.
 */
const TAG = 'transform sync';
const D = '/api/v1/deployments/{deploymentId}';

export const TRANSFORM_SOURCES = ['git', 'manifest'] as const;
export const TRANSFORM_OUTPUTS = ['branch', 'files'] as const;
/** `manual`: started through this API; `commit`: a commit that changed the manifest re-ran an earlier git sync of that branch. */
export const TRANSFORM_TRIGGERS = ['manual', 'commit'] as const;
export const TRANSFORM_SYNC_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export const TRANSFORM_STAGES = ['queued', 'reading-manifest', 'generating-files', 'committing', 'completed'] as const;
export const DEFAULT_MANIFEST_PATH = 'target/manifest.json';
export const DEFAULT_TRANSFORM_OUTPUT_PATH = 'model/dbt';
/** How long the files of an `output: files` run are held after it completes. */
export const GENERATED_FILES_RETENTION_MS = 60 * 60 * 1000;

export const TransformSyncErrorCodes = {
  TRANSFORM_SYNC_NOT_FOUND: 'TRANSFORM_SYNC_NOT_FOUND',
  /** 409: result or files requested before the run COMPLETED. */
  TRANSFORM_SYNC_NOT_COMPLETED: 'TRANSFORM_SYNC_NOT_COMPLETED',
  /** 404: generated files of a run that committed them, whose hour passed, or that is unknown. */
  GENERATED_FILES_NOT_FOUND: 'GENERATED_FILES_NOT_FOUND',
  /** 400 at start (manifest in the body) or job error (manifest read from git): not a dbt manifest. */
  INVALID_MANIFEST: 'INVALID_MANIFEST',
  /** Job error: no manifest at the path for the ref. */
  MANIFEST_NOT_FOUND: 'MANIFEST_NOT_FOUND',
  /** Job error: the ref names no branch or commit. */
  REF_NOT_FOUND: 'REF_NOT_FOUND',
} as const;

const BranchName = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
const RepoPath = (description: string) => Type.String({ minLength: 1, maxLength: 512, description });

export const StartTransformSyncInput = Type.Object(
  {
    branchName: Type.Optional(
      BranchName('Branch the generated files are committed to (output `branch`) or generated against (output `files`); default the deploy branch'),
    ),
    ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: '`source: git`: branch or commit id the manifest is read at (default: the connected repository’s branch, else `branchName`)',
      }),
    ),
    source: Type.Optional(Type.Enum([...TRANSFORM_SOURCES], { description: 'Default `manifest` when a manifest is sent, else `git`' })),
    manifest: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'The dbt manifest (target/manifest.json) for `source: manifest`' }),
    ),
    manifestPath: Type.Optional(RepoPath(`\`source: git\`: repository path of the manifest (default ${DEFAULT_MANIFEST_PATH})`)),
    output: Type.Optional(Type.Enum([...TRANSFORM_OUTPUTS], { description: '`branch` (default) commits the files; `files` commits nothing and holds them for an hour' })),
    outputPath: Type.Optional(RepoPath(`Folder under model/ for the generated files (default ${DEFAULT_TRANSFORM_OUTPUT_PATH})`)),
    idempotencyKey: Type.Optional(Type.String({ format: 'uuid', description: 'Same key and inputs return the original run; changed inputs need a new key' })),
  },
  { additionalProperties: false },
);
export type StartTransformSyncInput = Static<typeof StartTransformSyncInput>;

export const TransformSyncStarted = Type.Object({
  branchName: Type.String(),
  syncJobId: Type.String(),
  workflowId: Type.String(),
  statusUrl: Type.String({ description: 'Root-relative URL of the status endpoint' }),
});

export const TransformSyncError = Type.Object({
  code: Type.String(),
  message: Type.String(),
  status: Type.Optional(Type.Integer()),
  details: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const TransformSyncJob = Type.Object({
  syncJobId: Type.String(),
  workflowId: Type.String(),
  status: Type.Enum([...TRANSFORM_SYNC_STATUSES]),
  progress: Type.Object({
    stage: Type.String({ description: TRANSFORM_STAGES.join(', ') }),
    percentComplete: Type.Integer({ minimum: 0, maximum: 100 }),
  }),
  error: Type.Optional(TransformSyncError),
  source: Type.Enum([...TRANSFORM_SOURCES]),
  ref: Nullable(Type.String({ description: 'git ref the manifest was read at (`source: git`)' })),
  manifestPath: Nullable(Type.String()),
  repository: Nullable(Type.String({ description: '`source: git` of a deployment connected to a repository host: owner/repo read (null: the deployment repository)' })),
  branchName: Type.String(),
  output: Type.Enum([...TRANSFORM_OUTPUTS]),
  outputPath: Type.String(),
  trigger: Type.Enum([...TRANSFORM_TRIGGERS]),
  createdBy: Nullable(Type.Integer()),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  finishedAt: Nullable(Timestamp),
  attempts: Type.Integer(),
});
export type TransformSyncJob = Static<typeof TransformSyncJob>;

export const TransformSyncStats = Type.Object({
  models: Type.Integer({ description: 'Models of the dbt project in the manifest' }),
  skippedModels: Type.Integer({ description: 'Disabled or ephemeral models (no cube)' }),
  cubes: Type.Integer(),
  dimensions: Type.Integer(),
  measures: Type.Integer(),
  joins: Type.Integer(),
  primaryKeys: Type.Integer({ description: 'Cubes with a primary key (unique + not_null tests or a primary-key constraint)' }),
  semanticModels: Type.Integer(),
  metrics: Type.Integer({ description: 'dbt metrics that became measures' }),
  files: Type.Integer(),
  dbtVersion: Nullable(Type.String({ description: 'metadata.dbt_version of the manifest' })),
  manifestGeneratedAt: Nullable(Type.String({ description: 'metadata.generated_at of the manifest' })),
  projectName: Nullable(Type.String()),
});

export const GeneratedFileSummary = Type.Object({
  path: Type.String(),
  cube: Type.String(),
  model: Type.String({ description: 'dbt unique id of the model' }),
  status: Type.Enum(['added', 'modified', 'deleted', 'unchanged', 'generated'], {
    description: 'What the commit did to the file (`generated` for output `files`, which commits nothing)',
  }),
});

export const TransformSyncResult = Type.Object({
  syncJobId: Type.String(),
  source: Type.Enum([...TRANSFORM_SOURCES]),
  output: Type.Enum([...TRANSFORM_OUTPUTS]),
  branchName: Type.String(),
  ref: Nullable(Type.String()),
  commit: Nullable(Type.String({ description: 'The commit made (null for output `files` or when nothing changed)' })),
  completedAt: Timestamp,
  durationMs: Type.Integer(),
  stats: TransformSyncStats,
  files: Type.Array(GeneratedFileSummary),
  removedFiles: Type.Array(Type.String({ description: 'Files of an earlier sync whose model is gone, deleted by the commit' })),
  warnings: Type.Array(Type.String()),
  filesExpireAt: Nullable(Timestamp),
});
export type TransformSyncResult = Static<typeof TransformSyncResult>;

export const TransformSyncLogEntry = Type.Object({
  id: Type.Integer(),
  level: Type.Enum(['info', 'warn', 'error']),
  message: Type.String(),
  fields: Nullable(Type.Object({}, { additionalProperties: true })),
  attempt: Type.Integer(),
  createdAt: Timestamp,
});

export const GeneratedFile = Type.Object({
  path: Type.String(),
  content: Type.String(),
  sha256: Type.String(),
  size: Type.Integer({ description: 'Bytes (UTF-8)' }),
});

const SyncParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), syncJobId: Type.String({ minLength: 1, maxLength: 64 }) });

export const startTransformSync = defineRoute({
  method: 'POST',
  path: `${D}/transform-sync`,
  operationId: 'startTransformSync',
  tag: TAG,
  summary: 'Generate cubes from a dbt manifest (in the body, or read from git at a ref)',
  description:
    'Needs SchemaUpdate. Answers 202 with the run ids. `source: manifest` needs `manifest` (400 `INVALID_MANIFEST` when it is not a dbt manifest); ' +
    '`source: git` reads `manifestPath` at `ref` from the repository the deployment is connected to on the repository host, else from the deployment repository. ' +
    '`output: branch` commits to `branchName`; `output: files` commits nothing. A `branchName` that does not exist answers ' +
    '404 `BRANCH_NOT_FOUND` at once (nothing is queued), as pushes and pulls do.',
  params: DeploymentParams,
  body: StartTransformSyncInput,
  status: 202,
  response: TransformSyncStarted,
});

export const listTransformSyncs = defineRoute({
  method: 'GET',
  path: `${D}/transform-sync`,
  operationId: 'listTransformSyncs',
  tag: TAG,
  summary: 'History of transform syncs, newest first',
  params: DeploymentParams,
  query: Type.Object({
    ...PageQuery,
    status: Type.Optional(Type.Array(Type.Enum([...TRANSFORM_SYNC_STATUSES]), { description: 'Only runs in these states (repeat the parameter)' })),
    trigger: Type.Optional(Type.Enum([...TRANSFORM_TRIGGERS])),
  }),
  response: Page(TransformSyncJob),
});

export const getTransformSync = defineRoute({
  method: 'GET',
  path: `${D}/transform-sync/{syncJobId}`,
  operationId: 'getTransformSync',
  tag: TAG,
  summary: 'Status and progress of a transform sync',
  params: SyncParams,
  response: TransformSyncJob,
});

export const cancelTransformSync = defineRoute({
  method: 'DELETE',
  path: `${D}/transform-sync/{syncJobId}`,
  operationId: 'cancelTransformSync',
  tag: TAG,
  summary: 'Cancel a transform sync (a commit already made stays)',
  description: CANCEL_RULE,
  params: SyncParams,
  response: TransformSyncJob,
});

export const getTransformSyncResult = defineRoute({
  method: 'GET',
  path: `${D}/transform-sync/{syncJobId}/result`,
  operationId: 'getTransformSyncResult',
  tag: TAG,
  summary: 'Result of a completed transform sync (409 before it completed)',
  params: SyncParams,
  response: TransformSyncResult,
});

export const getTransformSyncLogs = defineRoute({
  method: 'GET',
  path: `${D}/transform-sync/{syncJobId}/logs`,
  operationId: 'getTransformSyncLogs',
  tag: TAG,
  summary: 'Log of a transform sync, oldest first',
  params: SyncParams,
  query: Type.Object({ ...PageQuery }),
  response: Page(TransformSyncLogEntry),
});

export const listTransformSyncGeneratedFiles = defineRoute({
  method: 'GET',
  path: `${D}/transform-sync/{syncJobId}/generated-files`,
  operationId: 'listTransformSyncGeneratedFiles',
  tag: TAG,
  summary: 'Files generated by an `output: files` run, held one hour after it completed',
  description:
    'Needs read access. 404 `GENERATED_FILES_NOT_FOUND` for a run that committed its files, whose hour has passed, or that is unknown; ' +
    '409 while the run has not completed. Cursor paginated by path.',
  params: SyncParams,
  query: Type.Object({ ...PageQuery }),
  response: Page(GeneratedFile),
});

export const transformSyncRoutes = {
  startTransformSync,
  listTransformSyncs,
  getTransformSync,
  cancelTransformSync,
  getTransformSyncResult,
  getTransformSyncLogs,
  listTransformSyncGeneratedFiles,
};
