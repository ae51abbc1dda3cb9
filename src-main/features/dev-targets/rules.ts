// The per-user target of dev-mode pushes and publications: the deployment's rule (schema suffix or
// name prefix), the users' tags, and the target of a branch. Pushes (warehouse-sync) and
// publications (lakehouse) place their objects with `devPlacementFor`.
import {
  baseUserTag,
  DEFAULT_DEV_TARGET_MODE,
  DEFAULT_DEV_TEMPLATES,
  devTemplateProblem,
  placeDevTarget,
  type DevPlacement,
  type DevTarget,
  type DevTargetRule,
  type DevTargetRuleView,
  type UpdateDevTargetRuleInput,
} from '../../../src-shared/api/dev-targets';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { getBranchHead, personalBranchOwner } from '../data-model';

interface RuleRow {
  deployment_id: number;
  mode: DevTargetRule['mode'];
  template: string;
  updated_by: number | null;
  updated_at: string;
}

const DEFAULT_RULE: DevTargetRule = { mode: DEFAULT_DEV_TARGET_MODE, template: DEFAULT_DEV_TEMPLATES[DEFAULT_DEV_TARGET_MODE] };

function ruleRow(ctx: ServiceContext, deploymentId: number): RuleRow | undefined {
  return ctx.db.prepare('SELECT * FROM dev_target_rules WHERE deployment_id = ?').get(deploymentId) as RuleRow | undefined;
}

export function getDevTargetRule(ctx: ServiceContext, deploymentId: number): DevTargetRuleView {
  const row = ruleRow(ctx, deploymentId);
  return row ? { mode: row.mode, template: row.template, isDefault: false, updatedAt: row.updated_at } : { ...DEFAULT_RULE, isDefault: true, updatedAt: null };
}

/** Saves the rule (422 with a stable code for a template that cannot name per-user objects). */
export function updateDevTargetRule(ctx: ServiceContext, deploymentId: number, input: UpdateDevTargetRuleInput, userId: number | null): DevTargetRuleView {
  const template = input.template ?? DEFAULT_DEV_TEMPLATES[input.mode];
  const problem = devTemplateProblem(template);
  if (problem) throw new ApiError(422, problem.code, problem.detail, { errors: [{ pointer: '/body/template', detail: problem.detail }] });
  const now = ctx.clock.now().toISOString();
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO dev_target_rules (deployment_id, mode, template, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (deployment_id) DO UPDATE SET mode = excluded.mode, template = excluded.template, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      )
      .run(deploymentId, input.mode, template, userId, now);
  })();
  return getDevTargetRule(ctx, deploymentId);
}

/**
 * A user's tag in object names: {@link baseUserTag} of the email, with `_<id>` appended when an
 * earlier user has the same base tag (so two users never share a target, and the first keeps
 * the plain one).
 */
export function userTag(ctx: ServiceContext, userId: number): string {
  const user = ctx.db.prepare('SELECT id, email FROM users WHERE id = ?').get(userId) as { id: number; email: string } | undefined;
  if (!user) return `U${userId}`;
  const base = baseUserTag(user.email, user.id);
  const earlier = ctx.db.prepare('SELECT id, email FROM users WHERE id < ?').all(userId) as { id: number; email: string }[];
  return earlier.some((u) => baseUserTag(u.email, u.id) === base) ? `${base}_${userId}` : base;
}

/** The target of pushes and publications from a branch (404 `BRANCH_NOT_FOUND` for an unknown branch). */
export async function devTargetOf(ctx: ServiceContext, deploymentId: number, branchName: string): Promise<DevTarget> {
  await getBranchHead(ctx, deploymentId, branchName);
  const owner = personalBranchOwner(ctx, deploymentId, branchName);
  const { mode, template } = getDevTargetRule(ctx, deploymentId);
  return {
    branchName,
    isDevBranch: owner !== null,
    ownerUserId: owner,
    userTag: owner === null ? null : userTag(ctx, owner),
    rule: { mode, template },
  };
}

/** What a dev push or publication records: whose target, by which rule, and what was asked. */
export interface DevPlacementRecord {
  ownerUserId: number;
  userTag: string;
  rule: DevTargetRule;
  requested: DevPlacement;
}

/**
 * Where objects asked for at `requested` go when made from `branchName`: unchanged for the deploy
 * branch and shared branches; the owner's per-user schema or prefix for a personal dev branch.
 */
export function devPlacementFor(
  ctx: ServiceContext,
  deploymentId: number,
  branchName: string,
  requested: DevPlacement,
  lowerCase = false,
): { placement: DevPlacement; dev: DevPlacementRecord | null } {
  const owner = personalBranchOwner(ctx, deploymentId, branchName);
  if (owner === null) return { placement: requested, dev: null };
  const { mode, template } = getDevTargetRule(ctx, deploymentId);
  const tag = userTag(ctx, owner);
  const rule = { mode, template };
  return { placement: placeDevTarget(rule, tag, requested, lowerCase), dev: { ownerUserId: owner, userTag: tag, rule, requested } };
}
