import { Type, type Static } from 'typebox';
import { defineRoute, Page, PageQuery, Timestamp } from './contract';
import { DashboardConfig, OrNull, StringEnum, UserRef, WorkbookParams } from './workbooks';

const TAG = 'Workbook Promotions';
const D = '/api/v1/deployments/{deploymentId}';

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (hex) of the canonical JSON of the promotable content' });

/**
 * What a promotion compares and copies: name, description, and the draft and published
 * dashboards. Slug, folder, owner, sharing and embed access stay as they are on each side.
 */
export const PromotableContent = Type.Object({
  name: Type.String(),
  description: OrNull(Type.String()),
  dashboardDraft: OrNull(DashboardConfig),
  dashboardPublished: OrNull(DashboardConfig),
});
export type PromotableContent = Static<typeof PromotableContent>;

export const DashboardDiff = Type.Object(
  {
    changed: Type.Boolean(),
    /** The dashboard exists on one side only (`added`: only the source has one). */
    presence: StringEnum(['both', 'neither', 'added', 'removed'] as const),
    widgetsAdded: Type.Array(Type.String(), { description: 'Widget ids only in the source' }),
    widgetsRemoved: Type.Array(Type.String(), { description: 'Widget ids only in the target' }),
    widgetsMoved: Type.Array(Type.String(), { description: 'Widgets whose position or responsive layouts differ' }),
    widgetsChanged: Type.Array(Type.String(), { description: 'Widgets whose type, config or style differ' }),
    themeChanged: Type.Boolean(),
    layoutChanged: Type.Boolean(),
    settingsChanged: Type.Boolean(),
    appChanged: Type.Boolean(),
    /** Top-level config fields (title, description, kind) that differ. */
    fieldsChanged: Type.Array(Type.String()),
  },
  { description: 'How the target dashboard would change (source compared with target)' },
);
export type DashboardDiff = Static<typeof DashboardDiff>;

export const PromotionChanges = Type.Object({
  /** Workbook fields (name, description) that differ. */
  fieldsChanged: Type.Array(Type.String()),
  dashboardDraft: DashboardDiff,
  dashboardPublished: DashboardDiff,
  identical: Type.Boolean({ description: 'Source and target content are already the same' }),
});
export type PromotionChanges = Static<typeof PromotionChanges>;

const WorkbookSide = Type.Object({
  deploymentId: Type.Integer(),
  workbookId: OrNull(Type.Integer({ description: 'Null once that workbook was deleted (history) or before it is created (preview)' })),
  slug: Type.String(),
  name: Type.String(),
});

const PromotionTarget = {
  targetDeploymentId: Type.Integer({ minimum: 1 }),
  targetWorkbookId: Type.Optional(
    OrNull(
      Type.Integer({
        minimum: 1,
        description:
          'Workbook to overwrite in the target deployment. Default: the one this workbook was last promoted to there, else the one with the same slug, else a new one.',
      }),
    ),
  ),
};

export const PromotionPreview = Type.Object({
  operation: StringEnum(['CREATE', 'UPDATE'] as const),
  source: WorkbookSide,
  target: WorkbookSide,
  sourceHash: Sha256,
  targetHash: OrNull({ ...Sha256, description: 'Hash of the target’s current content; null when it would be created' } as typeof Sha256),
  changes: PromotionChanges,
  sourceContent: PromotableContent,
  targetContent: OrNull(PromotableContent),
});
export type PromotionPreview = Static<typeof PromotionPreview>;

export const WorkbookPromotion = Type.Object({
  id: Type.Integer(),
  status: StringEnum(['APPLIED'] as const),
  operation: StringEnum(['CREATE', 'UPDATE'] as const),
  source: WorkbookSide,
  target: WorkbookSide,
  sourceHash: Sha256,
  targetHashBefore: OrNull(Sha256),
  targetHashAfter: Sha256,
  changes: PromotionChanges,
  idempotencyKey: OrNull(Type.String()),
  promotedBy: OrNull(UserRef),
  createdAt: Timestamp,
});
export type WorkbookPromotion = Static<typeof WorkbookPromotion>;

export const PromotionLink = Type.Object({
  targetDeploymentId: Type.Integer(),
  targetWorkbookId: OrNull(Type.Integer()),
  targetSlug: Type.String(),
  targetName: Type.String(),
  promotionCount: Type.Integer(),
  lastPromotionId: Type.Integer(),
  lastPromotedAt: Timestamp,
  lastPromotedBy: OrNull(UserRef),
  /** Content hash the last promotion wrote to the target. */
  promotedHash: Sha256,
  targetCurrentHash: OrNull(Sha256),
  /** The target was edited after the last promotion (null once it was deleted). */
  targetModifiedSince: OrNull(Type.Boolean()),
  /** The source changed after the last promotion: promoting again would change the target. */
  sourceChangedSince: Type.Boolean(),
});
export type PromotionLink = Static<typeof PromotionLink>;

export const PromotionOrigin = Type.Object({
  promotionId: Type.Integer(),
  sourceDeploymentId: Type.Integer(),
  sourceWorkbookId: OrNull(Type.Integer()),
  sourceSlug: Type.String(),
  sourceName: Type.String(),
  promotedAt: Timestamp,
  promotedBy: OrNull(UserRef),
  sourceHash: Sha256,
  /** This workbook was edited after that promotion. */
  modifiedSincePromotion: Type.Boolean(),
  /** The source changed after that promotion (null once the source was deleted). */
  sourceChangedSince: OrNull(Type.Boolean()),
});
export type PromotionOrigin = Static<typeof PromotionOrigin>;

export const WorkbookProvenance = Type.Object({
  deploymentId: Type.Integer(),
  workbookId: Type.Integer(),
  contentHash: Sha256,
  promotedFrom: OrNull(PromotionOrigin),
  promotedTo: Type.Array(PromotionLink),
});
export type WorkbookProvenance = Static<typeof WorkbookProvenance>;

export const previewWorkbookPromotion = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/promotion-previews`,
  operationId: 'previewWorkbookPromotion',
  tag: TAG,
  summary: 'What promoting this workbook to a deployment would change (stores nothing)',
  description: 'Needs a workspace session or an API key, plus read access to both deployments.',
  params: WorkbookParams,
  body: Type.Object(PromotionTarget, { additionalProperties: false }),
  response: PromotionPreview,
});

export const applyWorkbookPromotion = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/promotions`,
  operationId: 'applyWorkbookPromotion',
  tag: TAG,
  summary: 'Promote this workbook to a deployment, if it is still what was previewed',
  description:
    'Applies atomically, and only if `sourceHash` (from the preview) still matches the source; otherwise 409 ' +
    '`PROMOTION_SOURCE_CHANGED`. With `targetHash` it also refuses (409 `PROMOTION_TARGET_CHANGED`) when the target ' +
    'changed since the preview. A repeat with the same `idempotencyKey` returns the first result. Needs a workspace ' +
    'session or an API key, plus read access to the source and edit access to the target deployment.',
  params: WorkbookParams,
  body: Type.Object({
    ...PromotionTarget,
    sourceHash: Sha256,
    targetHash: Type.Optional(OrNull({ ...Sha256, description: 'The preview’s targetHash (null: expected to be created)' } as typeof Sha256)),
    idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  }, { additionalProperties: false }),
  status: 201,
  response: WorkbookPromotion,
});

export const getWorkbookProvenance = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}/promotion`,
  operationId: 'getWorkbookPromotionProvenance',
  tag: TAG,
  summary: 'Where this workbook was promoted from, and where to',
  params: WorkbookParams,
  response: WorkbookProvenance,
});

export const listWorkbookPromotions = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}/promotions`,
  operationId: 'listWorkbookPromotions',
  tag: TAG,
  summary: 'Promotions from and to this workbook, newest first',
  params: WorkbookParams,
  query: Type.Object(PageQuery),
  response: Page(WorkbookPromotion),
});

export const listWorkbookPromotionLinks = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}/promotion-links`,
  operationId: 'listWorkbookPromotionLinks',
  tag: TAG,
  summary: 'Workbooks this one has been promoted to',
  params: WorkbookParams,
  query: Type.Object(PageQuery),
  response: Page(PromotionLink),
});

export const promotionsRoutes = {
  previewWorkbookPromotion,
  applyWorkbookPromotion,
  getWorkbookProvenance,
  listWorkbookPromotions,
  listWorkbookPromotionLinks,
};
