import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

/**
 * Repository-host connection: discovery of the app's installations, their repositories and
 * branches, and connecting a deployment to one repository (whose dbt project transform syncs with
 * `source: git` then read).
 */
const TAG = 'repo-host connection';

export const GitHostErrorCodes = {
  /** 404: no such installation, repository or branch (or the app cannot see it). */
  GITHOST_NOT_FOUND: 'GITHOST_NOT_FOUND',
  /** 502: the host refused the app's credentials. */
  GITHOST_UNAUTHORIZED: 'GITHOST_UNAUTHORIZED',
  /** 503: the host's rate limit; retry later. */
  GITHOST_RATE_LIMITED: 'GITHOST_RATE_LIMITED',
  /** 502: the host could not be reached or failed. */
  GITHOST_UNREACHABLE: 'GITHOST_UNREACHABLE',
  GITHOST_ERROR: 'GITHOST_ERROR',
  /** 503: a GitHub App is configured without its private key. */
  GITHOST_NOT_CONFIGURED: 'GITHOST_NOT_CONFIGURED',
  /** 409: the repository is not covered by the installation named in the request. */
  GITHOST_INSTALLATION_MISMATCH: 'GITHOST_INSTALLATION_MISMATCH',
} as const;

export const GitHostProvider = Type.Enum(['github', 'local'], { description: '`local`: repositories kept by this service (no GitHub App configured)' });

export const GitHostStatus = Type.Object({
  provider: GitHostProvider,
  connected: Type.Boolean({ description: 'The app’s credentials work' }),
  app: Nullable(
    Type.Object({ slug: Type.String(), name: Type.String(), owner: Nullable(Type.String()), htmlUrl: Nullable(Type.String()) }),
  ),
  installationCount: Nullable(Type.Integer()),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type GitHostStatus = Static<typeof GitHostStatus>;

export const GitHostInstallation = Type.Object({
  id: Type.Integer(),
  account: Type.Object({ login: Type.String(), type: Type.Enum(['User', 'Organization']) }),
  repositorySelection: Type.Enum(['all', 'selected']),
  createdAt: Nullable(Type.String()),
});

export const GitHostRepository = Type.Object({
  id: Type.Integer(),
  owner: Type.String(),
  name: Type.String(),
  fullName: Type.String(),
  private: Type.Boolean(),
  defaultBranch: Type.String(),
  htmlUrl: Nullable(Type.String()),
});

export const GitHostBranch = Type.Object({
  name: Type.String(),
  commit: Type.String(),
  protected: Type.Boolean(),
});

export const GitHostConnection = Type.Object({
  deploymentId: Type.Integer(),
  provider: GitHostProvider,
  installationId: Type.Integer(),
  owner: Type.String(),
  repo: Type.String(),
  fullName: Type.String(),
  branch: Type.String(),
  path: Type.String({ description: 'Folder of the project inside the repository ("" for the root)' }),
  headCommit: Nullable(Type.String({ description: 'Head of the branch when connected' })),
  connectedBy: Nullable(Type.Integer()),
  connectedAt: Timestamp,
});
export type GitHostConnection = Static<typeof GitHostConnection>;

export const ConnectGitHostInput = Type.Object(
  {
    installationId: Type.Optional(Type.Integer({ minimum: 1, description: 'The installation granting the repository (checked when given)' })),
    owner: Type.String({ minLength: 1, maxLength: 100 }),
    repo: Type.String({ minLength: 1, maxLength: 100 }),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Default: the repository’s default branch' })),
    path: Type.Optional(Type.String({ maxLength: 512, description: 'Folder of the project inside the repository (default the root)' })),
  },
  { additionalProperties: false },
);
export type ConnectGitHostInput = Static<typeof ConnectGitHostInput>;

const ACCESS = 'Needs deployment edit access (admin or developer role).';

export const getGitHostStatus = defineRoute({
  method: 'GET',
  path: '/api/v1/git-host/status',
  operationId: 'getGitHostStatus',
  tag: TAG,
  summary: 'Which repository host the service uses and whether its app credentials work',
  description: `${ACCESS} Answers 200 also when the host refuses the credentials (\`connected: false\` with the error).`,
  response: GitHostStatus,
});

export const listGitHostInstallations = defineRoute({
  method: 'GET',
  path: '/api/v1/git-host/installations',
  operationId: 'listGitHostInstallations',
  tag: TAG,
  summary: 'Accounts the app is installed on',
  description: ACCESS,
  query: Type.Object({ ...PageQuery }),
  response: Page(GitHostInstallation),
});

export const listGitHostInstallationRepositories = defineRoute({
  method: 'GET',
  path: '/api/v1/git-host/installations/{installationId}/repositories',
  operationId: 'listGitHostInstallationRepositories',
  tag: TAG,
  summary: 'Repositories an installation grants',
  description: ACCESS,
  params: Type.Object({ installationId: Type.Integer({ minimum: 1 }) }),
  query: Type.Object({ ...PageQuery }),
  response: Page(GitHostRepository),
});

export const listGitHostRepositoryBranches = defineRoute({
  method: 'GET',
  path: '/api/v1/git-host/repositories/{owner}/{repo}/branches',
  operationId: 'listGitHostRepositoryBranches',
  tag: TAG,
  summary: 'Branches of a repository the app can see',
  description: ACCESS,
  params: Type.Object({ owner: Type.String({ minLength: 1, maxLength: 100 }), repo: Type.String({ minLength: 1, maxLength: 100 }) }),
  query: Type.Object({ ...PageQuery }),
  response: Page(GitHostBranch),
});

export const connectDeploymentToGitHost = defineRoute({
  method: 'POST',
  path: '/build/api/v1/deployments/{deploymentId}/git-host/connect',
  operationId: 'connectDeploymentToGitHost',
  tag: TAG,
  summary: 'Connect the deployment to a repository (replacing an earlier connection)',
  description:
    `${ACCESS} The app must see the repository (404 \`GITHOST_NOT_FOUND\`) and the branch must exist. ` +
    'Transform syncs with `source: git` then read the manifest from this repository.',
  params: DeploymentParams,
  body: ConnectGitHostInput,
  response: GitHostConnection,
});

export const gitHostRoutes = {
  getGitHostStatus,
  listGitHostInstallations,
  listGitHostInstallationRepositories,
  listGitHostRepositoryBranches,
  connectDeploymentToGitHost,
};
