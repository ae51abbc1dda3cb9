import { Type, type Static } from 'typebox';
import { defineRoute, Nullable } from './contract';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';
import { NullableScalar } from './deployments';

const HexColor = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Hex colour, #RRGGBB' });

export const Palette = Type.Object({
  primary: HexColor,
  accent: HexColor,
  background: HexColor,
  foreground: HexColor,
});
export type Palette = Static<typeof Palette>;

/** The colours a tenant starts with; each pair passes WCAG AA (the accent is 4.9:1 on the background). */
export const DEFAULT_PALETTE: Palette = { primary: '#7A77FF', accent: '#D61F69', background: '#FFFFFF', foreground: '#141446' };

const ThemeMode = Type.Object(
  { primaryColor: HexColor, accentColor: HexColor, backgroundColor: HexColor, textColor: HexColor, logoUrl: Nullable(Type.String()) },
  { deprecated: true, description: 'Deprecated: derived from `palette` (dark swaps background and text)' },
);
export type ThemeMode = Static<typeof ThemeMode>;

export const AppTheme = Type.Object({
  palette: Palette,
  logoUrl: Nullable(Type.String()),
  light: ThemeMode,
  dark: ThemeMode,
});
export type AppTheme = Static<typeof AppTheme>;

export const AppThemeInput = Type.Object(
  {
    palette: Type.Optional(Type.Partial(Palette, { additionalProperties: false, description: 'Merged colour by colour' })),
    logoUrl: Type.Optional(
      NullableScalar(Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$', description: 'http(s) URL of the logo; null removes it' })),
    ),
  },
  { additionalProperties: false },
);
export type AppThemeInput = Static<typeof AppThemeInput>;

export const AppConfig = Type.Object({
  appTheme: AppTheme,
  applyThemeGlobally: Type.Boolean({ description: 'Apply the app theme to every surface, dashboards included' }),
  creatorMode: Type.Boolean(),
  embedding: Type.Object({ enabled: Type.Boolean() }),
  sheetsUi: Type.Boolean(),
  timezoneSettings: Type.Object({ defaultTimezone: Type.String({ description: 'IANA time zone' }), allowUserOverride: Type.Boolean() }),
  dashboardAppsEnabled: Type.Boolean(),
  restrictDataDownload: Type.Boolean(),
  sheetsAgentChatEnabled: Type.Boolean(),
  aiPaywalled: Type.Boolean({ description: 'True when the tenant uses the new UI without AI enabled; an embed then offers no AI' }),
});
export type AppConfig = Static<typeof AppConfig>;

export const getAppConfig = defineRoute({
  method: 'GET',
  path: '/api/v1/app-config',
  operationId: 'getAppConfig',
  tag: 'App Theme',
  summary: 'App theme and tenant-wide UI switches',
  response: AppConfig,
});

export const getAppTheme = defineRoute({
  method: 'GET',
  path: '/api/v1/app-theme',
  operationId: 'getAppTheme',
  tag: 'App Theme',
  summary: 'The app theme (`light` and `dark` are deprecated and derived from `palette`)',
  description: ETAG_RULE,
  response: AppTheme,
});

export const updateAppTheme = defineRoute({
  method: 'PUT',
  path: '/api/v1/app-theme',
  operationId: 'updateAppTheme',
  tag: 'App Theme',
  summary: 'Change the palette and logo (admin)',
  description: ['`palette` is merged colour by colour; `logoUrl: null` removes the logo. `light` and `dark` are derived and cannot be set.', IF_MATCH_RULE].join(' '),
  body: AppThemeInput,
  response: AppTheme,
});

export const appRoutes = { getAppConfig, getAppTheme, updateAppTheme };
