/** What other areas may use of the identity area (users and API keys). */
export { getUserRow, userSummary, userSummaries, toUser, type UserRow } from './store';
