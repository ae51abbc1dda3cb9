export * from './types';
export { LocalGitHost } from './emulator';
export { GitHubAppClient, nextLink, type GitHostFetch, type GitHubAppClientOptions } from './github';
