import { createHash } from 'node:crypto';
import { canonicalMetricView, LakehouseError, metricViewYamlEquals, type LakehouseObject } from './types';

/** TBLPROPERTIES through which a target records that Drydock owns it. */
export const DRYDOCK_PROPERTIES = {
  managed: 'drydock.managed',
  deployment: 'drydock.deployment',
  view: 'drydock.view',
  definitionHash: 'drydock.definition_hash',
} as const;

/**
 * A stable hash of what a definition means (its canonical parsed form), so a property
 * written with one layout still matches the same definition read back in another.
 */
export function metricViewDefinitionHash(yaml: string): string {
  let canonical: unknown;
  try {
    canonical = canonicalMetricView(yaml);
  } catch (error) {
    throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `The metric view YAML does not parse: ${messageOf(error)}`, {
      cause: error,
    });
  }
  return 'sha256:' + createHash('sha256').update(stableJson(canonical)).digest('hex');
}

/** The properties to write with a definition so a later run can recognise it as ours. */
export function ownershipProperties(input: { deployment: string | number; view: string; yaml: string }): Record<string, string> {
  return {
    [DRYDOCK_PROPERTIES.managed]: 'true',
    [DRYDOCK_PROPERTIES.deployment]: String(input.deployment),
    [DRYDOCK_PROPERTIES.view]: input.view,
    [DRYDOCK_PROPERTIES.definitionHash]: metricViewDefinitionHash(input.yaml),
  };
}

export type TargetState =
  /** Nothing by that name: free to create. */
  | { state: 'absent' }
  /** Something not written by Drydock (a table, a plain view, or a metric view without our marks): never touched. */
  | { state: 'unmanaged'; reason: string }
  /** Written by Drydock for another deployment: also never touched. */
  | { state: 'managed_elsewhere'; deployment: string }
  /** Ours, and its definition is what we last wrote. */
  | { state: 'managed' }
  /** Ours, but someone changed the definition since we wrote it: refused. */
  | { state: 'drifted' };

/**
 * Decides what publication may do with an existing target. Drift means the remote definition,
 * compared parsed, is neither what the recorded hash says we wrote nor (when the caller knows
 * it) the YAML its own store says it last wrote; the latter covers a write whose follow-up
 * property update failed.
 */
export function classifyTarget(
  object: LakehouseObject | null,
  expected: { deployment: string | number; lastWrittenYaml?: string },
): TargetState {
  if (object === null) return { state: 'absent' };
  if (object.kind !== 'METRIC_VIEW' || object.definition === undefined) {
    return { state: 'unmanaged', reason: `it is a ${object.kind === 'TABLE' ? 'table' : 'view'}, not a metric view` };
  }
  const properties = object.definition.properties;
  if (properties[DRYDOCK_PROPERTIES.managed] !== 'true') {
    return { state: 'unmanaged', reason: 'it is a metric view Drydock did not create' };
  }
  const deployment = properties[DRYDOCK_PROPERTIES.deployment] ?? '';
  if (deployment !== String(expected.deployment)) return { state: 'managed_elsewhere', deployment };
  const remoteYaml = object.definition.yaml;
  const recordedHash = properties[DRYDOCK_PROPERTIES.definitionHash];
  if (recordedHash !== undefined && hashOrNull(remoteYaml) === recordedHash) return { state: 'managed' };
  if (expected.lastWrittenYaml !== undefined && metricViewYamlEquals(remoteYaml, expected.lastWrittenYaml)) {
    return { state: 'managed' };
  }
  return { state: 'drifted' };
}

function hashOrNull(yaml: string): string | null {
  try {
    return metricViewDefinitionHash(yaml);
  } catch {
    return null;
  }
}

/** JSON with object keys sorted, so equal values always serialise identically. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, current: unknown) => {
    if (current !== null && typeof current === 'object' && !Array.isArray(current) && !(current instanceof Date)) {
      const record = current as Record<string, unknown>;
      return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
    }
    return current;
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
