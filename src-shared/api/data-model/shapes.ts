// The shapes of data-model authoring (branches, files, validation, uploads, branch operations); the
// operations that use them are in files.ts, uploads.ts and branches.ts.
import { Type, type Static } from 'typebox';
import { literals, Nullable, PageInfo, Timestamp } from '../contract';
import { PushReport } from '../git-host';
import { CommitId } from './parts';

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

export const ListedFile = Type.Object({
  ...FileSummary.properties,
  content: Type.Optional(Type.String({ description: 'The file’s text; with `content=true` only' })),
});
export type ListedFile = Static<typeof ListedFile>;

export const FileList = Type.Object({
  items: Type.Array(ListedFile),
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
