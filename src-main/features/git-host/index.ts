// What other areas may use of the git-host area.
export { registerGitHostRoutes } from './routes';
export { readRepositoryFile, getLocalGitHost, gitHostFor, GITHUB_APP_KEY_SECRET } from './host';
export { getGitHostConnection } from './connection';
export { getFetchScheduler } from './scheduler';
