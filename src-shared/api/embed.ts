import { DashboardFilter } from './notifications';
import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';
import { EmbedTenantName } from './embed-access';

// The spec's embedding tag group (embed sessions and embed tenants with their users and groups),
// which share the tenant and filter shapes. One module per tag group, as every contract module
// (README, Adding to the service); that is why it passes 500 lines.

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
const GroupName = Type.String({ minLength: 1, maxLength: 255 });
const GroupDescription = Nullable(Type.String({ maxLength: 2000 }));
const T = 'Embed Tenants';

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

// ---- embed sessions ---------------------------------------------------------------------------

export const EmbedSessionSettings = Type.Object({
  showDashboardChat: Type.Boolean(),
  allowAi: Type.Boolean({ description: 'False disables every AI surface; enforced server-side' }),
  showAiWidgets: Type.Boolean(),
  showWorkbookChat: Type.Boolean(),
  allowChatWorkspaceAuthoring: Type.Boolean(),
  locale: Nullable(Type.String()),
  timezone: Nullable(Type.String()),
  showWorkbookShare: Type.Boolean(),
  showDashboardSettings: Type.Boolean(),
  showMemberNames: Type.Boolean(),
  showGroupByCube: Type.Boolean(),
});
export type EmbedSessionSettings = Static<typeof EmbedSessionSettings>;

export const DEFAULT_EMBED_SESSION_SETTINGS: EmbedSessionSettings = {
  showDashboardChat: true,
  allowAi: true,
  showAiWidgets: true,
  showWorkbookChat: true,
  allowChatWorkspaceAuthoring: false,
  locale: null,
  timezone: null,
  showWorkbookShare: false,
  showDashboardSettings: false,
  showMemberNames: true,
  showGroupByCube: false,
};

/** The settings that are AI surfaces: all forced off when AI is not allowed. */
export const AI_SURFACE_SETTINGS = ['showDashboardChat', 'showAiWidgets', 'showWorkbookChat', 'allowChatWorkspaceAuthoring'] as const;

export const EmbedSessionSettingsInput = Type.Object(
  {
    showDashboardChat: Type.Optional(Type.Boolean()),
    allowAi: Type.Optional(Type.Boolean()),
    showAiWidgets: Type.Optional(Type.Boolean()),
    showWorkbookChat: Type.Optional(Type.Boolean()),
    allowChatWorkspaceAuthoring: Type.Optional(Type.Boolean()),
    locale: Type.Optional(Nullable(Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language tag' }))),
    timezone: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' }))),
    showWorkbookShare: Type.Optional(Type.Boolean()),
    showDashboardSettings: Type.Optional(Type.Boolean()),
    showMemberNames: Type.Optional(Type.Boolean()),
    showGroupByCube: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, description: 'Left-out keys take their defaults' },
);
export type EmbedSessionSettingsInput = Static<typeof EmbedSessionSettingsInput>;

const E = 'Embed';

export const GenerateEmbedSessionInput = Type.Object(
  {
    deploymentId: Type.Integer({ minimum: 1, description: 'Deployment the session opens' }),
    embedTenantName: EmbedTenantName,
    externalId: Type.String({ minLength: 1, maxLength: 255, description: 'The embedding app’s id of the user' }),
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
    name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    settings: Type.Optional(EmbedSessionSettingsInput),
    tenantGroups: Type.Optional(
      Type.Array(GroupName, {
        maxItems: 200,
        uniqueItems: true,
        description: 'Embed groups the user is in (replaces the user’s memberships); each must exist or be defined in `tenantGroupDefinitions`',
      }),
    ),
    tenantGroupDefinitions: Type.Optional(
      Type.Array(Type.Object({ name: GroupName, description: Type.Optional(GroupDescription) }, { additionalProperties: false }), {
        maxItems: 200,
        description: 'Embed groups to create (or re-describe) in the tenant',
      }),
    ),
    embedTenantProfile: Type.Optional(
      Type.Object(
        {
          displayName: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
          settings: Type.Optional(Type.Object({ enableDashboardComments: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    branchName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Omitted or the production branch: production. Another branch must be running (400) and must exist (404).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type GenerateEmbedSessionInput = Static<typeof GenerateEmbedSessionInput>;

export const generateEmbedSession = defineRoute({
  method: 'POST',
  path: '/api/v1/embed/generate-session',
  operationId: 'generateEmbedSession',
  tag: E,
  summary: 'Create an embed session for a user of an embed tenant (admin, embedding enabled); returns a one-time session id',
  description:
    'The tenant and the user are created on first use. The session id is exchanged once, within ten minutes, through ' +
    '`POST /api/v1/embed/session/token`.',
  body: GenerateEmbedSessionInput,
  response: Type.Object({
    sessionId: Type.String({ description: 'One-time credential; treat it as a secret' }),
    expiresAt: Timestamp,
    embedTenantName: Type.String(),
    deploymentId: Type.Integer(),
    branchName: Type.String(),
    embedUserId: Type.Integer(),
  }),
});

const SessionIdBody = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });

export const exchangeEmbedSession = defineRoute({
  method: 'POST',
  path: '/api/v1/embed/session/token',
  operationId: 'exchangeEmbedSessionToken',
  tag: E,
  summary: 'Exchange an embed session id, once, for an embed bearer token (expires within 24 hours)',
  description: 'The session id is the credential (no Authorization header). A used, expired or revoked id answers 401.',
  auth: 'public',
  body: SessionIdBody,
  response: Type.Object({
    token: Type.String(),
    expiresAt: Timestamp,
    embedTenantName: Type.String(),
    deploymentId: Type.Integer(),
    branchName: Type.String(),
    settings: EmbedSessionSettings,
  }),
});

export const revokeEmbedSession = defineRoute({
  method: 'POST',
  path: '/api/v1/embed/session/revoke',
  operationId: 'revokeEmbedSession',
  tag: E,
  summary: 'Revoke an embed session (admin, embedding enabled); 204 also for unknown, expired or already revoked ids',
  description:
    'An unexchanged id can no longer be redeemed; the token of an exchanged session is refused with 401 afterwards. ' +
    'An older token without the revocation claim keeps working until it expires.',
  body: SessionIdBody,
  status: 204,
  response: Type.Null(),
});

// ---- embedded dashboards ----------------------------------------------------------------------

const DashboardParams = Type.Object({ publicId: Type.String({ minLength: 1, maxLength: 128 }) });

export const EmbedDashboard = Type.Object({
  publicId: Type.String(),
  workbookId: Type.Integer(),
  deploymentId: Type.Integer(),
  signedEmbeddingEnabled: Type.Boolean(),
  updatedAt: Nullable(Timestamp),
});

export const updateEmbedDashboard = defineRoute({
  method: 'PATCH',
  path: '/api/v1/embed/dashboard/{publicId}',
  operationId: 'updateEmbedDashboard',
  tag: E,
  summary: 'Enable or disable signed embedding of a dashboard (admin)',
  params: DashboardParams,
  body: Type.Object({ signedEmbeddingEnabled: Type.Boolean() }, { additionalProperties: false }),
  response: EmbedDashboard,
});

export const runEmbedDashboardPython = defineRoute({
  method: 'POST',
  path: '/api/v1/embed/dashboard/{publicId}/python-run',
  operationId: 'runEmbedDashboardPython',
  tag: E,
  summary: 'Run a dashboard’s Python widget with the session’s filters',
  description:
    'Runs the published widget’s `config.python` in a sandbox (Pyodide, CPython on WebAssembly, on a worker thread; no network, ' +
    'no host files) with `filters` (the request’s dashboard filters, validated: `is_empty`/`is_not_empty` take no values, the ' +
    'other operators at least one) and `widget` bound as globals. What the script assigns to `result` (JSON-serializable) is ' +
    'returned with what it printed. A script running longer than 10 s is stopped (422 `PYTHON_TIME_LIMIT`); one needing more ' +
    'than 256 MB gets a MemoryError and is reported 422 `PYTHON_MEMORY_LIMIT`; an exception is 422 `PYTHON_ERROR` with the ' +
    'traceback. 422 `WIDGET_HAS_NO_PYTHON` for a widget without code. Embed sessions need signed embedding and read access.',
  params: DashboardParams,
  body: Type.Object(
    {
      widgetId: Type.String({ minLength: 1, maxLength: 128 }),
      filters: Type.Optional(Type.Array(DashboardFilter, { maxItems: 200 })),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({
    widgetId: Type.String(),
    result: Type.Unknown({ description: 'The JSON value the script assigned to `result` (null when it set none)' }),
    stdout: Type.String({ description: 'What the script printed' }),
    filters: Type.Array(Type.Object({ member: Type.String(), operator: Type.String(), values: Type.Array(Type.String()) }), {
      description: 'The filters the script received',
    }),
    durationMs: Type.Integer(),
  }),
});

const EmbedUserRef = Type.Object({ id: Type.Integer(), name: Nullable(Type.String()), email: Nullable(Type.String()) });

export const EmbedComment = Type.Object({
  id: Type.Integer(),
  dashboardPublicId: Type.String(),
  body: Type.String(),
  widgetId: Nullable(Type.String()),
  author: EmbedUserRef,
  mentions: Type.Array(EmbedUserRef),
  resolved: Type.Boolean(),
  resolvedAt: Nullable(Timestamp),
  resolvedBy: Nullable(EmbedUserRef),
  canEdit: Type.Boolean({ description: 'The caller wrote it (only the author edits, deletes or resolves)' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type EmbedComment = Static<typeof EmbedComment>;

const CommentParams = Type.Object({ publicId: DashboardParams.properties.publicId, commentId: Type.Integer({ minimum: 1 }) });
const CommentBody = Type.String({ minLength: 1, maxLength: 5000 });
const Mentions = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 50, uniqueItems: true, description: 'Embed user ids of the same tenant' });
const COMMENTS_NOTE = 'Needs a signed embed session of a tenant whose `enableDashboardComments` is on; comments are visible only within the tenant.';

export const listEmbedComments = defineRoute({
  method: 'GET',
  path: '/api/v1/embed/dashboard/{publicId}/comments',
  operationId: 'listEmbedDashboardComments',
  tag: E,
  summary: 'Comments on an embedded dashboard',
  description: COMMENTS_NOTE,
  params: DashboardParams,
  query: Type.Object({ ...PageQuery, includeResolved: Type.Optional(Type.Boolean({ description: 'Default true' })) }),
  response: Page(EmbedComment),
});

export const createEmbedComment = defineRoute({
  method: 'POST',
  path: '/api/v1/embed/dashboard/{publicId}/comments',
  operationId: 'createEmbedDashboardComment',
  tag: E,
  summary: 'Comment on an embedded dashboard',
  description: COMMENTS_NOTE,
  params: DashboardParams,
  status: 201,
  body: Type.Object(
    { body: CommentBody, widgetId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 128 }))), mentions: Type.Optional(Mentions) },
    { additionalProperties: false },
  ),
  response: EmbedComment,
});

export const updateEmbedComment = defineRoute({
  method: 'PATCH',
  path: '/api/v1/embed/dashboard/{publicId}/comments/{commentId}',
  operationId: 'updateEmbedDashboardComment',
  tag: E,
  summary: 'Edit a comment (author only)',
  description: COMMENTS_NOTE,
  params: CommentParams,
  body: Type.Object({ body: Type.Optional(CommentBody), mentions: Type.Optional(Mentions) }, { additionalProperties: false }),
  response: EmbedComment,
});

export const deleteEmbedComment = defineRoute({
  method: 'DELETE',
  path: '/api/v1/embed/dashboard/{publicId}/comments/{commentId}',
  operationId: 'deleteEmbedDashboardComment',
  tag: E,
  summary: 'Delete a comment (author only)',
  description: COMMENTS_NOTE,
  params: CommentParams,
  status: 204,
  response: Type.Null(),
});

export const resolveEmbedComment = defineRoute({
  method: 'POST',
  path: '/api/v1/embed/dashboard/{publicId}/comments/{commentId}/resolve',
  operationId: 'resolveEmbedDashboardComment',
  tag: E,
  summary: 'Resolve a comment, or reopen it with `resolved: false` (author only)',
  description: COMMENTS_NOTE,
  params: CommentParams,
  body: Type.Object({ resolved: Type.Optional(Type.Boolean({ description: 'Default true' })) }, { additionalProperties: false }),
  bodyOptional: true,
  response: EmbedComment,
});

export const listMentionableUsers = defineRoute({
  method: 'GET',
  path: '/api/v1/embed/dashboard/{publicId}/mentionable-users',
  operationId: 'listEmbedDashboardMentionableUsers',
  tag: E,
  summary: 'Embed users of the caller’s tenant who can be mentioned',
  description: COMMENTS_NOTE,
  params: DashboardParams,
  query: Type.Object({ ...PageQuery, search: Type.Optional(Type.String({ maxLength: 200 })) }),
  response: Page(EmbedUserRef),
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

export const embedRoutes = {
  generateEmbedSession,
  exchangeEmbedSession,
  revokeEmbedSession,
  updateEmbedDashboard,
  runEmbedDashboardPython,
  listEmbedComments,
  createEmbedComment,
  updateEmbedComment,
  deleteEmbedComment,
  resolveEmbedComment,
  listMentionableUsers,
};
