import * as contract from '../../../src-shared/api/app';
import type { Api } from '../../http/route';
import { readVersioned, writeIfUnchanged } from '../../http/preconditions';
import { getAppConfig, getAppTheme, updateAppTheme } from './app-config';

export function registerAppRoutes(api: Api): void {
  const { ctx } = api;
  const { route } = api;
  // Any signed-in caller, embed sessions included: an embedded app needs the theme and aiPaywalled.
  route(contract.getAppConfig, { credentials: ['user', 'embed'] }, () => getAppConfig(ctx));
  route(contract.getAppTheme, { credentials: ['user', 'embed'] }, ({ reply }) => readVersioned(reply, getAppTheme(ctx)));
  route(contract.updateAppTheme, { access: ['admin'] }, ({ body, request, reply }) =>
    writeIfUnchanged(ctx.db, request, reply, 'The app theme', () => getAppTheme(ctx), () => updateAppTheme(ctx, body)),
  );
}
