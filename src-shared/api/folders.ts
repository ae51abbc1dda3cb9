import { Type, type Static } from 'typebox';
import { defineRoute, PageQuery, PageWithDeprecatedCount, Timestamp } from './contract';
import { FolderParams } from './embed-access';
import { OrNull, UserRef } from './workbooks';

const TAG = 'Folders';
const D = '/api/v1/deployments/{deploymentId}';

/** Folder names are shown in paths joined by `/`, so they cannot contain one. */
export const FOLDER_NAME_PATTERN = '^[^/]+$';
const FolderName = Type.String({ minLength: 1, maxLength: 255, pattern: FOLDER_NAME_PATTERN });

export const Folder = Type.Object({
  id: Type.Integer(),
  deploymentId: Type.Integer(),
  name: Type.String(),
  parentId: OrNull(Type.Integer()),
  path: Type.String({ description: 'Slash-separated names from the root, e.g. `/Sales/EMEA`' }),
  owner: OrNull(UserRef),
  canManage: Type.Boolean({ description: 'The caller owns the folder or is an admin' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Folder = Static<typeof Folder>;

export const FoldersListResponse = PageWithDeprecatedCount(Folder, 'FoldersListResponse', 'folders matching the filter');
export type FoldersListResponse = Static<typeof FoldersListResponse>;

export const listFolders = defineRoute({
  method: 'GET',
  path: `${D}/folders`,
  operationId: 'listFolders',
  tag: TAG,
  summary: 'Folders of a deployment',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  query: Type.Object({
    ...PageQuery,
    parentId: Type.Optional(Type.Integer({ minimum: 0, description: 'Only the children of this folder (0 = top level)' })),
  }),
  response: FoldersListResponse,
});

export const createFolder = defineRoute({
  method: 'POST',
  path: `${D}/folders`,
  operationId: 'createFolder',
  tag: TAG,
  summary: 'Create a folder',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: Type.Object({ name: FolderName, parentId: Type.Optional(OrNull(Type.Integer({ minimum: 1 }))) }, { additionalProperties: false }),
  status: 201,
  response: Folder,
});

export const getFolder = defineRoute({
  method: 'GET',
  path: `${D}/folders/{folderId}`,
  operationId: 'getFolder',
  tag: TAG,
  summary: 'A folder',
  params: FolderParams,
  response: Folder,
});

export const updateFolder = defineRoute({
  method: 'PUT',
  path: `${D}/folders/{folderId}`,
  operationId: 'updateFolder',
  tag: TAG,
  summary: 'Rename a folder or move it under another one (`parentId: null` = top level)',
  params: FolderParams,
  body: Type.Object({ name: Type.Optional(FolderName), parentId: Type.Optional(OrNull(Type.Integer({ minimum: 1 }))) }, { additionalProperties: false }),
  response: Folder,
});

export const deleteFolder = defineRoute({
  method: 'DELETE',
  path: `${D}/folders/{folderId}`,
  operationId: 'deleteFolder',
  tag: TAG,
  summary: 'Delete an empty folder (owner or admin)',
  params: FolderParams,
  status: 204,
  response: Type.Null(),
});

export const foldersRoutes = { listFolders, createFolder, getFolder, updateFolder, deleteFolder };
