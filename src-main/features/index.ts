import type { Api } from '../http/route';
import { registerSystemRoutes } from './system/routes';
import { registerIdentityRoutes } from './identity/routes';

/** Every area's routes. Each area registers itself with one line here. */
export async function registerFeatures(api: Api): Promise<void> {
  registerSystemRoutes(api);
  registerIdentityRoutes(api);
}
