import { DEFAULT_PALETTE, type AppConfig, type AppTheme, type AppThemeInput, type Palette } from '../../../src-shared/api/app';
import type { ServiceContext } from '../../context';

/**
 * Tenant-wide UI switches, stored in `tenant.settings` under these keys (the tenant settings
 * area edits them through `updateAppSettings`).
 */
export interface AppSettings {
  applyThemeGlobally: boolean;
  creatorMode: boolean;
  embeddingEnabled: boolean;
  sheetsUi: boolean;
  defaultTimezone: string;
  allowUserTimezoneOverride: boolean;
  dashboardAppsEnabled: boolean;
  restrictDataDownload: boolean;
  sheetsAgentChatEnabled: boolean;
  /** The tenant uses the new UI. */
  newUiEnabled: boolean;
  /** AI features are enabled for the tenant. */
  aiEnabled: boolean;
  /** Scheduled agent tasks may be created and run (403 on their routes otherwise). */
  scheduledTasksEnabled: boolean;
}

export const DEFAULT_APP_SETTINGS: AppSettings = {
  applyThemeGlobally: false,
  creatorMode: false,
  embeddingEnabled: false,
  sheetsUi: false,
  defaultTimezone: 'UTC',
  allowUserTimezoneOverride: true,
  dashboardAppsEnabled: true,
  restrictDataDownload: false,
  sheetsAgentChatEnabled: false,
  newUiEnabled: true,
  aiEnabled: false,
  scheduledTasksEnabled: true,
};

interface StoredTheme {
  palette?: Partial<Palette>;
  logoUrl?: string | null;
}

function readTenant(ctx: ServiceContext): { settings: Record<string, unknown>; theme: StoredTheme } {
  const row = ctx.db.prepare('SELECT settings, app_theme FROM tenant WHERE id = 1').get() as { settings: string; app_theme: string } | undefined;
  return {
    settings: row ? (JSON.parse(row.settings) as Record<string, unknown>) : {},
    theme: row ? (JSON.parse(row.app_theme) as StoredTheme) : {},
  };
}

/** The tenant's app switches, stored values over defaults (values of the wrong type fall back). */
export function getAppSettings(ctx: ServiceContext): AppSettings {
  const stored = readTenant(ctx).settings;
  const result = { ...DEFAULT_APP_SETTINGS };
  for (const key of Object.keys(DEFAULT_APP_SETTINGS) as (keyof AppSettings)[]) {
    const value = stored[key];
    if (typeof value === typeof DEFAULT_APP_SETTINGS[key]) (result as Record<string, unknown>)[key] = value;
  }
  return result;
}

/** Merges `patch` into the stored switches; other keys of `tenant.settings` are left alone. */
export function updateAppSettings(ctx: ServiceContext, patch: Partial<AppSettings>): AppSettings {
  ctx.db.transaction(() => {
    const { settings } = readTenant(ctx);
    for (const [key, value] of Object.entries(patch)) {
      if (!(key in DEFAULT_APP_SETTINGS)) throw new Error(`Unknown app setting ${key}.`);
      if (typeof value !== typeof DEFAULT_APP_SETTINGS[key as keyof AppSettings]) throw new Error(`App setting ${key} has the wrong type.`);
      settings[key] = value;
    }
    ctx.db.prepare('UPDATE tenant SET settings = ? WHERE id = 1').run(JSON.stringify(settings));
  })();
  return getAppSettings(ctx);
}

/** The deprecated light and dark themes, derived from the palette: dark swaps background and text. */
function deriveTheme(palette: Palette, logoUrl: string | null): AppTheme {
  return {
    palette,
    logoUrl,
    light: { primaryColor: palette.primary, accentColor: palette.accent, backgroundColor: palette.background, textColor: palette.foreground, logoUrl },
    dark: { primaryColor: palette.primary, accentColor: palette.accent, backgroundColor: palette.foreground, textColor: palette.background, logoUrl },
  };
}

export function getAppTheme(ctx: ServiceContext): AppTheme {
  const { theme } = readTenant(ctx);
  return deriveTheme({ ...DEFAULT_PALETTE, ...(theme.palette ?? {}) }, theme.logoUrl ?? null);
}

/** Merges the palette colour by colour; `logoUrl: null` removes the logo. */
export function updateAppTheme(ctx: ServiceContext, input: AppThemeInput): AppTheme {
  ctx.db.transaction(() => {
    const { theme } = readTenant(ctx);
    const next: StoredTheme = {
      palette: { ...(theme.palette ?? {}), ...(input.palette ?? {}) },
      logoUrl: input.logoUrl !== undefined ? input.logoUrl : (theme.logoUrl ?? null),
    };
    ctx.db.prepare('UPDATE tenant SET app_theme = ? WHERE id = 1').run(JSON.stringify(next));
  })();
  return getAppTheme(ctx);
}

export function getAppConfig(ctx: ServiceContext): AppConfig {
  const s = getAppSettings(ctx);
  return {
    appTheme: getAppTheme(ctx),
    applyThemeGlobally: s.applyThemeGlobally,
    creatorMode: s.creatorMode,
    embedding: { enabled: s.embeddingEnabled },
    sheetsUi: s.sheetsUi,
    timezoneSettings: { defaultTimezone: s.defaultTimezone, allowUserOverride: s.allowUserTimezoneOverride },
    dashboardAppsEnabled: s.dashboardAppsEnabled,
    restrictDataDownload: s.restrictDataDownload,
    sheetsAgentChatEnabled: s.sheetsAgentChatEnabled,
    // An embed then offers no AI.
    aiPaywalled: s.newUiEnabled && !s.aiEnabled,
  };
}
