// What an embed session does on an embedded dashboard: update it, run its Python, and comment (tag Embed).
import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from '../contract';
import { DashboardFilter } from '../notifications';
import { E } from './parts';

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
    'Runs the published widget’s `config.python` in a sandbox (Pyodide, CPython on WebAssembly, in a process of its own under ' +
    'Node’s permission model; no network, no host files, no processes, none of the service’s environment) with `filters` (the ' +
    'request’s dashboard filters, validated: `is_empty`/`is_not_empty` take no values, the other operators at least one) and ' +
    '`widget` bound as globals. A runner process serves one dashboard only: what a script leaves in it (modules, globals) is seen ' +
    'by that dashboard’s later runs while the runner is kept, never by another dashboard’s. What the script assigns to `result` ' +
    '(JSON-serializable, at most 1 MiB of JSON) is returned with ' +
    'what it printed (at most 64 KiB, cut beyond). A script running longer than 10 s is stopped (422 `PYTHON_TIME_LIMIT`); one ' +
    'needing more than 256 MB gets a MemoryError and is reported 422 `PYTHON_MEMORY_LIMIT`; an exception is 422 `PYTHON_ERROR` ' +
    'with the traceback; a larger result is 422 `PYTHON_RESULT_TOO_LARGE`. 422 `WIDGET_HAS_NO_PYTHON` for a widget without ' +
    'code; 503 `PYTHON_RUNTIME_UNAVAILABLE` when the sandbox cannot start. Embed sessions need signed embedding and read access.',
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
