/** What other areas may use of the workbooks area (workbooks, dashboards, promotion, access). */
export {
  assertCanManageWorkbook,
  deleteWorkbook,
  findWorkbookByPublicId,
  moveWorkbook,
  promotableContent,
  requireWorkbook,
  workbookContentHash,
  type WorkbookRow,
} from './store';
export { checkDashboardFilters, parseDashboard } from './dashboard';
export { changesBetween } from './promotion';
export { dashboardWidgetQueries, type WidgetQuery, type WorkbookViewer } from './widget-queries';
