import type { TenantSettings, TenantSettingsInput } from '../../../src-shared/api/tenant';
import type { ServiceContext } from '../../context';
import { ApiError, invalidField } from '../../http/problem';
import { DEFAULT_APP_SETTINGS, getAppSettings, updateAppSettings, type AppSettings } from '../app';

/** The AI token auto-purchase keys, stored in `tenant.settings` beside the app switches. */
interface AiTokenSettings {
  aiTokensAutoPurchaseEnabled: boolean;
  aiTokensAutoPurchaseThreshold: number;
  aiTokensAutoPurchaseAmount: number | null;
}

/** Set by the platform, not by customers: the balance (dollars) under which tokens are bought. */
export const DEFAULT_AI_TOKENS_AUTO_PURCHASE_THRESHOLD = 10;

const DEFAULT_AI_TOKEN_SETTINGS: AiTokenSettings = {
  aiTokensAutoPurchaseEnabled: false,
  aiTokensAutoPurchaseThreshold: DEFAULT_AI_TOKENS_AUTO_PURCHASE_THRESHOLD,
  aiTokensAutoPurchaseAmount: null,
};

function readStored(ctx: ServiceContext): Record<string, unknown> {
  const row = ctx.db.prepare('SELECT settings FROM tenant WHERE id = 1').get() as { settings: string } | undefined;
  return row ? (JSON.parse(row.settings) as Record<string, unknown>) : {};
}

function aiTokenSettings(ctx: ServiceContext): AiTokenSettings {
  const stored = readStored(ctx);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    aiTokensAutoPurchaseEnabled:
      typeof stored.aiTokensAutoPurchaseEnabled === 'boolean' ? stored.aiTokensAutoPurchaseEnabled : DEFAULT_AI_TOKEN_SETTINGS.aiTokensAutoPurchaseEnabled,
    aiTokensAutoPurchaseThreshold: num(stored.aiTokensAutoPurchaseThreshold) ?? DEFAULT_AI_TOKEN_SETTINGS.aiTokensAutoPurchaseThreshold,
    aiTokensAutoPurchaseAmount: num(stored.aiTokensAutoPurchaseAmount) ?? null,
  };
}

export function getTenantSettings(ctx: ServiceContext): TenantSettings {
  return { ...getAppSettings(ctx), ...aiTokenSettings(ctx) };
}

const isWholeCents = (dollars: number) => Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies a partial update; everything is checked before anything is written, and the app
 * switches and the AI token keys land in one transaction.
 */
export function updateTenantSettings(ctx: ServiceContext, input: TenantSettingsInput): TenantSettings {
  return ctx.db.transaction(() => {
    const current = getTenantSettings(ctx);
    const {
      aiTokensAutoPurchaseEnabled,
      aiTokensAutoPurchaseThreshold,
      aiTokensAutoPurchaseAmount,
      ...appPatch
    } = input;
    if (aiTokensAutoPurchaseThreshold !== undefined && aiTokensAutoPurchaseThreshold !== current.aiTokensAutoPurchaseThreshold) {
      throw new ApiError(
        400,
        'TENANT_SETTING_READ_ONLY',
        `aiTokensAutoPurchaseThreshold is set by the platform and cannot be changed here (it is ${current.aiTokensAutoPurchaseThreshold}). Leave it out, or send it unchanged.`,
        { errors: [{ pointer: '/body/aiTokensAutoPurchaseThreshold', detail: 'read-only' }] },
      );
    }
    if (aiTokensAutoPurchaseAmount !== undefined && aiTokensAutoPurchaseAmount !== null && !isWholeCents(aiTokensAutoPurchaseAmount)) {
      throw invalidField('/body/aiTokensAutoPurchaseAmount', 'A dollar amount has at most two decimals (whole cents).');
    }
    if (appPatch.defaultTimezone !== undefined && !isTimeZone(appPatch.defaultTimezone)) {
      throw invalidField('/body/defaultTimezone', `"${appPatch.defaultTimezone}" is not an IANA time zone.`);
    }
    const enabled = aiTokensAutoPurchaseEnabled ?? current.aiTokensAutoPurchaseEnabled;
    const amount = aiTokensAutoPurchaseAmount === undefined ? current.aiTokensAutoPurchaseAmount : aiTokensAutoPurchaseAmount;
    if (enabled && amount === null) {
      throw new ApiError(400, 'AUTO_PURCHASE_AMOUNT_REQUIRED', 'Automatic AI token purchase needs an aiTokensAutoPurchaseAmount (in dollars).', {
        errors: [{ pointer: '/body/aiTokensAutoPurchaseAmount', detail: 'is required while automatic purchase is on' }],
      });
    }
    const appChanges: Partial<AppSettings> = {};
    for (const [key, value] of Object.entries(appPatch)) {
      if (value !== undefined && key in DEFAULT_APP_SETTINGS) (appChanges as Record<string, unknown>)[key] = value;
    }
    if (Object.keys(appChanges).length > 0) updateAppSettings(ctx, appChanges);
    // Read again: updateAppSettings rewrote the JSON; the other keys of it stay untouched.
    const stored = readStored(ctx);
    stored.aiTokensAutoPurchaseEnabled = enabled;
    stored.aiTokensAutoPurchaseAmount = amount;
    ctx.db.prepare('UPDATE tenant SET settings = ? WHERE id = 1').run(JSON.stringify(stored));
    return getTenantSettings(ctx);
  })();
}
