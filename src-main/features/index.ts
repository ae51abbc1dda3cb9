import type { Api } from '../http/route';
import { registerSystemRoutes } from './system/routes';
import { registerIdentityRoutes } from './identity/routes';
import { registerDeploymentsRoutes } from './deployments/routes';
import { registerEnvironmentsRoutes } from './environments/routes';
import { registerAppRoutes } from './app/routes';
import { registerWorkbookRoutes } from './workbooks/routes';
import { registerFolderRoutes } from './folders/routes';
import { registerReportRoutes } from './reports/routes';
import { registerWorkspaceRoutes } from './workspace/routes';
import { registerNotificationRoutes } from './notifications/routes';
import { registerEmbedAccessRoutes } from './embed/routes';
import { registerDataModelRoutes } from './data-model/routes';
import { registerWarehouseSyncRoutes } from './warehouse-sync/routes';
import { registerBuilds } from './builds';
import { registerLakehouseRoutes } from './lakehouse';
import { registerTenantRoutes } from './tenant/routes';
import { registerUserAttributeRoutes } from './user-attributes/routes';
import { registerAccessRoutes } from './access/routes';
import { registerOAuthRoutes } from './oauth/routes';
import { registerUsageRoutes } from './usage/routes';
import { registerEmbedTenantRoutes } from './embed-tenants/routes';
import { registerEmbedSessionRoutes } from './embed-sessions/routes';

/** Every area's routes. Each area registers itself with one line here. */
export async function registerFeatures(api: Api): Promise<void> {
  registerSystemRoutes(api);
  registerIdentityRoutes(api);
  registerDeploymentsRoutes(api);
  registerEnvironmentsRoutes(api);
  registerAppRoutes(api);
  registerWorkbookRoutes(api);
  registerFolderRoutes(api);
  registerReportRoutes(api);
  registerWorkspaceRoutes(api);
  registerNotificationRoutes(api);
  registerEmbedAccessRoutes(api);
  registerDataModelRoutes(api);
  registerWarehouseSyncRoutes(api);
  registerBuilds(api);
  registerLakehouseRoutes(api);
  registerTenantRoutes(api);
  registerUserAttributeRoutes(api);
  registerAccessRoutes(api);
  registerOAuthRoutes(api);
  registerUsageRoutes(api);
  registerEmbedTenantRoutes(api);
  registerEmbedSessionRoutes(api);
}
