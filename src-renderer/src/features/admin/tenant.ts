import type { TenantSettings, TenantSettingsInput } from '../../../../src-shared/api/tenant';

/** The form edits the amount as text, so "12.5" can be typed; the rest as the service has them. */
export type TenantForm = Omit<TenantSettings, 'aiTokensAutoPurchaseAmount'> & { aiTokensAutoPurchaseAmount: string };

export const tenantFormOf = (settings: TenantSettings): TenantForm => ({
  ...settings,
  aiTokensAutoPurchaseAmount: settings.aiTokensAutoPurchaseAmount === null ? '' : String(settings.aiTokensAutoPurchaseAmount),
});

/** Blank → null; otherwise a number, or an error message for the field. */
export function parseAmount(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const value = Number(trimmed);
  return Number.isFinite(value) ? { value } : { error: 'Enter an amount in US dollars, e.g. 25 or 12.50.' };
}

/**
 * The fields that changed, for `PUT /tenant/settings` (left-out fields keep their value). The
 * platform-set threshold is never sent: it is read-only for customers.
 */
export function tenantPatch(current: TenantSettings, form: TenantForm): TenantSettingsInput {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(current) as (keyof TenantSettings)[]) {
    if (key === 'aiTokensAutoPurchaseThreshold' || key === 'aiTokensAutoPurchaseAmount') continue;
    const next = key === 'defaultTimezone' ? form.defaultTimezone.trim() : form[key];
    if (next !== current[key]) patch[key] = next;
  }
  const amount = parseAmount(form.aiTokensAutoPurchaseAmount);
  if ('error' in amount) throw new Error(amount.error);
  if (amount.value !== current.aiTokensAutoPurchaseAmount) patch.aiTokensAutoPurchaseAmount = amount.value;
  return patch as TenantSettingsInput;
}
