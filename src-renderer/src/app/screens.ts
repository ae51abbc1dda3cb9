import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenProps } from './screen-props';

export type { ScreenProps } from './screen-props';

export interface Screen {
  id: string;
  title: string;
  /** Root path of the screen; deeper paths belong to it too. */
  path: string;
  section: 'Build' | 'Operate';
  icon: 'models' | 'syncs' | 'promotions' | 'admin' | 'deployments';
  component: LazyExoticComponent<ComponentType<ScreenProps>>;
}

/** The navigation, in order. A feature adds itself with one line (each screen loads on first visit). */
export const screens: Screen[] = [
  { id: 'models', title: 'Models', path: '/models', section: 'Build', icon: 'models', component: lazy(() => import('../features/models/ModelsScreen')) },
  { id: 'syncs', title: 'Syncs', path: '/syncs', section: 'Build', icon: 'syncs', component: lazy(() => import('../features/syncs/SyncsScreen')) },
  { id: 'workbooks', title: 'Workbooks', path: '/workbooks', section: 'Build', icon: 'models', component: lazy(() => import('../features/workbooks/WorkbooksScreen')) },
  { id: 'promotions', title: 'Promotions', path: '/promotions', section: 'Build', icon: 'promotions', component: lazy(() => import('../features/promotions/PromotionsScreen')) },
  { id: 'deployments', title: 'Deployments', path: '/deployments', section: 'Operate', icon: 'deployments', component: lazy(() => import('../features/deployments/DeploymentsScreen')) },
  { id: 'admin', title: 'Admin', path: '/admin', section: 'Operate', icon: 'admin', component: lazy(() => import('../features/admin/AdminScreen')) },
];

/** Where `/` leads. */
export const HOME_PATH = '/deployments';

export function screenFor(path: string): Screen | undefined {
  return screens.find((screen) => path === screen.path || path.startsWith(`${screen.path}/`));
}
