/** What other areas may call on the app configuration (tenant settings edits the switches). */
export { getAppSettings, updateAppSettings, getAppConfig, getAppTheme, DEFAULT_APP_SETTINGS, type AppSettings } from './app-config';
