import { LakehouseErrorCodes as Codes, type PublicationIssue } from '../../../src-shared/api/lakehouse';
import type { MetricViewYaml } from '../../../src-shared/model/generate/metric-view-yaml';
import type { ServiceContext } from '../../context';
import {
  classifyTarget,
  DRYDOCK_PROPERTIES,
  metricViewDefinitionHash,
  metricViewYamlEquals,
  type LakehouseConnector,
  type LakehouseObject,
} from '../../connectors/lakehouse';
import type { TargetName } from './plan';
import { findOwnedTarget, qualifiedTarget } from './targets';

export { planView, targetOf, type TargetName, type TargetSettings, type ViewPlan } from './plan';

export type TargetInspection =
  | { kind: 'absent' }
  | { kind: 'managed'; object: LakehouseObject; unchanged: boolean }
  /** Never written: an unmanaged object, another deployment's, or a drifted one. */
  | { kind: 'refused'; reason: PublicationIssue };

/**
 * What publication may do with a target (spec rule 8): create it when absent, change it only when
 * this deployment wrote it and nobody changed it since; an unmanaged object is never adopted.
 */
export async function inspectTarget(
  ctx: ServiceContext,
  connector: LakehouseConnector,
  deploymentId: number,
  target: TargetName,
  yaml: string | null,
): Promise<TargetInspection> {
  const object = await connector.getObject(target.catalog, target.schema, target.name);
  const owned = findOwnedTarget(ctx, deploymentId, target.catalog, target.schema, target.name);
  const state = classifyTarget(object, { deployment: deploymentId, ...(owned ? { lastWrittenYaml: owned.lastWrittenYaml } : {}) });
  const shown = qualifiedTarget(target);
  switch (state.state) {
    case 'absent':
      return { kind: 'absent' };
    case 'unmanaged':
      return {
        kind: 'refused',
        reason: {
          code: Codes.TARGET_UNMANAGED,
          message: `${shown} already exists and was not created by Drydock (${state.reason}); it is never adopted or overwritten. Choose another target name or remove it.`,
        },
      };
    case 'managed_elsewhere':
      return {
        kind: 'refused',
        reason: {
          code: Codes.TARGET_MANAGED_ELSEWHERE,
          message: `${shown} is published by deployment ${state.deployment || '(unknown)'}, not this one; it is left alone.`,
        },
      };
    case 'drifted':
      return {
        kind: 'refused',
        reason: {
          code: Codes.TARGET_DRIFTED,
          message: `${shown} was changed outside Drydock since it was last published; it is not overwritten. Restore or drop it to publish again.`,
        },
      };
    case 'managed':
      // Unchanged only when the ownership marks match too: a definition written without its
      // properties (a failed second ALTER step) is written again to repair them.
      return { kind: 'managed', object: object!, unchanged: yaml !== null && confirmsWrite(object, deploymentId, yaml) };
  }
}

/** True when the object read back is the definition we wrote, marked as ours. */
export function confirmsWrite(object: LakehouseObject | null, deploymentId: number, yaml: string): boolean {
  if (!object || object.kind !== 'METRIC_VIEW' || !object.definition) return false;
  const properties = object.definition.properties;
  return (
    properties[DRYDOCK_PROPERTIES.managed] === 'true' &&
    properties[DRYDOCK_PROPERTIES.deployment] === String(deploymentId) &&
    properties[DRYDOCK_PROPERTIES.definitionHash] === metricViewDefinitionHash(yaml) &&
    metricViewYamlEquals(object.definition.yaml, yaml)
  );
}

export const issuesOf = (generated: MetricViewYaml): { blockedReasons: PublicationIssue[]; warnings: PublicationIssue[] } => ({
  blockedReasons: generated.blockedReasons.map((i) => ({ code: i.code, message: i.message, ...(i.member ? { member: i.member } : {}) })),
  warnings: generated.warnings.map((i) => ({ code: i.code, message: i.message, ...(i.member ? { member: i.member } : {}) })),
});
