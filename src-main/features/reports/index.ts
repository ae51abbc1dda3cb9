/** What other areas may use of the reports area. */
export { countReportsInFolder, deleteReport, moveReport } from './reports';
