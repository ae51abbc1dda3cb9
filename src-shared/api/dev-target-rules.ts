// Dev targets' naming rules: where a push (warehouse semantic views) or a publication (lakehouse
// metric views) made from a user's dev branch writes its objects — a per-user schema
// (`<schema>_DEV_<USER>`) or a per-user name prefix (`DEV_<USER>_<name>`), never the production
// objects. The rule is one per deployment; the functions here are pure so the service and the
// renderer name targets alike. Re-exported by ./dev-targets.ts; a module of its own, without
// schemas, because the main build carries dev-targets.ts's schemas as data
// (scripts/contract-snapshot.js) and takes functions only from modules like this.

export const DEV_TARGET_MODES = ['schema-suffix', 'name-prefix'] as const;
export type DevTargetMode = (typeof DEV_TARGET_MODES)[number];

/** The placeholder a template must contain (once): the user's tag, e.g. `ALICE`. */
export const USER_PLACEHOLDER = '{user}';

export const DEFAULT_DEV_TEMPLATES: Record<DevTargetMode, string> = {
  'schema-suffix': '_DEV_{user}',
  'name-prefix': 'DEV_{user}_',
};
export const DEFAULT_DEV_TARGET_MODE: DevTargetMode = 'schema-suffix';
export const MAX_DEV_TEMPLATE_LENGTH = 64;

export const DevTargetErrorCodes = {
  /** The template lacks `{user}` (or has it more than once): two users would write the same objects (422). */
  DEV_TARGET_TEMPLATE_WITHOUT_USER: 'DEV_TARGET_TEMPLATE_WITHOUT_USER',
  /** The template has characters an unquoted identifier cannot hold, or is too long (422). */
  DEV_TARGET_TEMPLATE_INVALID: 'DEV_TARGET_TEMPLATE_INVALID',
} as const;

export interface DevTargetRule {
  mode: DevTargetMode;
  template: string;
}

/** Why a template cannot name per-user objects, or null when it can. */
export function devTemplateProblem(template: string): { code: string; detail: string } | null {
  const uses = template.split(USER_PLACEHOLDER).length - 1;
  if (uses !== 1) {
    return {
      code: DevTargetErrorCodes.DEV_TARGET_TEMPLATE_WITHOUT_USER,
      detail: `The template "${template}" must contain ${USER_PLACEHOLDER} exactly once, so that each user gets their own objects (found ${uses}).`,
    };
  }
  const rest = template.replace(USER_PLACEHOLDER, '');
  if (template.length > MAX_DEV_TEMPLATE_LENGTH || !/^[A-Za-z0-9_]*$/.test(rest)) {
    return {
      code: DevTargetErrorCodes.DEV_TARGET_TEMPLATE_INVALID,
      detail: `The template "${template}" may hold only letters, digits, underscores and ${USER_PLACEHOLDER}, at most ${MAX_DEV_TEMPLATE_LENGTH} characters.`,
    };
  }
  return null;
}

/**
 * The base tag of a user in object names: the local part of the email, upper-cased, runs of other
 * characters as one `_` (`alice.smith@x.com` → `ALICE_SMITH`). The service appends `_<id>` when an
 * earlier user has the same base tag.
 */
export function baseUserTag(email: string, userId: number): string {
  const local = email.split('@')[0] ?? '';
  const tag = local
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32);
  return tag === '' || /^[0-9]/.test(tag) ? `U${userId}${tag ? `_${tag}` : ''}` : tag;
}

/** Where a dev push or publication writes, from what was asked: schema and name prefix. */
export interface DevPlacement {
  schema: string;
  prefix: string;
}

/**
 * Applies a rule: `schema-suffix` appends the filled template to the schema (`ANALYTICS` →
 * `ANALYTICS_DEV_ALICE`); `name-prefix` keeps the schema and puts the filled template before the
 * requested prefix (`SV_` → `DEV_ALICE_SV_`). `lowerCase` for the lakehouse, whose names are lower case.
 */
export function placeDevTarget(rule: DevTargetRule, userTag: string, requested: DevPlacement, lowerCase = false): DevPlacement {
  const filled = rule.template.replace(USER_PLACEHOLDER, userTag);
  const placed = rule.mode === 'schema-suffix' ? { schema: `${requested.schema}${filled}`, prefix: requested.prefix } : { schema: requested.schema, prefix: `${filled}${requested.prefix}` };
  return lowerCase ? { schema: placed.schema.toLowerCase(), prefix: placed.prefix.toLowerCase() } : placed;
}
