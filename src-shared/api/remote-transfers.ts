import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';
import { PROFILE_NAME_PATTERN, PROFILE_TAG } from './profiles';
import { PromotableContent, PromotionChanges } from './promotions';
import { OrNull, StringEnum, UserRef, WorkbookParams } from './workbooks';

// Cross-instance transfers (Drydock-specific): promote a workbook of the local service to a
// deployment of a remote profile, and publish a model branch to a remote profile's deployment
// through its upload API. Both run as jobs on the local service; their history stays here, and
// the remote gets what its API can keep of the provenance (a remote Drydock records the origin
// of a promoted workbook; any platform keeps the commit message of a publish).

export const TRANSFER_KINDS = ['workbook-promotion', 'model-publish'] as const;
export const TRANSFER_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const REMOTE_PROVENANCE = ['RECORDED', 'IN_COMMIT_MESSAGE', 'NOT_SUPPORTED', 'NOT_RECORDED'] as const;

export const TransferErrorCodes = {
  TRANSFER_NOT_FOUND: 'TRANSFER_NOT_FOUND',
  TRANSFER_FINISHED: 'TRANSFER_FINISHED',
  REMOTE_SOURCE_CHANGED: 'REMOTE_SOURCE_CHANGED',
  REMOTE_TARGET_CHANGED: 'REMOTE_TARGET_CHANGED',
  REMOTE_WRITE_FAILED: 'REMOTE_WRITE_FAILED',
} as const;

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const ProfileName = Type.String({ pattern: PROFILE_NAME_PATTERN, description: 'The remote profile' });

export const TransferSource = Type.Object({
  deploymentId: Type.Integer(),
  workbookId: Nullable(Type.Integer()),
  slug: Nullable(Type.String()),
  name: Nullable(Type.String()),
  branchName: Nullable(Type.String()),
  /** Workbook content hash, or the commit published. */
  version: Nullable(Type.String({ description: 'Content hash of the workbook, or the commit of the branch, that was sent' })),
});

export const TransferTarget = Type.Object({
  deploymentId: Type.Integer({ description: 'A deployment of the remote service' }),
  workbookId: Nullable(Type.Integer()),
  slug: Nullable(Type.String()),
  name: Nullable(Type.String()),
  branchName: Nullable(Type.String()),
  versionBefore: Nullable(Type.String({ description: 'Content hash or head commit on the remote before (null: created)' })),
  versionAfter: Nullable(Type.String({ description: 'Content hash or head commit on the remote after' })),
});

export const FileChangeSummary = Type.Object({ path: Type.String(), status: StringEnum(['added', 'modified', 'deleted'] as const) });
export type FileChangeSummary = Static<typeof FileChangeSummary>;

export const RemoteTransfer = Type.Object({
  id: Type.String(),
  kind: StringEnum(TRANSFER_KINDS),
  status: StringEnum(TRANSFER_STATUSES),
  profileName: Type.String(),
  remoteBaseUrl: Type.String(),
  remoteSpecVersion: Nullable(Type.String()),
  operation: OrNull(StringEnum(['CREATE', 'UPDATE'] as const)),
  source: TransferSource,
  target: TransferTarget,
  workbookChanges: Nullable(PromotionChanges),
  fileChanges: Type.Array(FileChangeSummary),
  remoteProvenance: OrNull(
    StringEnum(REMOTE_PROVENANCE, {
      description: '`RECORDED`: the remote keeps the origin; `IN_COMMIT_MESSAGE`: the commit names it; `NOT_SUPPORTED`: the remote’s API has no place for it; `NOT_RECORDED`: the remote refused to record it',
    }),
  ),
  rolledBack: Nullable(Type.Boolean({ description: 'After a failure: whether what was already written on the remote was undone' })),
  progress: Type.Object({ stage: Type.String(), percentComplete: Type.Integer({ minimum: 0, maximum: 100 }) }),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  idempotencyKey: Nullable(Type.String()),
  createdBy: OrNull(UserRef),
  createdAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  statusUrl: Type.String(),
});
export type RemoteTransfer = Static<typeof RemoteTransfer>;

const WorkbookSide = Type.Object({ deploymentId: Type.Integer(), workbookId: Nullable(Type.Integer()), slug: Type.String(), name: Type.String() });

export const RemotePromotionPreview = Type.Object({
  profileName: Type.String(),
  remoteBaseUrl: Type.String(),
  operation: StringEnum(['CREATE', 'UPDATE'] as const),
  source: WorkbookSide,
  target: WorkbookSide,
  sourceHash: Sha256,
  targetHash: Nullable(Sha256),
  changes: PromotionChanges,
  sourceContent: PromotableContent,
  targetContent: OrNull(PromotableContent),
  /** What the remote cannot take exactly as previewed (e.g. it cannot unpublish a dashboard). */
  warnings: Type.Array(Type.String()),
});
export type RemotePromotionPreview = Static<typeof RemotePromotionPreview>;

export const RemotePublishPreview = Type.Object({
  profileName: Type.String(),
  remoteBaseUrl: Type.String(),
  source: Type.Object({ deploymentId: Type.Integer(), branchName: Type.String(), commit: Type.String() }),
  target: Type.Object({
    deploymentId: Type.Integer(),
    branchName: Type.String(),
    exists: Type.Boolean({ description: 'False: the branch is created from the remote’s deploy branch' }),
    commit: Nullable(Type.String({ description: 'Head commit of the remote branch now (null when it does not exist)' })),
  }),
  files: Type.Array(FileChangeSummary, { description: 'What the remote branch would change to equal the local one' }),
  unchangedCount: Type.Integer(),
  bytesToSend: Type.Integer(),
  identical: Type.Boolean(),
  /** Files left out (types the upload API refuses, too large) and other things to know before publishing. */
  warnings: Type.Array(Type.String()),
});
export type RemotePublishPreview = Static<typeof RemotePublishPreview>;

const D = '/api/v1/deployments/{deploymentId}';
const B = '/build/api/v1/deployments/{deploymentId}';
const NEEDS = 'Needs admin (profiles hold credentials) with read access to the local deployment; the remote checks its own access.';

const PromotionTargetBody = {
  profileName: ProfileName,
  targetDeploymentId: Type.Integer({ minimum: 1, description: 'Deployment of the remote service' }),
  targetWorkbookId: Type.Optional(
    OrNull(Type.Integer({ minimum: 1, description: 'Default: the one last promoted to there, else the one with the same slug, else a new one' })),
  ),
};

export const previewRemoteWorkbookPromotion = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/remote-promotion-previews`,
  operationId: 'previewRemoteWorkbookPromotion',
  tag: PROFILE_TAG,
  summary: 'What promoting this workbook to a deployment of a remote profile would change (writes nothing)',
  description: NEEDS,
  params: WorkbookParams,
  body: Type.Object(PromotionTargetBody, { additionalProperties: false }),
  response: RemotePromotionPreview,
});

export const startRemoteWorkbookPromotion = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/remote-promotions`,
  operationId: 'startRemoteWorkbookPromotion',
  tag: PROFILE_TAG,
  summary: 'Promote this workbook to a deployment of a remote profile, if both sides are still as previewed (a job)',
  description:
    'Answers 202 with the transfer; poll `statusUrl`. The job fails with `REMOTE_SOURCE_CHANGED` or `REMOTE_TARGET_CHANGED` ' +
    'when a side changed since the preview, and undoes what it wrote on the remote when a later step fails. ' +
    NEEDS,
  params: WorkbookParams,
  body: Type.Object(
    {
      ...PromotionTargetBody,
      sourceHash: Sha256,
      targetHash: OrNull({ ...Sha256, description: 'The preview’s targetHash (null: expected to be created)' } as typeof Sha256),
      idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    },
    { additionalProperties: false },
  ),
  status: 202,
  response: RemoteTransfer,
});

export const listRemoteWorkbookPromotions = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}/remote-promotions`,
  operationId: 'listRemoteWorkbookPromotions',
  tag: PROFILE_TAG,
  summary: 'Promotions of this workbook to remote profiles, newest first',
  params: WorkbookParams,
  query: Type.Object(PageQuery),
  response: Page(RemoteTransfer),
});

const PublishTargetBody = {
  profileName: ProfileName,
  branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Local branch (default: the deploy branch)' })),
  targetDeploymentId: Type.Integer({ minimum: 1, description: 'Deployment of the remote service' }),
  targetBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Remote branch (default: the remote’s deploy branch)' })),
};

export const previewRemoteModelPublish = defineRoute({
  method: 'POST',
  path: `${B}/remote-publish-previews`,
  operationId: 'previewRemoteModelPublish',
  tag: PROFILE_TAG,
  summary: 'What publishing a model branch to a remote profile’s deployment would change (writes nothing)',
  description: NEEDS,
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: Type.Object(PublishTargetBody, { additionalProperties: false }),
  response: RemotePublishPreview,
});

export const startRemoteModelPublish = defineRoute({
  method: 'POST',
  path: `${B}/remote-publishes`,
  operationId: 'startRemoteModelPublish',
  tag: PROFILE_TAG,
  summary: 'Publish a model branch to a remote profile’s deployment through its upload API (a job)',
  description:
    'Sends the changed files with `data-model/upload/start`, `/file` and `/finish` (one commit on the remote, or none), ' +
    'deleting on the remote branch what the local branch does not have. Fails with `REMOTE_SOURCE_CHANGED` / ' +
    '`REMOTE_TARGET_CHANGED` when a branch moved since the preview. ' +
    NEEDS,
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: Type.Object(
    {
      ...PublishTargetBody,
      sourceCommit: Type.String({ pattern: '^[0-9a-f]{40}$', description: 'The preview’s source commit' }),
      targetCommit: Nullable(Type.String({ pattern: '^[0-9a-f]{40}$', description: 'The preview’s target commit (null: branch to be created)' })),
      message: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
      idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    },
    { additionalProperties: false },
  ),
  status: 202,
  response: RemoteTransfer,
});

export const listRemoteTransfers = defineRoute({
  method: 'GET',
  path: '/api/v1/remote-transfers',
  operationId: 'listRemoteTransfers',
  tag: PROFILE_TAG,
  summary: 'Promotions and publishes to remote profiles, newest first',
  description: NEEDS,
  query: Type.Object({
    ...PageQuery,
    kind: Type.Optional(StringEnum(TRANSFER_KINDS)),
    deploymentId: Type.Optional(Type.Integer({ minimum: 1, description: 'Local source deployment' })),
    profileName: Type.Optional(Type.String({ maxLength: 40 })),
  }),
  response: Page(RemoteTransfer),
});

const TransferParams = Type.Object({ transferId: Type.String({ minLength: 1, maxLength: 64 }) });

export const getRemoteTransfer = defineRoute({
  method: 'GET',
  path: '/api/v1/remote-transfers/{transferId}',
  operationId: 'getRemoteTransfer',
  tag: PROFILE_TAG,
  summary: 'Status of a promotion or publish to a remote profile',
  params: TransferParams,
  response: RemoteTransfer,
});

export const cancelRemoteTransfer = defineRoute({
  method: 'DELETE',
  path: '/api/v1/remote-transfers/{transferId}',
  operationId: 'cancelRemoteTransfer',
  tag: PROFILE_TAG,
  summary: 'Cancel a running promotion or publish (what it wrote on the remote is undone); 409 once it finished',
  params: TransferParams,
  response: RemoteTransfer,
});

// ---- the remote side: where a promoted workbook came from -----------------------------------

export const WorkbookRemoteOrigin = Type.Object({
  id: Type.Integer(),
  workbookId: Type.Integer(),
  transferId: Type.String({ description: 'The transfer id on the sending service' }),
  sourceService: Type.String({ description: 'How the sending service describes itself' }),
  sourceDeploymentId: Type.Integer(),
  sourceWorkbookId: Type.Integer(),
  sourceSlug: Type.String(),
  sourceName: Type.String(),
  sourceHash: Sha256,
  contentHash: Sha256,
  modifiedSince: Type.Boolean({ description: 'This workbook changed after the promotion' }),
  recordedBy: OrNull(UserRef),
  recordedAt: Timestamp,
});
export type WorkbookRemoteOrigin = Static<typeof WorkbookRemoteOrigin>;

export const recordWorkbookRemoteOrigin = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/remote-origins`,
  operationId: 'recordWorkbookRemoteOrigin',
  tag: PROFILE_TAG,
  summary: 'Record that this workbook was promoted here from another service (called by that service)',
  description: '409 `REMOTE_TARGET_CHANGED` when the workbook no longer has `contentHash`. Needs manage access to the workbook.',
  params: WorkbookParams,
  body: Type.Object(
    {
      transferId: Type.String({ minLength: 1, maxLength: 64 }),
      sourceService: Type.String({ minLength: 1, maxLength: 500 }),
      sourceDeploymentId: Type.Integer({ minimum: 1 }),
      sourceWorkbookId: Type.Integer({ minimum: 1 }),
      sourceSlug: Type.String({ minLength: 1, maxLength: 128 }),
      sourceName: Type.String({ minLength: 1, maxLength: 255 }),
      sourceHash: Sha256,
      contentHash: Sha256,
    },
    { additionalProperties: false },
  ),
  status: 201,
  response: WorkbookRemoteOrigin,
});

export const listWorkbookRemoteOrigins = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}/remote-origins`,
  operationId: 'listWorkbookRemoteOrigins',
  tag: PROFILE_TAG,
  summary: 'Promotions into this workbook from other services, newest first',
  params: WorkbookParams,
  query: Type.Object(PageQuery),
  response: Page(WorkbookRemoteOrigin),
});

export const remoteTransfersRoutes = {
  previewRemoteWorkbookPromotion,
  startRemoteWorkbookPromotion,
  listRemoteWorkbookPromotions,
  previewRemoteModelPublish,
  startRemoteModelPublish,
  listRemoteTransfers,
  getRemoteTransfer,
  cancelRemoteTransfer,
  recordWorkbookRemoteOrigin,
  listWorkbookRemoteOrigins,
};
