import type { Api } from '../../http/route';
import { setUpBuilds } from './builds';

/** Builds have no routes of their own (`GET D/build-status` reports them); this sets up the job and the commit hook. */
export function registerBuilds(api: Api): void {
  setUpBuilds(api.ctx);
}
