// Every area of the service, in one table. The contract's operations of each area are declared to
// Fastify at start; the area's code (its routes and everything they import) loads on the first
// request to one of them, or in the background soon after start (start time, issue 10; see
// ./areas.ts). An area lists the contract route groups it serves and how to load its registration.
import type { RouteDef } from '../../src-shared/api/contract';
import { accessRoutes } from '../../src-shared/api/access';
import { appRoutes } from '../../src-shared/api/app';
import { dashboardExportsRoutes } from '../../src-shared/api/dashboard-exports';
import { dataModelRoutes } from '../../src-shared/api/data-model';
import { deploymentsRoutes } from '../../src-shared/api/deployments';
import { devTargetRoutes } from '../../src-shared/api/dev-targets';
import { embedAccessRoutes } from '../../src-shared/api/embed-access';
import { embedRoutes, embedTenantRoutes } from '../../src-shared/api/embed';
import { environmentsRoutes } from '../../src-shared/api/environments';
import { eventsRoutes } from '../../src-shared/api/events';
import { foldersRoutes } from '../../src-shared/api/folders';
import { gitHostRoutes } from '../../src-shared/api/git-host';
import { identityRoutes } from '../../src-shared/api/identity';
import { lakehouseRoutes } from '../../src-shared/api/lakehouse';
import { notificationsRoutes } from '../../src-shared/api/notifications';
import { oauthRoutes } from '../../src-shared/api/oauth';
import { profilesRoutes } from '../../src-shared/api/profiles';
import { promotionsRoutes } from '../../src-shared/api/promotions';
import { queryRoutes } from '../../src-shared/api/queries';
import { remoteTransfersRoutes } from '../../src-shared/api/remote-transfers';
import { reportsRoutes } from '../../src-shared/api/reports';
import { reviewRoutes } from '../../src-shared/api/reviews';
import { modelTestRoutes } from '../../src-shared/api/model-tests';
import { scheduledTasksRoutes } from '../../src-shared/api/scheduled-tasks';
import { systemRoutes } from '../../src-shared/api/system';
import { tenantRoutes } from '../../src-shared/api/tenant';
import { transformSyncRoutes } from '../../src-shared/api/transform-sync';
import { usageRoutes } from '../../src-shared/api/usage';
import { userAttributeRoutes } from '../../src-shared/api/user-attributes';
import { warehouseSyncRoutes } from '../../src-shared/api/warehouse-sync';
import { workbooksRoutes } from '../../src-shared/api/workbooks';
import { workspaceRoutes } from '../../src-shared/api/workspace';
import type { Area } from './areas';
import { registerEventHooks } from './events/hooks';
import { registerProfileProxy } from './profiles/proxy-route';
import { registerWorkbookHooks } from './workbooks/hooks';

const ops = (...groups: Record<string, RouteDef>[]): RouteDef[] => groups.flatMap((group) => Object.values(group));
const { listDeploymentPods, getDeploymentBuildStatus, ...deploymentOperations } = deploymentsRoutes;

/**
 * Each area with the operations it registers (its `register…Routes` must register exactly these;
 * the service refuses to start otherwise). `atStart` registers what Fastify takes only before it
 * is ready (app-wide hooks, plugin scopes), from a light module.
 */
export const AREAS: readonly Area[] = [
  { name: 'system', operations: ops(systemRoutes), load: async () => (await import('./system/routes')).registerSystemRoutes },
  { name: 'identity', operations: ops(identityRoutes), load: async () => (await import('./identity/routes')).registerIdentityRoutes },
  { name: 'deployments', operations: ops(deploymentOperations), load: async () => (await import('./deployments/routes')).registerDeploymentsRoutes },
  {
    name: 'environments',
    operations: ops(environmentsRoutes, { listDeploymentPods }),
    load: async () => (await import('./environments/routes')).registerEnvironmentsRoutes,
  },
  { name: 'app', operations: ops(appRoutes), load: async () => (await import('./app/routes')).registerAppRoutes },
  {
    name: 'workbooks',
    operations: ops(workbooksRoutes, promotionsRoutes),
    load: async () => (await import('./workbooks/routes')).registerWorkbookRoutes,
    atStart: registerWorkbookHooks,
  },
  { name: 'folders', operations: ops(foldersRoutes), load: async () => (await import('./folders/routes')).registerFolderRoutes },
  { name: 'reports', operations: ops(reportsRoutes), load: async () => (await import('./reports/routes')).registerReportRoutes },
  { name: 'workspace', operations: ops(workspaceRoutes), load: async () => (await import('./workspace/routes')).registerWorkspaceRoutes },
  { name: 'notifications', operations: ops(notificationsRoutes), load: async () => (await import('./notifications/routes')).registerNotificationRoutes },
  { name: 'embed', operations: ops(embedAccessRoutes), load: async () => (await import('./embed/routes')).registerEmbedAccessRoutes },
  { name: 'data-model', operations: ops(dataModelRoutes), load: async () => (await import('./data-model/routes')).registerDataModelRoutes },
  { name: 'warehouse-sync', operations: ops(warehouseSyncRoutes), load: async () => (await import('./warehouse-sync/routes')).registerWarehouseSyncRoutes },
  { name: 'builds', operations: ops({ getDeploymentBuildStatus }), load: async () => (await import('./builds')).registerBuilds },
  { name: 'lakehouse', operations: ops(lakehouseRoutes), load: async () => (await import('./lakehouse')).registerLakehouseRoutes },
  { name: 'tenant', operations: ops(tenantRoutes), load: async () => (await import('./tenant/routes')).registerTenantRoutes },
  { name: 'user-attributes', operations: ops(userAttributeRoutes), load: async () => (await import('./user-attributes/routes')).registerUserAttributeRoutes },
  { name: 'access', operations: ops(accessRoutes), load: async () => (await import('./access/routes')).registerAccessRoutes },
  { name: 'oauth', operations: ops(oauthRoutes), load: async () => (await import('./oauth/routes')).registerOAuthRoutes },
  { name: 'usage', operations: ops(usageRoutes), load: async () => (await import('./usage/routes')).registerUsageRoutes },
  { name: 'embed-tenants', operations: ops(embedTenantRoutes), load: async () => (await import('./embed-tenants/routes')).registerEmbedTenantRoutes },
  { name: 'embed-sessions', operations: ops(embedRoutes), load: async () => (await import('./embed-sessions/routes')).registerEmbedSessionRoutes },
  { name: 'scheduled-tasks', operations: ops(scheduledTasksRoutes), load: async () => (await import('./scheduled-tasks')).registerScheduledTaskRoutes },
  { name: 'transform-sync', operations: ops(transformSyncRoutes), load: async () => (await import('./transform-sync')).registerTransformSyncRoutes },
  { name: 'git-host', operations: ops(gitHostRoutes), load: async () => (await import('./git-host')).registerGitHostRoutes },
  {
    name: 'dashboard-exports',
    operations: ops(dashboardExportsRoutes),
    load: async () => (await import('./dashboard-exports')).registerDashboardExportRoutes,
  },
  {
    name: 'profiles',
    operations: ops(profilesRoutes, remoteTransfersRoutes),
    load: async () => (await import('./profiles')).registerProfileRoutes,
    atStart: registerProfileProxy,
  },
  { name: 'queries', operations: ops(queryRoutes), load: async () => (await import('./queries')).registerQueryRoutes },
  { name: 'events', operations: ops(eventsRoutes), load: async () => (await import('./events')).registerEventRoutes, atStart: registerEventHooks },
  { name: 'dev-targets', operations: ops(devTargetRoutes), load: async () => (await import('./dev-targets')).registerDevTargetRoutes },
  { name: 'reviews', operations: ops(reviewRoutes), load: async () => (await import('./reviews')).registerReviewRoutes },
  { name: 'model-tests', operations: ops(modelTestRoutes), load: async () => (await import('./model-tests')).registerModelTestRoutes },
];
