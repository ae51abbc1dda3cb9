// What other areas may use of the dashboard-exports area.
export { registerDashboardExportRoutes } from './routes';
export { EXPORT_KIND as DASHBOARD_EXPORT_KIND } from './exports';
export { renderDashboard, planDashboard, type ExportFormat } from './render';
