import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('developer'), Type.Literal('viewer')]);

/** Policy actions a user can be granted on top of the role (`-Action` withdraws one). */
export const PolicyAction = Type.String({ pattern: '^-?[A-Za-z]+$', description: 'e.g. SchemaUpdate, SqlRunnerRead, SecretsManage, DownloadData, ChatHistoryRead' });

export const User = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  active: Type.Boolean(),
  userPolicies: Type.Array(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type User = Static<typeof User>;

const SheetsSettings = Type.Object({}, { additionalProperties: true, description: 'Sheets add-in settings, merged field by field' });
export const UserSettings = Type.Object(
  {
    sheets: Type.Optional(Nullable(SheetsSettings)),
    locale: Type.Optional(Nullable(Type.String())),
    timezone: Type.Optional(Nullable(Type.String())),
    theme: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: true },
);

export const Me = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  userPolicies: Type.Array(Type.String(), {
    description:
      'Every policy action the caller holds: those of the access policies attached to them or to a group they are in ' +
      '(`/api/v1/policies`), then their own (`-Action` withdraws one), each once.',
  }),
  settings: UserSettings,
  via: Type.String({ description: 'How the caller authenticated: apiKey, workspace, deployment, embed, oauth' }),
});

const UserIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const getMe = defineRoute({
  method: 'GET',
  path: '/api/v1/users/me',
  operationId: 'getCurrentUser',
  tag: 'Users',
  summary: 'The calling user, with userPolicies',
  response: Me,
});

export const updateMySettings = defineRoute({
  method: 'PATCH',
  path: '/api/v1/users/me/settings',
  operationId: 'updateCurrentUserSettings',
  tag: 'Users',
  summary: 'Partially merge the calling user’s settings',
  description: '`sheets` merges field by field; `null` clears it. `lastSeenChangelogId` is deprecated and ignored.',
  body: Type.Object(
    {
      sheets: Type.Optional(Nullable(SheetsSettings)),
      locale: Type.Optional(Nullable(Type.String({ maxLength: 35 }))),
      timezone: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
      theme: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
      lastSeenChangelogId: Type.Optional(Type.Unknown({ deprecated: true })),
    },
    { additionalProperties: false },
  ),
  response: UserSettings,
});

export const listUsers = defineRoute({
  method: 'GET',
  path: '/api/v1/users/',
  operationId: 'listUsers',
  tag: 'Users Admin',
  summary: 'List users (admin)',
  query: Type.Object({ ...PageQuery, search: Type.Optional(Type.String({ maxLength: 200 })) }),
  response: Page(User),
});

const UserInput = {
  email: Type.String({ format: 'email', maxLength: 320 }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  role: Role,
  userPolicies: Type.Optional(Type.Array(PolicyAction, { maxItems: 50 })),
};

export const createUser = defineRoute({
  method: 'POST',
  path: '/api/v1/users/',
  operationId: 'createUser',
  tag: 'Users Admin',
  summary: 'Create a user (admin)',
  status: 201,
  body: Type.Object(UserInput, { additionalProperties: false }),
  response: User,
});

export const getUser = defineRoute({
  method: 'GET',
  path: '/api/v1/users/{id}',
  operationId: 'getUser',
  tag: 'Users Admin',
  summary: 'Get a user (admin)',
  params: UserIdParams,
  response: User,
});

export const updateUser = defineRoute({
  method: 'PUT',
  path: '/api/v1/users/{id}',
  operationId: 'updateUser',
  tag: 'Users Admin',
  summary: 'Update a user (admin)',
  params: UserIdParams,
  body: Type.Object(
    {
      email: Type.Optional(UserInput.email),
      name: Type.Optional(UserInput.name),
      role: Type.Optional(Role),
      active: Type.Optional(Type.Boolean()),
      userPolicies: Type.Optional(Type.Array(PolicyAction, { maxItems: 50 })),
    },
    { additionalProperties: false },
  ),
  response: User,
});

export const deleteUser = defineRoute({
  method: 'DELETE',
  path: '/api/v1/users/{id}',
  operationId: 'deleteUser',
  tag: 'Users Admin',
  summary: 'Delete a user (admin)',
  params: UserIdParams,
  status: 204,
  response: Type.Null(),
});

export const BulkUserAction = Type.Union([Type.Literal('DEACTIVATE'), Type.Literal('ACTIVATE'), Type.Literal('DELETE')]);

export const bulkUsers = defineRoute({
  method: 'POST',
  path: '/api/v1/users/bulk',
  operationId: 'bulkUpdateUsers',
  tag: 'Users Admin',
  summary: 'Activate, deactivate or delete many users, with per-user failure reporting (admin)',
  body: Type.Object(
    { action: BulkUserAction, userIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }) },
    { additionalProperties: false },
  ),
  response: Type.Object({
    succeeded: Type.Array(Type.Integer()),
    failed: Type.Array(Type.Object({ userId: Type.Integer(), code: Type.String(), detail: Type.String() })),
  }),
});

export const ApiKeyResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the key, to recognise it' }),
  userId: Type.Integer(),
  createdAt: Timestamp,
  lastUsedAt: Nullable(Timestamp),
});
export const ApiKeyCreatedResponse = Type.Object({
  ...ApiKeyResponse.properties,
  token: Type.String({ description: 'The key itself. Shown only in this response; stored only as a SHA-256 hash.' }),
});
export const ApiKeysListResponse = Page(ApiKeyResponse);
export const CreateApiKeyInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    userId: Type.Optional(Type.Integer({ minimum: 1, description: 'Owner; defaults to the caller' })),
  },
  { additionalProperties: false },
);

const KeyIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const listApiKeys = defineRoute({
  method: 'GET',
  path: '/api/v1/api-keys',
  operationId: 'listApiKeys',
  tag: 'API Keys',
  summary: 'List API keys (admin); secrets are never returned',
  query: Type.Object(PageQuery),
  response: ApiKeysListResponse,
});
export const createApiKey = defineRoute({
  method: 'POST',
  path: '/api/v1/api-keys',
  operationId: 'createApiKey',
  tag: 'API Keys',
  summary: 'Create an API key (admin); the response is the only place the key appears',
  status: 201,
  body: CreateApiKeyInput,
  response: ApiKeyCreatedResponse,
});
export const getApiKey = defineRoute({
  method: 'GET',
  path: '/api/v1/api-keys/{id}',
  operationId: 'getApiKey',
  tag: 'API Keys',
  summary: 'Get an API key (admin), without its secret',
  params: KeyIdParams,
  response: ApiKeyResponse,
});
export const deleteApiKey = defineRoute({
  method: 'DELETE',
  path: '/api/v1/api-keys/{id}',
  operationId: 'deleteApiKey',
  tag: 'API Keys',
  summary: 'Revoke an API key (admin)',
  params: KeyIdParams,
  status: 204,
  response: Type.Null(),
});

export const identityRoutes = {
  getMe,
  updateMySettings,
  listUsers,
  createUser,
  getUser,
  updateUser,
  deleteUser,
  bulkUsers,
  listApiKeys,
  createApiKey,
  getApiKey,
  deleteApiKey,
};
