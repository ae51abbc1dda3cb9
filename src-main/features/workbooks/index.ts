/** What other areas may use of the workbooks area (workbooks, dashboards, promotion, access). */
export {
  assertCanManageWorkbook,
  deleteWorkbook,
  findWorkbookByPublicId,
  moveWorkbook,
  requireWorkbook,
  type WorkbookRow,
} from './store';
export { parseDashboard } from './dashboard';
