import { Type, type Static } from 'typebox';
import { defineRoute, Nullable } from './contract';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';

const TAG = 'Tenant Settings';

/** Dollar amounts: at most two decimals (cents). */
const Dollars = (description: string) => Type.Number({ minimum: 1, maximum: 100000, description: `${description} (US dollars, at most two decimals)` });

export const TenantSettings = Type.Object({
  applyThemeGlobally: Type.Boolean({ description: 'Apply the app theme to every surface, dashboards included' }),
  creatorMode: Type.Boolean(),
  embeddingEnabled: Type.Boolean({ description: 'Signed embedding is enabled for the tenant' }),
  sheetsUi: Type.Boolean(),
  defaultTimezone: Type.String({ description: 'IANA time zone' }),
  allowUserTimezoneOverride: Type.Boolean(),
  dashboardAppsEnabled: Type.Boolean(),
  restrictDataDownload: Type.Boolean(),
  sheetsAgentChatEnabled: Type.Boolean(),
  newUiEnabled: Type.Boolean({ description: 'The tenant uses the new UI' }),
  aiEnabled: Type.Boolean({ description: 'AI features are enabled for the tenant' }),
  scheduledTasksEnabled: Type.Boolean({ description: 'Scheduled agent tasks are enabled for the account' }),
  aiTokensAutoPurchaseEnabled: Type.Boolean({ description: 'Buy AI tokens automatically when the balance falls below the threshold' }),
  aiTokensAutoPurchaseThreshold: Type.Number({
    description: 'Balance (US dollars) under which tokens are bought. Read-only for customers: set by the platform.',
  }),
  aiTokensAutoPurchaseAmount: Nullable(Type.Number({ description: 'How much is bought each time (US dollars); null until chosen' })),
});
export type TenantSettings = Static<typeof TenantSettings>;

export const TenantSettingsInput = Type.Object(
  {
    applyThemeGlobally: Type.Optional(Type.Boolean()),
    creatorMode: Type.Optional(Type.Boolean()),
    embeddingEnabled: Type.Optional(Type.Boolean()),
    sheetsUi: Type.Optional(Type.Boolean()),
    defaultTimezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' })),
    allowUserTimezoneOverride: Type.Optional(Type.Boolean()),
    dashboardAppsEnabled: Type.Optional(Type.Boolean()),
    restrictDataDownload: Type.Optional(Type.Boolean()),
    sheetsAgentChatEnabled: Type.Optional(Type.Boolean()),
    newUiEnabled: Type.Optional(Type.Boolean()),
    aiEnabled: Type.Optional(Type.Boolean()),
    scheduledTasksEnabled: Type.Optional(Type.Boolean()),
    aiTokensAutoPurchaseEnabled: Type.Optional(Type.Boolean({ description: 'Needs an `aiTokensAutoPurchaseAmount`' })),
    aiTokensAutoPurchaseThreshold: Type.Optional(
      Type.Number({ description: 'Read-only: accepted only unchanged (so a GET response can be sent back); any other value is refused with 400' }),
    ),
    aiTokensAutoPurchaseAmount: Type.Optional(Nullable(Dollars('Amount bought each time'))),
  },
  { additionalProperties: false },
);
export type TenantSettingsInput = Static<typeof TenantSettingsInput>;

export const getTenantSettings = defineRoute({
  method: 'GET',
  path: '/api/v1/tenant/settings',
  operationId: 'getTenantSettings',
  tag: TAG,
  summary: 'Tenant-wide settings (admin)',
  description: ETAG_RULE,
  response: TenantSettings,
});

export const updateTenantSettings = defineRoute({
  method: 'PUT',
  path: '/api/v1/tenant/settings',
  operationId: 'updateTenantSettings',
  tag: TAG,
  summary: 'Change tenant-wide settings (admin); fields left out keep their value',
  description: ['`aiTokensAutoPurchaseThreshold` is read-only for customers: sending a different value answers 400 ' +
    '`TENANT_SETTING_READ_ONLY`. Turning auto-purchase on needs an amount (400 `AUTO_PURCHASE_AMOUNT_REQUIRED`).', IF_MATCH_RULE].join(' '),
  body: TenantSettingsInput,
  response: TenantSettings,
});

export const tenantRoutes = { getTenantSettings, updateTenantSettings };
