// Embed tenants, their users and groups (tag Embed Tenants).
import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from '../contract';
import { EmbedTenantName } from '../embed-access';
import { GroupDescription, GroupName, T } from './parts';

// ---- embed tenants, their users and groups ----------------------------------------------------

export const EmbedTenantSettings = Type.Object({
  enableDashboardComments: Type.Boolean({ description: 'Embed users of the tenant may comment on embedded dashboards' }),
});
export type EmbedTenantSettings = Static<typeof EmbedTenantSettings>;
export const DEFAULT_EMBED_TENANT_SETTINGS: EmbedTenantSettings = { enableDashboardComments: false };

export const EmbedTenant = Type.Object({
  name: Type.String(),
  displayName: Nullable(Type.String()),
  settings: EmbedTenantSettings,
  userCount: Type.Integer(),
  groupCount: Type.Integer(),
  createdAt: Timestamp,
});
export type EmbedTenant = Static<typeof EmbedTenant>;

export const EmbedUser = Type.Object({
  id: Type.Integer(),
  embedTenantName: Type.String(),
  externalId: Type.String({ description: 'The embedding app’s id of the user' }),
  email: Nullable(Type.String()),
  name: Nullable(Type.String()),
  groups: Type.Array(Type.String(), { description: 'Names of the embed groups the user is in' }),
  createdAt: Timestamp,
  lastSessionAt: Nullable(Timestamp),
});
export type EmbedUser = Static<typeof EmbedUser>;

export const EmbedGroup = Type.Object({
  id: Type.Integer(),
  embedTenantName: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  userCount: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type EmbedGroup = Static<typeof EmbedGroup>;

const TenantParams = Type.Object({ embedTenantName: EmbedTenantName });
const GroupParams = Type.Object({ embedTenantName: EmbedTenantName, id: Type.Integer({ minimum: 1 }) });

export const listEmbedTenants = defineRoute({
  method: 'GET',
  path: '/api/v1/embed-tenants/',
  operationId: 'listEmbedTenants',
  tag: T,
  summary: 'List embed tenants (admin)',
  query: Type.Object(PageQuery),
  response: Page(EmbedTenant),
});

export const getEmbedTenant = defineRoute({
  method: 'GET',
  path: '/api/v1/embed-tenants/{embedTenantName}',
  operationId: 'getEmbedTenant',
  tag: T,
  summary: 'Get an embed tenant with its settings (admin)',
  params: TenantParams,
  response: EmbedTenant,
});

export const deleteEmbedTenant = defineRoute({
  method: 'DELETE',
  path: '/api/v1/embed-tenants/{embedTenantName}',
  operationId: 'deleteEmbedTenant',
  tag: T,
  summary: 'Delete an embed tenant (admin): its users, groups, comments and access entries go, and its live sessions are revoked',
  params: TenantParams,
  status: 204,
  response: Type.Null(),
});

export const listEmbedTenantUsers = defineRoute({
  method: 'GET',
  path: '/api/v1/embed-tenants/{embedTenantName}/users',
  operationId: 'listEmbedTenantUsers',
  tag: T,
  summary: 'Embed users of a tenant (admin)',
  params: TenantParams,
  query: Type.Object(PageQuery),
  response: Page(EmbedUser),
});

export const createEmbedGroup = defineRoute({
  method: 'POST',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups',
  operationId: 'createEmbedGroup',
  tag: T,
  summary: 'Create an embed group in a tenant (admin)',
  params: TenantParams,
  status: 201,
  body: Type.Object({ name: GroupName, description: Type.Optional(GroupDescription) }, { additionalProperties: false }),
  response: EmbedGroup,
});

export const listEmbedGroups = defineRoute({
  method: 'GET',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups',
  operationId: 'listEmbedGroups',
  tag: T,
  summary: 'Embed groups of a tenant (admin)',
  params: TenantParams,
  query: Type.Object(PageQuery),
  response: Page(EmbedGroup),
});

export const getEmbedGroup = defineRoute({
  method: 'GET',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups/{id}',
  operationId: 'getEmbedGroup',
  tag: T,
  summary: 'Get an embed group (admin)',
  params: GroupParams,
  response: EmbedGroup,
});

export const updateEmbedGroup = defineRoute({
  method: 'PATCH',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups/{id}',
  operationId: 'updateEmbedGroup',
  tag: T,
  summary: 'Rename or describe an embed group (admin)',
  params: GroupParams,
  body: Type.Object({ name: Type.Optional(GroupName), description: Type.Optional(GroupDescription) }, { additionalProperties: false }),
  response: EmbedGroup,
});

export const deleteEmbedGroup = defineRoute({
  method: 'DELETE',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups/{id}',
  operationId: 'deleteEmbedGroup',
  tag: T,
  summary: 'Delete an embed group (admin)',
  params: GroupParams,
  status: 204,
  response: Type.Null(),
});

export const listEmbedGroupUsers = defineRoute({
  method: 'GET',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups/{id}/users',
  operationId: 'listEmbedGroupUsers',
  tag: T,
  summary: 'Members of an embed group (admin)',
  params: GroupParams,
  query: Type.Object(PageQuery),
  response: Page(EmbedUser),
});

export const addEmbedGroupUsers = defineRoute({
  method: 'POST',
  path: '/api/v1/embed-tenants/{embedTenantName}/groups/{id}/users',
  operationId: 'addEmbedGroupUsers',
  tag: T,
  summary: 'Add embed users of the same tenant to a group (admin); adding a member again changes nothing',
  params: GroupParams,
  body: Type.Object(
    {
      userIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, uniqueItems: true, description: 'Embed user ids' })),
      externalIds: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000, uniqueItems: true, description: 'The embedding app’s user ids' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({ groupId: Type.Integer(), added: Type.Array(Type.Integer()), userIds: Type.Array(Type.Integer()) }),
});

export const embedTenantRoutes = {
  listEmbedTenants,
  getEmbedTenant,
  deleteEmbedTenant,
  listEmbedTenantUsers,
  createEmbedGroup,
  listEmbedGroups,
  getEmbedGroup,
  updateEmbedGroup,
  deleteEmbedGroup,
  listEmbedGroupUsers,
  addEmbedGroupUsers,
};
