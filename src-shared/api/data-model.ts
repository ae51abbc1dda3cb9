import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Page, PageInfo, PageQuery, Timestamp } from './contract';
import { PushReport } from './git-host';
import { MAX_FILE_PATH_LENGTH } from './file-paths';
import { ErrorCodes } from './errors';

export { ALLOWED_FILE_EXTENSIONS, MAX_FILE_PATH_LENGTH, filePathProblem } from './file-paths';

// Data-model authoring under /build/api/v1: model files of a branch, dev mode, branches and their
// operations, validation, and chunked uploads. Files live in a git repository per deployment.
// One module for the spec's two Data Model tags (the contract keeps one module per tag group, so a
// reader finds an operation and its shapes together); the path rule lives in file-paths.ts.

const TAG = 'Data Model';
const UPLOADS_TAG = 'Data Model Uploads';
const D = '/build/api/v1/deployments/{deploymentId}';

// ---- limits and codes ------------------------------------------------------------------------

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_FILES_PER_WRITE = 500;
export const MAX_UPLOAD_FILES = 5000;
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
export const UPLOAD_TTL_HOURS = 24;
export const MAX_COMMIT_MESSAGE_LENGTH = 5000;

export const DataModelErrorCodes = {
  BRANCH_NOT_FOUND: 'BRANCH_NOT_FOUND',
  BRANCH_EXISTS: 'BRANCH_EXISTS',
  BRANCH_NAME_CONFLICT: 'BRANCH_NAME_CONFLICT',
  INVALID_BRANCH_NAME: 'INVALID_BRANCH_NAME',
  BRANCH_NOT_IN_DEV_MODE: 'BRANCH_NOT_IN_DEV_MODE',
  DEV_BRANCH_OF_ANOTHER_USER: 'DEV_BRANCH_OF_ANOTHER_USER',
  NOT_IN_DEV_MODE: 'NOT_IN_DEV_MODE',
  DEPLOY_BRANCH_PROTECTED: 'DEPLOY_BRANCH_PROTECTED',
  BRANCH_HAS_NO_PARENT: 'BRANCH_HAS_NO_PARENT',
  INVALID_PARENT_BRANCH: 'INVALID_PARENT_BRANCH',
  MERGE_INTO_ITSELF: 'MERGE_INTO_ITSELF',
  UNCOMMITTED_CHANGES: 'UNCOMMITTED_CHANGES',
  MERGE_CONFLICT: 'MERGE_CONFLICT',
  USER_REQUIRED: 'USER_REQUIRED',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  FILE_EXISTS: 'FILE_EXISTS',
  FILE_CHANGED: ErrorCodes.FILE_CHANGED,
  INVALID_IF_MATCH: ErrorCodes.INVALID_IF_MATCH,
  INVALID_FILE_PATH: 'INVALID_FILE_PATH',
  FILE_TYPE_NOT_ALLOWED: 'FILE_TYPE_NOT_ALLOWED',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FILE_NOT_TEXT: 'FILE_NOT_TEXT',
  DUPLICATE_PATH: 'DUPLICATE_PATH',
  PATH_CONFLICT: 'PATH_CONFLICT',
  REPOSITORY_BUSY: 'REPOSITORY_BUSY',
  UPLOAD_NOT_FOUND: 'UPLOAD_NOT_FOUND',
  UPLOAD_OF_ANOTHER_USER: 'UPLOAD_OF_ANOTHER_USER',
  UPLOAD_EXPIRED: 'UPLOAD_EXPIRED',
  UPLOAD_FINISHED: 'UPLOAD_FINISHED',
  UPLOAD_TOO_LARGE: 'UPLOAD_TOO_LARGE',
  UPLOAD_MANIFEST_CHANGED: 'UPLOAD_MANIFEST_CHANGED',
  UPLOAD_PATH_NOT_IN_MANIFEST: 'UPLOAD_PATH_NOT_IN_MANIFEST',
  UPLOAD_INCOMPLETE: 'UPLOAD_INCOMPLETE',
  UPLOAD_HASH_MISMATCH: 'UPLOAD_HASH_MISMATCH',
  CHUNK_OUT_OF_RANGE: 'CHUNK_OUT_OF_RANGE',
  CHUNK_TOO_LARGE: 'CHUNK_TOO_LARGE',
  INVALID_CHUNK_DATA: 'INVALID_CHUNK_DATA',
} as const;

// ---- shapes --------------------------------------------------------------------------------

const literals = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Enum(values as unknown as T[number][], description ? { description } : {});

const BranchName = Type.String({ minLength: 1, maxLength: 100, description: 'A git branch name' });
const FilePath = Type.String({
  minLength: 1,
  maxLength: MAX_FILE_PATH_LENGTH,
  description: 'Repository-relative path with `/` separators, e.g. `model/cubes/orders.yml`',
});
const CommitId = Type.String({ description: 'Git commit id (40 hex digits)' });
const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file content, lowercase hex' });
const CommitMessage = Type.String({ minLength: 1, maxLength: MAX_COMMIT_MESSAGE_LENGTH });

const BranchQuery = Type.Object(
  {
    branchName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Branch to act on; default: the caller’s dev-mode branch when in dev mode, else the deploy branch',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BRANCH_KINDS = ['deploy', 'shared', 'personal'] as const;
export type BranchKind = (typeof BRANCH_KINDS)[number];

export const Branch = Type.Object({
  branchName: Type.String(),
  parentBranch: Nullable(Type.String({ description: 'Branch this one was forked from and merges into' })),
  kind: literals(BRANCH_KINDS, '`deploy`: the deploy branch; `shared`: created through the branches API; `personal`: a user’s dev branch'),
  isDeployBranch: Type.Boolean(),
  isDevMode: Type.Boolean({ description: 'Its owner is in dev mode on it; only dev-mode branches accept file edits' }),
  ownerUserId: Nullable(Type.Integer()),
  isStagingEnvironmentEnabled: Type.Boolean({ description: 'An always-on staging environment runs this branch' }),
  headCommit: CommitId,
  hasUncommittedChanges: Type.Boolean(),
  createdAt: Nullable(Timestamp),
  upstream: Nullable(Type.String({ description: 'The branch of the connected repository this branch pulls from and pushes to; null: local only' })),
  ahead: Nullable(
    Type.Integer({
      description: 'Commits the branch has that the upstream (as last fetched) lacks; null when not tracking, or when the upstream branch does not exist on the remote (not pushed yet, or deleted there)',
    }),
  ),
  behind: Nullable(Type.Integer({ description: 'Commits the upstream (as last fetched) has that the branch lacks; null like `ahead`' })),
});
export type Branch = Static<typeof Branch>;

export const CHANGE_STATUSES = ['added', 'modified', 'deleted'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

export const FileChange = Type.Object({
  path: Type.String(),
  status: literals(CHANGE_STATUSES),
  before: Type.Optional(Nullable(Type.String({ description: 'Content before (dry runs only); null when added' }))),
  after: Type.Optional(Nullable(Type.String({ description: 'Content after (dry runs only); null when deleted' }))),
});
export type FileChange = Static<typeof FileChange>;

export const FileSummary = Type.Object({
  path: Type.String(),
  size: Type.Integer({ description: 'Bytes' }),
  sha256: Type.String(),
  uncommitted: Type.Boolean({ description: 'Differs from the branch’s head commit (dev-mode edit)' }),
});
export type FileSummary = Static<typeof FileSummary>;

export const FileList = Type.Object({
  items: Type.Array(FileSummary),
  pageInfo: PageInfo,
  branchName: Type.String(),
  commit: CommitId,
  hasUncommittedChanges: Type.Boolean(),
});
export type FileList = Static<typeof FileList>;

export const FileContent = Type.Object({
  branchName: Type.String(),
  commit: CommitId,
  path: Type.String(),
  content: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  uncommitted: Type.Boolean(),
});
export type FileContent = Static<typeof FileContent>;

export const WorkingState = Type.Object({
  branchName: Type.String(),
  headCommit: CommitId,
  uncommittedChanges: Type.Array(Type.Object({ path: Type.String(), status: literals(CHANGE_STATUSES) })),
});
export type WorkingState = Static<typeof WorkingState>;

export const DIAGNOSTIC_SEVERITIES = ['error', 'warning', 'info'] as const;

export const ModelDiagnostic = Type.Object({
  severity: literals(DIAGNOSTIC_SEVERITIES),
  code: Type.String(),
  message: Type.String(),
  file: Type.String(),
  line: Type.Integer({ description: '1-based' }),
  column: Type.Integer({ description: '1-based' }),
  member: Type.Optional(Type.String({ description: '`cube.member`, or the cube or view name' })),
  frame: Type.Optional(Type.String({ description: 'Code frame around the position' })),
  reason: Type.Optional(Type.String({ description: 'Specific analyzer reason code' })),
});
export type ModelDiagnostic = Static<typeof ModelDiagnostic>;

export const ValidationResult = Type.Object({
  branchName: Type.String(),
  commit: CommitId,
  valid: Type.Boolean({ description: 'False when any diagnostic is an error' }),
  fileCount: Type.Integer({ description: 'Model files compiled' }),
  errorCount: Type.Integer(),
  warningCount: Type.Integer(),
  diagnostics: Type.Array(ModelDiagnostic),
});
export type ValidationResult = Static<typeof ValidationResult>;

export const ByteRange = Type.Object({
  start: Type.Integer({ description: 'First byte (inclusive)' }),
  end: Type.Integer({ description: 'End (exclusive)' }),
});

export const UploadFileStatus = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  receivedBytes: Type.Integer(),
  complete: Type.Boolean(),
  missingRanges: Type.Array(ByteRange),
});
export type UploadFileStatus = Static<typeof UploadFileStatus>;

export const UPLOAD_STATES = ['open', 'finished', 'expired'] as const;

export const UploadStatus = Type.Object({
  uploadId: Type.String(),
  branchName: Type.String(),
  state: literals(UPLOAD_STATES),
  expiresAt: Timestamp,
  complete: Type.Boolean({ description: 'Every byte of every file received' }),
  files: Type.Array(UploadFileStatus),
  deletePaths: Type.Array(Type.String()),
  commit: Nullable(CommitId),
});
export type UploadStatus = Static<typeof UploadStatus>;

export const BRANCH_OPERATION_OUTCOMES = ['committed', 'nothing-to-commit', 'up-to-date', 'fast-forward', 'merged'] as const;
export type BranchOperationOutcome = (typeof BRANCH_OPERATION_OUTCOMES)[number];

export const BranchOperationResult = Type.Object({
  operation: literals(['commit', 'pull', 'merge', 'merge-to-default'] as const),
  branchName: Type.String({ description: 'The branch acted on' }),
  targetBranch: Type.String({ description: 'The branch that receives the commits' }),
  outcome: literals(BRANCH_OPERATION_OUTCOMES),
  dryRun: Type.Boolean(),
  commit: Nullable(CommitId),
  changes: Type.Array(FileChange, { description: 'What changes on the target branch; dry runs carry content before and after' }),
  push: Type.Optional(PushReport),
});
export type BranchOperationResult = Static<typeof BranchOperationResult>;

const PUSH_NOTE =
  ' When the target branch tracks an upstream, the new commit is pushed (fast-forward only) within the request and `push` says whether it ' +
  'reached the remote; a push that fails never undoes the commit (`push.status` `rejected` or `failed` with the reason).';

// ---- files ---------------------------------------------------------------------------------

export const getDataModelFiles = defineRoute({
  method: 'GET',
  path: `${D}/data-model/files`,
  operationId: 'getDataModelFiles',
  tag: TAG,
  summary: 'List the files of a branch, or read one file with `path`',
  description:
    'Dev-mode branches show their uncommitted edits. Needs deployment read access. Reading one file answers its version as `ETag` (the quoted `sha256`), for `If-Match` on writes.',
  params: DeploymentParams,
  query: Type.Object(
    {
      branchName: BranchQuery.properties.branchName,
      path: Type.Optional(FilePath),
      ...PageQuery,
    },
    { additionalProperties: false },
  ),
  response: Type.Union([FileContent, FileList]),
});

export const writeDataModelFiles = defineRoute({
  method: 'PUT',
  path: `${D}/data-model/files`,
  operationId: 'writeDataModelFiles',
  tag: TAG,
  summary: 'Write files on a dev-mode branch (uncommitted until `commit`)',
  description:
    'Only the owner’s dev-mode branch accepts writes; other branches answer 409 `BRANCH_NOT_IN_DEV_MODE`. ' +
    'A file’s `baseSha256` (or, for a one-file write, the `If-Match` header with the ETag its GET answered) names the version the edit was based on ' +
    '(`null`: a new file); when the branch holds another version now, nothing is written and the answer is 409 `FILE_CHANGED` with `files[]` ' +
    '(`path`, `baseSha256`, `currentSha256`).',
  params: DeploymentParams,
  query: BranchQuery,
  body: Type.Object(
    {
      files: Type.Array(
        Type.Object(
          {
            path: FilePath,
            content: Type.String(),
            baseSha256: Type.Optional(
              Nullable(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 of the version this edit was based on; null for a file that must not exist yet' })),
            ),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: MAX_FILES_PER_WRITE },
      ),
    },
    { additionalProperties: false },
  ),
  response: WorkingState,
});

export const deleteDataModelFile = defineRoute({
  method: 'DELETE',
  path: `${D}/data-model/files`,
  operationId: 'deleteDataModelFile',
  tag: TAG,
  summary: 'Delete a file on a dev-mode branch (uncommitted until `commit`)',
  description: 'With `If-Match` (the file’s ETag), a file that changed since answers 409 `FILE_CHANGED` and stays.',
  params: DeploymentParams,
  query: Type.Object({ branchName: BranchQuery.properties.branchName, path: FilePath }, { additionalProperties: false }),
  response: WorkingState,
});

export const renameDataModelFile = defineRoute({
  method: 'POST',
  path: `${D}/data-model/files/rename`,
  operationId: 'renameDataModelFile',
  tag: TAG,
  summary: 'Rename or move a file on a dev-mode branch (uncommitted until `commit`)',
  description: 'With `If-Match` (the ETag of the file at `path`), a file that changed since answers 409 `FILE_CHANGED` and is not moved.',
  params: DeploymentParams,
  query: BranchQuery,
  body: Type.Object({ path: FilePath, newPath: FilePath }, { additionalProperties: false }),
  response: WorkingState,
});

export const validateDataModel = defineRoute({
  method: 'GET',
  path: `${D}/data-model/validate`,
  operationId: 'validateDataModel',
  tag: TAG,
  summary: 'Compile the model files of a branch',
  description: 'Compile errors are a successful answer: 200 with `valid: false` and the diagnostics.',
  params: DeploymentParams,
  query: BranchQuery,
  response: ValidationResult,
});

// ---- uploads -------------------------------------------------------------------------------

export const startDataModelUpload = defineRoute({
  method: 'POST',
  path: `${D}/data-model/upload/start`,
  operationId: 'startDataModelUpload',
  tag: UPLOADS_TAG,
  summary: 'Start (or resume) a chunked upload of model files',
  description:
    'Declares the files to send (size and SHA-256 each) and the paths to remove. Passing the `uploadId` of an open ' +
    'upload with the same manifest resumes it and reports which byte ranges are still missing.',
  params: DeploymentParams,
  body: Type.Object(
    {
      branchName: Type.Optional(BranchName),
      files: Type.Array(
        Type.Object({ path: FilePath, size: Type.Integer({ minimum: 0, maximum: MAX_FILE_BYTES }), sha256: Sha256 }, { additionalProperties: false }),
        { maxItems: MAX_UPLOAD_FILES },
      ),
      deletePaths: Type.Optional(Type.Array(FilePath, { maxItems: MAX_UPLOAD_FILES })),
      message: Type.Optional(CommitMessage),
      uploadId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Resume this upload' })),
    },
    { additionalProperties: false },
  ),
  response: UploadStatus,
});

export const uploadDataModelFileChunk = defineRoute({
  method: 'POST',
  path: `${D}/data-model/upload/file`,
  operationId: 'uploadDataModelFileChunk',
  tag: UPLOADS_TAG,
  summary: 'Send one chunk of a file of an upload',
  description: 'Re-sending a chunk is harmless. The answer tells which ranges of the file are still missing.',
  params: DeploymentParams,
  body: Type.Object(
    {
      uploadId: Type.String({ minLength: 1, maxLength: 64 }),
      path: FilePath,
      offset: Type.Integer({ minimum: 0 }),
      data: Type.String({ description: `Base64 of the chunk bytes (at most ${MAX_CHUNK_BYTES} bytes)`, maxLength: Math.ceil(MAX_CHUNK_BYTES / 3) * 4 + 4 }),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({
    uploadId: Type.String(),
    file: UploadFileStatus,
    uploadComplete: Type.Boolean(),
  }),
});

export const finishDataModelUpload = defineRoute({
  method: 'POST',
  path: `${D}/data-model/upload/finish`,
  operationId: 'finishDataModelUpload',
  tag: UPLOADS_TAG,
  summary: 'Check every file’s SHA-256 and commit all of them to the branch at once',
  description: 'All files appear on the branch in one commit, or none do. Finishing a finished upload answers its result again.' + PUSH_NOTE,
  params: DeploymentParams,
  body: Type.Object({ uploadId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  response: Type.Object({
    uploadId: Type.String(),
    branchName: Type.String(),
    state: literals(UPLOAD_STATES),
    commit: CommitId,
    changed: Type.Boolean({ description: 'False when the branch already had exactly these files' }),
    changes: Type.Array(FileChange),
    push: Type.Optional(PushReport),
  }),
});

export const getDataModelFileHashes = defineRoute({
  method: 'GET',
  path: `${D}/data-model/file-hashes`,
  operationId: 'getDataModelFileHashes',
  tag: UPLOADS_TAG,
  summary: 'SHA-256 of every file of a branch, so a client uploads only what changed',
  params: DeploymentParams,
  query: BranchQuery,
  response: Type.Object({
    branchName: Type.String(),
    commit: CommitId,
    hashes: Type.Record(Type.String(), Type.String(), { description: 'path → SHA-256 (lowercase hex)' }),
  }),
});

// ---- dev mode and branches -----------------------------------------------------------------

export const startDevMode = defineRoute({
  method: 'POST',
  path: `${D}/dev-mode`,
  operationId: 'startDevMode',
  tag: TAG,
  summary: 'Enter dev mode on the caller’s personal dev branch',
  description:
    'Creates the caller’s personal dev branch (`dev-<userId>`, or `dev-<userId>-<parent>` for a parent other than the ' +
    'deploy branch) forked from `branchName` (default the deploy branch), or resumes it. Idempotent.',
  params: DeploymentParams,
  query: BranchQuery,
  response: Type.Object({ created: Type.Boolean(), branch: Branch }),
});

export const stopDevMode = defineRoute({
  method: 'DELETE',
  path: `${D}/dev-mode`,
  operationId: 'stopDevMode',
  tag: TAG,
  summary: 'Leave dev mode; the dev branch and its uncommitted edits are kept for next time',
  params: DeploymentParams,
  response: Type.Object({ isDevMode: Type.Literal(false), branchName: Nullable(Type.String({ description: 'The dev branch left, if any' })) }),
});

export const listBranches = defineRoute({
  method: 'GET',
  path: `${D}/branches`,
  operationId: 'listBranches',
  tag: TAG,
  summary: 'Branches of the deployment’s model repository',
  params: DeploymentParams,
  query: Type.Object({ ...PageQuery }, { additionalProperties: false }),
  response: Page(Branch),
});

export const createBranch = defineRoute({
  method: 'POST',
  path: `${D}/branches`,
  operationId: 'createBranch',
  tag: TAG,
  summary: 'Create a branch from a parent branch',
  params: DeploymentParams,
  body: Type.Object(
    { branchName: BranchName, parentBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the deploy branch' })) },
    { additionalProperties: false },
  ),
  status: 201,
  response: Branch,
});

export const deleteBranch = defineRoute({
  method: 'DELETE',
  path: `${D}/branches`,
  operationId: 'deleteBranch',
  tag: TAG,
  summary: 'Delete a branch; its child branches are re-parented to its parent',
  description:
    'The deploy branch cannot be deleted. `removeOnUpstream=true` also deletes the branch it tracks on the connected repository — only when ' +
    'the remote branch has no commits this branch lacks (409 `PUSH_REJECTED` otherwise: pull first); without a connection 409 ' +
    '`UPSTREAM_NOT_CONNECTED`, for a branch that tracks nothing 409 `BRANCH_HAS_NO_UPSTREAM`, and nothing is deleted then. Deleting a ' +
    'tracking branch without it keeps the remote branch, and later fetches do not bring it back.',
  params: DeploymentParams,
  query: Type.Object(
    { branchName: Type.String({ minLength: 1, maxLength: 100 }), removeOnUpstream: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  response: Type.Object({
    branchName: Type.String(),
    deleted: Type.Literal(true),
    reparentedBranches: Type.Array(Type.String()),
    newParentBranch: Nullable(Type.String()),
    removedOnUpstream: Type.Boolean({ description: 'True when the remote branch was deleted too' }),
  }),
});

export const setBranchStagingEnvironment = defineRoute({
  method: 'PUT',
  path: `${D}/branches/staging-environment`,
  operationId: 'setBranchStagingEnvironment',
  tag: TAG,
  summary: 'Enable or disable the always-on staging environment of a branch',
  description:
    'Enabling creates the branch’s `staging` environment (listed in `GET D/environments`) and builds the branch at its head and on ' +
    'every commit (`GET D/build-status`); disabling removes the environment, revokes its tokens and resets the branch’s build status.',
  params: DeploymentParams,
  body: Type.Object({ branchName: BranchName, isStagingEnvironmentEnabled: Type.Boolean() }, { additionalProperties: false }),
  response: Branch,
});

const branchOperationFields = {
  branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the caller’s dev-mode branch' })),
  message: Type.Optional(CommitMessage),
  dryRun: Type.Optional(Type.Boolean({ description: 'Report the changes (with content) without writing anything' })),
};
const BranchOperationBody = Type.Object(branchOperationFields, { additionalProperties: false });

export const commitBranch = defineRoute({
  method: 'POST',
  path: `${D}/commit`,
  operationId: 'commitBranch',
  tag: TAG,
  summary: 'Commit the uncommitted edits of a dev-mode branch',
  description: 'Author: the caller. `paths` commits only those files’ edits.' + PUSH_NOTE,
  params: DeploymentParams,
  body: Type.Object(
    { ...branchOperationFields, paths: Type.Optional(Type.Array(FilePath, { minItems: 1, maxItems: MAX_UPLOAD_FILES })) },
    { additionalProperties: false },
  ),
  bodyOptional: true,
  response: BranchOperationResult,
});

export const pullBranch = defineRoute({
  method: 'POST',
  path: `${D}/pull`,
  operationId: 'pullBranch',
  tag: TAG,
  summary: 'Bring the parent branch’s new commits into a branch',
  description: '409 `MERGE_CONFLICT` with `conflicts` (paths) when both changed a file differently; nothing is changed then.' + PUSH_NOTE,
  params: DeploymentParams,
  body: BranchOperationBody,
  bodyOptional: true,
  response: BranchOperationResult,
});

export const mergeBranch = defineRoute({
  method: 'POST',
  path: `${D}/merge`,
  operationId: 'mergeBranch',
  tag: TAG,
  summary: 'Merge a branch into its parent branch',
  description: 'Commit first: uncommitted edits answer 409 `UNCOMMITTED_CHANGES`. Conflicts answer 409 `MERGE_CONFLICT` and change nothing.' + PUSH_NOTE,
  params: DeploymentParams,
  body: BranchOperationBody,
  bodyOptional: true,
  response: BranchOperationResult,
});

export const mergeBranchToDefault = defineRoute({
  method: 'POST',
  path: `${D}/merge-to-default`,
  operationId: 'mergeBranchToDefault',
  tag: TAG,
  summary: 'Merge a branch into the deploy branch',
  description: 'Commit first: uncommitted edits answer 409 `UNCOMMITTED_CHANGES`. Conflicts answer 409 `MERGE_CONFLICT` and change nothing.' + PUSH_NOTE,
  params: DeploymentParams,
  body: BranchOperationBody,
  bodyOptional: true,
  response: BranchOperationResult,
});

export const dataModelRoutes = {
  getDataModelFiles,
  writeDataModelFiles,
  deleteDataModelFile,
  renameDataModelFile,
  validateDataModel,
  startDataModelUpload,
  uploadDataModelFileChunk,
  finishDataModelUpload,
  getDataModelFileHashes,
  startDevMode,
  stopDevMode,
  listBranches,
  createBranch,
  deleteBranch,
  setBranchStagingEnvironment,
  commitBranch,
  pullBranch,
  mergeBranch,
  mergeBranchToDefault,
};
