import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenProps } from './screen-props';

export type { ScreenProps } from './screen-props';

export interface Screen {
  id: string;
  title: string;
  /** Root path of the screen; deeper paths belong to it too. */
  path: string;
  section: 'Build' | 'Operate';
  icon: 'models' | 'workbooks' | 'syncs' | 'promotions' | 'transfers' | 'admin' | 'deployments' | 'profiles';
  component: LazyExoticComponent<ComponentType<ScreenProps>>;
  /**
   * operationIds the screen cannot work without. With a remote profile whose spec lacks one, the
   * screen is disabled and says which (the local service serves them all).
   */
  requires?: readonly string[];
  /** Always about the local service, whichever profile the header shows (e.g. the profiles themselves). */
  localOnly?: boolean;
  /**
   * A workbench fills the window edge to edge and shows the service picker in its own context bar
   * (Models, issue 24): the shell leaves out its header and its content padding.
   */
  workbench?: boolean;
}

/** The navigation, in order. A feature adds itself with one line (each screen loads on first visit). */
export const screens: Screen[] = [
  { id: 'models', title: 'Models', path: '/models', section: 'Build', icon: 'models', component: lazy(() => import('../features/models/ModelsScreen')), requires: ['getDataModelFiles', 'listBranches'], workbench: true },
  { id: 'syncs', title: 'Syncs', path: '/syncs', section: 'Build', icon: 'syncs', component: lazy(() => import('../features/syncs/SyncsScreen')), requires: ['listWarehouseSemanticViewSyncJobs'] },
  { id: 'workbooks', title: 'Workbooks', path: '/workbooks', section: 'Build', icon: 'workbooks', component: lazy(() => import('../features/workbooks/WorkbooksScreen')), requires: ['listWorkbooks', 'getWorkbook'] },
  { id: 'promotions', title: 'Promotions', path: '/promotions', section: 'Build', icon: 'promotions', component: lazy(() => import('../features/promotions/PromotionsScreen')), requires: ['listWorkbooks', 'previewWorkbookPromotion', 'applyWorkbookPromotion'] },
  { id: 'remote-transfers', title: 'To other profiles', path: '/promotions/profiles', section: 'Build', icon: 'transfers', component: lazy(() => import('../features/promotions/RemoteTransfersScreen')), localOnly: true },
  { id: 'deployments', title: 'Deployments', path: '/deployments', section: 'Operate', icon: 'deployments', component: lazy(() => import('../features/deployments/DeploymentsScreen')), requires: ['listDeployments'] },
  { id: 'admin', title: 'Admin', path: '/admin', section: 'Operate', icon: 'admin', component: lazy(() => import('../features/admin/AdminScreen')), requires: ['listUsers'] },
  { id: 'profiles', title: 'Profiles', path: '/profiles', section: 'Operate', icon: 'profiles', component: lazy(() => import('../features/profiles/ProfilesScreen')), localOnly: true },
];

/** Where `/` leads: Models, on the last deployment used (a first run offers the sample project there). */
export const HOME_PATH = '/models';

/** The screen owning a path: the one with the longest matching root (`/promotions/profiles` over `/promotions`). */
export function screenFor(path: string): Screen | undefined {
  return screens
    .filter((screen) => path === screen.path || path.startsWith(`${screen.path}/`))
    .reduce<Screen | undefined>((best, screen) => (!best || screen.path.length > best.path.length ? screen : best), undefined);
}
