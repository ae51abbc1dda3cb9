import { DEPLOYMENT_TOKEN_MAX_SECONDS, DEPLOYMENT_TOKEN_MIN_SECONDS } from '../../../../src-shared/api/deployments';
import { ENVIRONMENT_TOKEN_SCOPES } from '../../../../src-shared/api/environments';

export type TimeUnit = 'seconds' | 'minutes' | 'hours';
const UNIT_SECONDS: Record<TimeUnit, number> = { seconds: 1, minutes: 60, hours: 3600 };

/** An amount typed in a unit → whole seconds, or a message saying what is wrong. */
export function lifetimeSeconds(amount: string, unit: TimeUnit, min: number, max: number): { seconds: number } | { error: string } {
  const value = Number(amount.trim());
  if (amount.trim() === '' || !Number.isFinite(value) || value <= 0) return { error: 'Enter a positive number.' };
  const seconds = Math.round(value * UNIT_SECONDS[unit]);
  if (seconds < min || seconds > max) return { error: `Between ${describeSeconds(min)} and ${describeSeconds(max)}.` };
  return { seconds };
}

export const deploymentTokenLifetime = (amount: string, unit: TimeUnit) => lifetimeSeconds(amount, unit, DEPLOYMENT_TOKEN_MIN_SECONDS, DEPLOYMENT_TOKEN_MAX_SECONDS);

/** 90 → "1 min 30 s", 86400 → "24 h". */
export function describeSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean).join(' ') || '0 s';
}

export type SecurityContextParse = { value: Record<string, unknown> } | { error: string };

/** The security_context editor's text: blank is `{}`; anything else must be one JSON object. */
export function parseSecurityContext(text: string): SecurityContextParse {
  if (text.trim() === '') return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'The security context must be a JSON object, e.g. {"tenant_id": 42}.' };
  return { value: parsed as Record<string, unknown> };
}

/**
 * The scopes to request: the allowlisted ones ticked, then any extra entries typed (comma or space
 * separated). Extras are sent as typed so the service's own decision (and what it dropped) shows.
 */
export function requestedScopes(ticked: ReadonlySet<string>, extra: string): string[] {
  const scopes = ENVIRONMENT_TOKEN_SCOPES.filter((s) => ticked.has(s)) as string[];
  for (const entry of extra.split(/[\s,]+/)) if (entry && !scopes.includes(entry)) scopes.push(entry);
  return scopes;
}

/** Why a requested scope was not signed, as the service's rules say (for the "dropped" list). */
export function droppedScopeReason(scope: string): string {
  if (scope.startsWith('sql-runner-permissions:')) return 'only the service adds sql-runner-permissions qualifiers';
  if (scope === 'dev-token') return 'never signed';
  if (scope === 'sql-runner') return 'needs SQL Runner read and deployment edit access';
  if (scope === 'meta') return 'needs deployment edit access';
  return 'not an allowlisted scope (meta, sql-runner)';
}

/** Why a security_context key was not signed. */
export const droppedKeyReason = (key: string): string =>
  ['scope', 'scopes', 'dev-token'].includes(key) ? 'reserved: a token never carries it' : 'needs deployment edit access';
