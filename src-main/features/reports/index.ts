/** What other areas may use of the reports area. */
export { deleteReport, moveReport } from './reports';
export { reportQueries, type ReportQuery } from './report-queries';
