import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted, no whitespace, members whose value is `undefined` or `null`
 * dropped (every field of the workspace shapes is optional, and null means the same as absent).
 * Two values that mean the same, whatever key order they were written in, serialise identically.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined && (value as Record<string, unknown>)[key] !== null)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** SHA-256 (hex) of the canonical JSON of a value. */
export const contentHash = (value: unknown): string => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
