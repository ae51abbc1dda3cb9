import * as api from '../../../src-shared/api/tenant';
import type { Api } from '../../http/route';
import { readVersioned, writeIfUnchanged } from '../../http/preconditions';
import { getTenantSettings, updateTenantSettings } from './settings';

export function registerTenantRoutes({ route, ctx }: Api): void {
  route(api.getTenantSettings, { access: ['admin'] }, ({ reply }) => readVersioned(reply, getTenantSettings(ctx)));
  route(api.updateTenantSettings, { access: ['admin'] }, ({ body, request, reply }) =>
    writeIfUnchanged(ctx.db, request, reply, 'The tenant settings', () => getTenantSettings(ctx), () => updateTenantSettings(ctx, body)),
  );
}
