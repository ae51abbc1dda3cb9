/** What other areas may use of the workbooks area (workbooks, dashboards, promotion, access). */
export {
  assertCanManageWorkbook,
  countWorkbooksInFolder,
  deleteWorkbook,
  findWorkbookByPublicId,
  moveWorkbook,
  requireWorkbook,
  type WorkbookRow,
} from './store';
export { canEditDeployment, canManageItem, canReadDeployment, canSeeWorkbook } from './access';
export { parseDashboard } from './dashboard';
export { contentHash } from './hash';
