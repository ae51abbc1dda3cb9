/** What other areas may use of the notifications area. */
export { notificationsByWorkbook, type WorkbookNotification } from './by-workbook';
