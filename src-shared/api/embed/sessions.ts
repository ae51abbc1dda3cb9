// Embed sessions: their settings, and generating, exchanging and revoking them (tag Embed).
import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Timestamp } from '../contract';
import { EmbedTenantName } from '../embed-access';
import { E, GroupDescription, GroupName } from './parts';

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
