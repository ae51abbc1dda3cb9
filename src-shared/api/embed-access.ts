import { Type, type Static } from 'typebox';
import { defineRoute, Page, PageQuery, Timestamp } from './contract';
import { OrNull, StringEnum, UserRef, WorkbookParams } from './workbooks';

const TAG = 'Dashboard Embed Access';
const D = '/api/v1/deployments/{deploymentId}';

export const EMBED_ACCESS_ACTIONS = ['read', 'none'] as const;
export type EmbedAccessAction = (typeof EMBED_ACCESS_ACTIONS)[number];
export const EMBED_ACCESS_SCOPES = ['tenant', 'allEmbedUsers'] as const;
export type EmbedAccessScope = (typeof EMBED_ACCESS_SCOPES)[number];
export const ACCESS_SOURCES = ['tenant', 'allEmbedUsers', 'folder'] as const;
export type AccessSource = (typeof ACCESS_SOURCES)[number];

export const EMBED_TENANT_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$';
export const EmbedTenantName = Type.String({ pattern: EMBED_TENANT_NAME_PATTERN, description: 'Name of an embed tenant' });

export const EmbedAccessEntry = Type.Object({
  scope: StringEnum(EMBED_ACCESS_SCOPES),
  embedTenantName: OrNull(Type.String({ description: 'Null for the allEmbedUsers entry' })),
  action: StringEnum(EMBED_ACCESS_ACTIONS),
  updatedAt: Timestamp,
  updatedBy: OrNull(UserRef),
});
export type EmbedAccessEntry = Static<typeof EmbedAccessEntry>;

export const WorkbookEmbedAccess = Type.Object({
  workbookId: Type.Integer(),
  entries: Type.Array(EmbedAccessEntry),
});
export type WorkbookEmbedAccess = Static<typeof WorkbookEmbedAccess>;

export const FolderEmbedAccess = Type.Object({
  folderId: Type.Integer(),
  entries: Type.Array(EmbedAccessEntry),
});
export type FolderEmbedAccess = Static<typeof FolderEmbedAccess>;

export const EmbedAccessInput = Type.Object(
  {
    scope: StringEnum(EMBED_ACCESS_SCOPES),
    embedTenantName: Type.Optional(OrNull(EmbedTenantName)),
    action: StringEnum(EMBED_ACCESS_ACTIONS),
  },
  {
    additionalProperties: false,
    description:
      'Sets one entry: for one embed tenant (`scope: tenant` with `embedTenantName`) or for all embed users. ' +
      '`none` is an explicit refusal that overrides broader grants (all embed users, folders).',
  },
);
export type EmbedAccessInput = Static<typeof EmbedAccessInput>;

export const EmbedTenantWorkbook = Type.Object({
  workbookId: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  publicId: Type.String(),
  folderId: OrNull(Type.Integer()),
  folderPath: Type.String(),
  action: StringEnum(['read'] as const),
  accessSource: StringEnum(ACCESS_SOURCES),
  /** The folder whose entry grants access, when `accessSource` is `folder`. */
  sourceFolderId: OrNull(Type.Integer()),
});
export type EmbedTenantWorkbook = Static<typeof EmbedTenantWorkbook>;

export const getWorkbookEmbedAccess = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}/embed-access`,
  operationId: 'getWorkbookEmbedAccess',
  tag: TAG,
  summary: 'Embed access entries of a workbook',
  params: WorkbookParams,
  response: WorkbookEmbedAccess,
});

export const setWorkbookEmbedAccess = defineRoute({
  method: 'PUT',
  path: `${D}/workbooks/{workbookId}/embed-access`,
  operationId: 'setWorkbookEmbedAccess',
  tag: TAG,
  summary: 'Set embed access of a workbook for one embed tenant or for all embed users',
  description: 'Needs manage access to the workbook (its owner or an admin).',
  params: WorkbookParams,
  body: EmbedAccessInput,
  response: WorkbookEmbedAccess,
});

export const FolderParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  folderId: Type.Integer({ minimum: 1 }),
});

export const getFolderEmbedAccess = defineRoute({
  method: 'GET',
  path: `${D}/folders/{folderId}/embed-access`,
  operationId: 'getFolderEmbedAccess',
  tag: TAG,
  summary: 'Embed access entries of a folder (inherited by what it contains)',
  params: FolderParams,
  response: FolderEmbedAccess,
});

export const setFolderEmbedAccess = defineRoute({
  method: 'PUT',
  path: `${D}/folders/{folderId}/embed-access`,
  operationId: 'setFolderEmbedAccess',
  tag: TAG,
  summary: 'Set embed access of a folder for one embed tenant or for all embed users',
  description: 'Workbooks in the folder and its subfolders inherit it unless they have their own entry. Needs the folder’s owner or an admin.',
  params: FolderParams,
  body: EmbedAccessInput,
  response: FolderEmbedAccess,
});

export const listEmbedTenantWorkbooks = defineRoute({
  method: 'GET',
  path: `${D}/embed-tenants/{embedTenantName}/workbooks`,
  operationId: 'listEmbedTenantWorkbooks',
  tag: TAG,
  summary: 'Workbooks an embed tenant can read, and why (admin only)',
  description:
    'Effective access: a workbook’s own entry for the tenant wins, then its entry for all embed users, then the nearest ' +
    'folder’s entries (tenant first). A `none` entry stops the search.',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), embedTenantName: EmbedTenantName }),
  query: Type.Object({
    ...PageQuery,
    accessSource: Type.Optional(StringEnum(ACCESS_SOURCES, { description: 'Only workbooks granted this way' })),
  }),
  response: Page(EmbedTenantWorkbook),
});

export const embedAccessRoutes = {
  getWorkbookEmbedAccess,
  setWorkbookEmbedAccess,
  getFolderEmbedAccess,
  setFolderEmbedAccess,
  listEmbedTenantWorkbooks,
};
