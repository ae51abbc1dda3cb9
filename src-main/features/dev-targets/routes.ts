import { devTargetRoutes as contract } from '../../../src-shared/api/dev-targets';
import type { Api } from '../../http/route';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';
import { readVersioned, writeIfUnchanged } from '../../http/preconditions';
import { devTargetOf, getDevTargetRule, updateDevTargetRule } from './rules';

const READ = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
const EDIT = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };

export function registerDevTargetRoutes({ route, ctx }: Api): void {
  // Versioned like the other settings: a save based on a rule changed since answers 409 FILE_CHANGED.
  route(contract.getDevTargetRule, READ, ({ params, reply }) => readVersioned(reply, getDevTargetRule(ctx, params.deploymentId)));
  route(contract.updateDevTargetRule, EDIT, ({ params, body, principal, request, reply }) =>
    writeIfUnchanged(ctx.db, request, reply, 'The dev-target rule', () => getDevTargetRule(ctx, params.deploymentId), () => updateDevTargetRule(ctx, params.deploymentId, body, principal.userId)),
  );
  route(contract.getDevTarget, READ, ({ params, query }) => devTargetOf(ctx, params.deploymentId, query.branchName));
}
