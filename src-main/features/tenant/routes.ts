import * as api from '../../../src-shared/api/tenant';
import type { Api } from '../../http/route';
import { getTenantSettings, updateTenantSettings } from './settings';

export function registerTenantRoutes({ route, ctx }: Api): void {
  route(api.getTenantSettings, { access: ['admin'] }, () => getTenantSettings(ctx));
  route(api.updateTenantSettings, { access: ['admin'] }, ({ body }) => updateTenantSettings(ctx, body));
}
