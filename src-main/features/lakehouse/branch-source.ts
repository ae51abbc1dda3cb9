// Which model a preview or run publishes and where: the deploy branch's deployed build to the saved
// targets, or a personal dev branch's head to its owner's per-user schema or name prefix (the
// deployment's dev-target rule), never over the production metric views.
import type { DevTargetPlacement } from '../../../src-shared/api/dev-targets';
import { LakehouseErrorCodes as Codes } from '../../../src-shared/api/lakehouse';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { buildForPublication, startBuild, type BuildRecord } from '../builds';
import { getBranchHead, personalBranchOwner } from '../data-model';
import { getDeployBranch } from '../deployments';
import { devPlacementFor } from '../dev-targets';
import type { TargetSettings } from './plan';

export interface PublicationSource {
  branchName: string;
  /** The build read: the deployed one, or the dev branch head's (queued, running or ended). */
  build: BuildRecord | null;
  devTarget: DevTargetPlacement | null;
}

/**
 * The branch and build a preview or run reads. Without `branchName`, or with the deploy branch:
 * the deployed build. A personal dev branch: a build of its head (the existing one, else a new one).
 * Any other branch: 422 `LAKEHOUSE_BRANCH_NOT_PUBLISHABLE` (it would write over production targets).
 */
export async function publicationSource(
  ctx: ServiceContext,
  deploymentId: number,
  branchName: string | undefined,
  settings: TargetSettings,
  userId: number | null,
): Promise<PublicationSource> {
  const deployBranch = getDeployBranch(ctx, deploymentId);
  if (branchName === undefined || branchName === deployBranch) {
    return { branchName: deployBranch, build: await buildForPublication(ctx, deploymentId, userId), devTarget: null };
  }
  const head = await getBranchHead(ctx, deploymentId, branchName);
  if (personalBranchOwner(ctx, deploymentId, branchName) === null) {
    throw new ApiError(
      422,
      Codes.BRANCH_NOT_PUBLISHABLE,
      `Branch "${branchName}" is neither the deploy branch "${deployBranch}" nor a personal dev branch: publishing it would replace the production metric views. Merge it to "${deployBranch}", or publish from your dev branch.`,
      { errors: [{ pointer: '/body/branchName', detail: 'Publish from the deploy branch or a personal dev branch.' }] },
    );
  }
  return { branchName, build: startBuild(ctx, deploymentId, branchName, head, userId), devTarget: devTargetOf(ctx, deploymentId, branchName, settings) };
}

/** A dev branch's per-user placement of the saved (or requested) target schema and prefix. */
function devTargetOf(ctx: ServiceContext, deploymentId: number, branchName: string, settings: TargetSettings): DevTargetPlacement | null {
  const requested = { schema: settings.targetSchema, prefix: settings.targetNamePrefix ?? '' };
  const { placement, dev } = devPlacementFor(ctx, deploymentId, branchName, requested, true);
  if (!dev) return null;
  return {
    ownerUserId: dev.ownerUserId,
    userTag: dev.userTag,
    mode: dev.rule.mode,
    template: dev.rule.template,
    requestedSchema: requested.schema,
    requestedPrefix: requested.prefix,
    schema: placement.schema,
    prefix: placement.prefix,
  };
}

/**
 * The target settings a dev publication writes with: the per-user schema and prefix; in prefix
 * mode a target-name override gets the per-user part of the prefix too (it would otherwise name
 * the production object).
 */
export function placedSettings<T extends TargetSettings>(settings: T, devTarget: DevTargetPlacement | null): T {
  if (!devTarget) return settings;
  const devPart = devTarget.prefix.slice(0, devTarget.prefix.length - devTarget.requestedPrefix.length);
  const overrides = Object.fromEntries(
    Object.entries(settings.targetNameOverrides ?? {}).map(([view, name]) => [view, devTarget.mode === 'name-prefix' ? `${devPart}${name}`.toLowerCase() : name]),
  );
  return { ...settings, targetSchema: devTarget.schema, targetNamePrefix: devTarget.prefix, targetNameOverrides: overrides };
}
