import { Type, type Static } from 'typebox';
import { defineRoute } from './contract';
import { OrNull, StringEnum } from './workbooks';

const TAG = 'Workspace';
const D = '/api/v1/deployments/{deploymentId}';

export const WORKSPACE_ITEM_TYPES = ['FOLDER', 'WORKBOOK', 'REPORT'] as const;
export type WorkspaceItemType = (typeof WORKSPACE_ITEM_TYPES)[number];
export const BULK_MAX_ITEMS = 500;

export const WorkspaceItemRef = Type.Object(
  {
    type: StringEnum(WORKSPACE_ITEM_TYPES),
    id: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);
export type WorkspaceItemRef = Static<typeof WorkspaceItemRef>;

const Items = Type.Array(WorkspaceItemRef, { minItems: 1, maxItems: BULK_MAX_ITEMS });

export const BulkItemResult = Type.Object({
  type: StringEnum(WORKSPACE_ITEM_TYPES),
  id: Type.Integer(),
  status: StringEnum(['SUCCEEDED', 'FAILED'] as const),
  /** Why this item failed; the item is then left exactly as it was. */
  error: OrNull(Type.Object({ status: Type.Integer(), code: Type.String(), detail: Type.String() })),
});
export type BulkItemResult = Static<typeof BulkItemResult>;

export const BulkResult = Type.Object(
  {
    results: Type.Array(BulkItemResult, { description: 'One per item, in request order' }),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
  },
  { description: 'Each item is applied on its own: one failing item never blocks the others' },
);
export type BulkResult = Static<typeof BulkResult>;

export const bulkDeleteWorkspaceItems = defineRoute({
  method: 'POST',
  path: `${D}/workspace/bulk-delete`,
  operationId: 'bulkDeleteWorkspaceItems',
  tag: TAG,
  summary: 'Delete folders, workbooks and reports, reporting failures per item',
  description: 'Items are processed in order; a folder must be empty when its turn comes. Each item needs its owner or an admin.',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: Type.Object({ items: Items }, { additionalProperties: false }),
  response: BulkResult,
});

export const bulkMoveWorkspaceItems = defineRoute({
  method: 'POST',
  path: `${D}/workspace/bulk-move`,
  operationId: 'bulkMoveWorkspaceItems',
  tag: TAG,
  summary: 'Move folders, workbooks and reports into a folder, reporting failures per item',
  description: '`targetFolderId: null` moves to the top level. Each item needs its owner or an admin.',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: Type.Object({ items: Items, targetFolderId: OrNull(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }),
  response: BulkResult,
});

export const workspaceRoutes = { bulkDeleteWorkspaceItems, bulkMoveWorkspaceItems };
