import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

/**
 * Repository-host connection: discovery of the app's installations, their repositories and
 * branches, and connecting a deployment to the team's git repository — one the host app sees, or
 * any smart-HTTP(S) git URL — with two-way git: fetch (on demand and on a schedule), pull, push.
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

/** Failures of two-way git with the connected repository (stable codes). */
export const UpstreamErrorCodes = {
  /** 409: the deployment is not connected to a repository (connect first). */
  UPSTREAM_NOT_CONNECTED: 'UPSTREAM_NOT_CONNECTED',
  /** 409: the branch tracks no branch of the remote. */
  BRANCH_HAS_NO_UPSTREAM: 'BRANCH_HAS_NO_UPSTREAM',
  /** 409: the branch's upstream does not exist on the remote (deleted there, or never pushed). */
  UPSTREAM_BRANCH_GONE: 'UPSTREAM_BRANCH_GONE',
  /** 404: connect named a branch the (non-empty) remote does not have. */
  UPSTREAM_BRANCH_NOT_FOUND: 'UPSTREAM_BRANCH_NOT_FOUND',
  /** 409: the remote has commits the branch lacks (push) or the branch lacks for a delete; pull first. */
  PUSH_REJECTED: 'PUSH_REJECTED',
  /** 409: the upstream moved since the conflict the resolution was made for; pull again. */
  UPSTREAM_MOVED: 'UPSTREAM_MOVED',
  /** 422 at connect, 502 later: the remote refused the credentials. */
  UPSTREAM_AUTH_FAILED: 'UPSTREAM_AUTH_FAILED',
  /** 404 at connect, 502 later: no git repository at the URL. */
  UPSTREAM_NOT_FOUND: 'UPSTREAM_NOT_FOUND',
  /** 502: the remote could not be reached. */
  UPSTREAM_UNREACHABLE: 'UPSTREAM_UNREACHABLE',
  /** 504: the remote did not finish in time. */
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  /** 409: the fetch was cancelled. */
  UPSTREAM_CANCELLED: 'UPSTREAM_CANCELLED',
  /** 502: another failure of the remote. */
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  /** 400: not an http(s) git URL, or credentials over plain http to another machine. */
  INVALID_REPOSITORY_URL: 'INVALID_REPOSITORY_URL',
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

export const GIT_AUTH_KINDS = ['none', 'token', 'basic', 'app', 'local'] as const;
export const MIN_FETCH_INTERVAL_SECONDS = 30;
export const MAX_FETCH_INTERVAL_SECONDS = 7 * 24 * 3600;
export const DEFAULT_FETCH_INTERVAL_SECONDS = 300;

const FetchInterval = Type.Integer({
  minimum: 0,
  maximum: MAX_FETCH_INTERVAL_SECONDS,
  description: `Background fetch every N seconds (0: off; otherwise at least ${MIN_FETCH_INTERVAL_SECONDS}); default ${DEFAULT_FETCH_INTERVAL_SECONDS}`,
});

export const GitHostConnection = Type.Object({
  deploymentId: Type.Integer(),
  provider: Type.Enum(['github', 'local', 'url'], { description: '`url`: any smart-HTTP(S) git URL; `local`: repositories kept by this service' }),
  installationId: Nullable(Type.Integer({ description: 'The app installation (null for `url`)' })),
  owner: Type.String(),
  repo: Type.String(),
  fullName: Type.String(),
  url: Type.String({ description: 'The repository URL, without credentials ("" for the local host)' }),
  authentication: Type.Enum([...GIT_AUTH_KINDS], {
    description: '`token`/`basic`: credentials kept in the keychain; `app`: a short-lived GitHub App installation token per operation',
  }),
  branch: Type.String({ description: 'The remote branch the deploy branch tracks' }),
  path: Type.String({ description: 'Folder of the project inside the repository ("" for the root)' }),
  headCommit: Nullable(Type.String({ description: 'Head of the branch when connected' })),
  connectedBy: Nullable(Type.Integer()),
  connectedAt: Timestamp,
  fetchIntervalSeconds: Type.Integer({ description: 'Background fetch interval (0: off)' }),
  nextFetchAt: Nullable(Timestamp),
  lastFetchAt: Nullable(Timestamp),
  lastFetchError: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type GitHostConnection = Static<typeof GitHostConnection>;

export const ConnectGitHostInput = Type.Object(
  {
    installationId: Type.Optional(Type.Integer({ minimum: 1, description: 'The installation granting the repository (checked when given)' })),
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'With `repo`: a repository the host app sees' })),
    repo: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    url: Type.Optional(
      Type.String({ minLength: 8, maxLength: 2048, description: 'Instead of owner/repo: any smart-HTTP(S) git URL (credentials in the URL are moved to the keychain)' }),
    ),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'For `url`: an access token (sent as the password; user `x-access-token` unless `username`)' })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Remote branch the deploy branch tracks. Default: the repository’s default branch' })),
    path: Type.Optional(Type.String({ maxLength: 512, description: 'Folder of the project inside the repository (default the root)' })),
    fetchIntervalSeconds: Type.Optional(FetchInterval),
  },
  { additionalProperties: false },
);
export type ConnectGitHostInput = Static<typeof ConnectGitHostInput>;

export const UPSTREAM_OUTCOMES = ['created', 'fast-forward', 'up-to-date', 'ahead', 'diverged', 'replaced', 'behind', 'upstream-gone', 'skipped'] as const;

/** What a connect or fetch did to one branch. */
export const UpstreamBranchOutcome = Type.Object({
  branchName: Type.String({ description: 'The deployment’s branch' }),
  upstream: Type.String({ description: 'The remote branch' }),
  outcome: Type.Enum([...UPSTREAM_OUTCOMES], {
    description:
      '`created`: a new branch of the deployment at the remote head; `fast-forward`: moved to the remote head; `ahead`: has commits to push; ' +
      '`diverged`: both sides have commits (pull merges); `replaced` (connect only): the branch now holds the remote history and its own commits ' +
      'were kept on `keptAs`; `behind`: not moved because of uncommitted edits; `upstream-gone`: deleted on the remote; `skipped`: see `reason`',
  }),
  head: Nullable(Type.String({ description: 'The branch head afterwards' })),
  keptAs: Type.Optional(Type.String({ description: 'Branch holding the commits the remote did not have (`replaced`)' })),
  reason: Type.Optional(Type.String()),
});
export type UpstreamBranchOutcome = Static<typeof UpstreamBranchOutcome>;

export const FetchReport = Type.Object({
  fetchedAt: Timestamp,
  defaultBranch: Nullable(Type.String({ description: 'The branch the remote’s HEAD names' })),
  branches: Type.Array(UpstreamBranchOutcome),
});
export type FetchReport = Static<typeof FetchReport>;

export const ConnectGitHostResult = Type.Object({ ...GitHostConnection.properties, branches: Type.Array(UpstreamBranchOutcome) });
export type ConnectGitHostResult = Static<typeof ConnectGitHostResult>;

export const PUSH_STATUSES = ['pushed', 'up-to-date', 'rejected', 'failed'] as const;

/** Whether a change reached the remote (commits and merges on a tracking branch are pushed). */
export const PushReport = Type.Object({
  upstream: Type.String({ description: 'The remote branch' }),
  status: Type.Enum([...PUSH_STATUSES], {
    description: '`rejected`: the remote has commits the branch lacks (pull, then push); `failed`: the remote could not be reached or refused; the local commits are kept either way',
  }),
  commit: Type.String({ description: 'The branch head the report is about' }),
  code: Nullable(Type.String({ description: 'Why it was not pushed (a stable code such as `PUSH_REJECTED`)' })),
  detail: Nullable(Type.String()),
});
export type PushReport = Static<typeof PushReport>;

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

const D = '/build/api/v1/deployments/{deploymentId}';

export const connectDeploymentToGitHost = defineRoute({
  method: 'POST',
  path: `${D}/git-host/connect`,
  operationId: 'connectDeploymentToGitHost',
  tag: TAG,
  summary: 'Connect the deployment to a repository and fetch it (replacing an earlier connection)',
  description:
    `${ACCESS} Either \`owner\` + \`repo\` (a repository the host app sees: 404 \`GITHOST_NOT_FOUND\` otherwise) or \`url\` with ` +
    '`token` or `username` + `password` (kept in the keychain). Connect fetches the remote: the deploy branch tracks `branch` (default the ' +
    'remote’s default branch) and every other remote branch becomes a branch of the deployment with the same commit ids. A branch of the ' +
    'deployment whose commits the remote lacks keeps them: ahead → pushed on the next commit or push; diverged → the branch takes the remote ' +
    'history and its commits stay on `before-connect/<branch>` (a fresh deployment’s sample commit is simply replaced). Connect never writes ' +
    'to the remote. Wrong credentials: 422 `UPSTREAM_AUTH_FAILED`; nothing is stored then. Transform syncs with `source: git` read this repository.',
  params: DeploymentParams,
  body: ConnectGitHostInput,
  response: ConnectGitHostResult,
});

export const getDeploymentGitConnection = defineRoute({
  method: 'GET',
  path: `${D}/git-host/connection`,
  operationId: 'getDeploymentGitConnection',
  tag: TAG,
  summary: 'The repository the deployment is connected to, with its background fetch state',
  description: 'Needs deployment read access. Credentials are never returned.',
  params: DeploymentParams,
  response: Type.Object({ connected: Type.Boolean(), connection: Nullable(GitHostConnection) }),
});

export const updateDeploymentGitConnection = defineRoute({
  method: 'PATCH',
  path: `${D}/git-host/connection`,
  operationId: 'updateDeploymentGitConnection',
  tag: TAG,
  summary: 'Change the background fetch interval or the stored credentials of a `url` connection',
  description: `${ACCESS} New credentials are checked against the remote before they replace the stored ones (422 \`UPSTREAM_AUTH_FAILED\`).`,
  params: DeploymentParams,
  body: Type.Object(
    {
      fetchIntervalSeconds: Type.Optional(FetchInterval),
      token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
      username: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
      password: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    },
    { additionalProperties: false },
  ),
  response: GitHostConnection,
});

export const disconnectDeploymentFromGitHost = defineRoute({
  method: 'DELETE',
  path: `${D}/git-host/connection`,
  operationId: 'disconnectDeploymentFromGitHost',
  tag: TAG,
  summary: 'Disconnect: forget the remote and its credentials; every branch and commit stays',
  description: `${ACCESS} 409 \`UPSTREAM_NOT_CONNECTED\` when there is no connection.`,
  params: DeploymentParams,
  response: Type.Object({ disconnected: Type.Literal(true) }),
});

export const fetchFromUpstream = defineRoute({
  method: 'POST',
  path: `${D}/git-host/fetch`,
  operationId: 'fetchFromUpstream',
  tag: TAG,
  summary: 'Fetch the remote now (joins a fetch already running)',
  description:
    `${ACCESS} Brings every remote branch in: branches without commits of their own move to the remote head (a new commit on the ` +
    'deploy branch builds the deployment, as a push does on the hosted platform), new remote branches become branches of the deployment. ' +
    'Branches with commits of their own are left for pull. 409 `UPSTREAM_NOT_CONNECTED` without a connection; 409 `UPSTREAM_CANCELLED` when cancelled.',
  params: DeploymentParams,
  bodyOptional: true,
  body: Type.Object({}, { additionalProperties: false }),
  response: FetchReport,
});

export const cancelUpstreamFetch = defineRoute({
  method: 'DELETE',
  path: `${D}/git-host/fetch`,
  operationId: 'cancelUpstreamFetch',
  tag: TAG,
  summary: 'Cancel the fetch running for the deployment (on demand or background)',
  description: `${ACCESS} \`cancelled: false\` when none was running.`,
  params: DeploymentParams,
  response: Type.Object({ cancelled: Type.Boolean() }),
});

export const ConflictResolution = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 512 }),
    content: Nullable(Type.String({ description: 'The resolved content; null deletes the file' })),
  },
  { additionalProperties: false },
);

export const PullUpstreamResult = Type.Object({
  branchName: Type.String(),
  upstream: Type.String(),
  outcome: Type.Enum(['up-to-date', 'fast-forward', 'merged']),
  commit: Type.String({ description: 'The branch head afterwards' }),
  changes: Type.Array(Type.Object({ path: Type.String(), status: Type.Enum(['added', 'modified', 'deleted']) })),
  push: Nullable(PushReport),
});
export type PullUpstreamResult = Static<typeof PullUpstreamResult>;

export const pullFromUpstream = defineRoute({
  method: 'POST',
  path: `${D}/git-host/pull`,
  operationId: 'pullFromUpstream',
  tag: TAG,
  summary: 'Fetch, then bring the upstream’s new commits into a branch (merging when both sides have commits)',
  description:
    `${ACCESS} A merge commit has both heads as parents and is pushed. When both sides changed a file differently: 409 \`MERGE_CONFLICT\` ` +
    'with `conflicts` (paths), `ours`, `theirs`, `base` (commit ids) and `files` (each path’s content at base, ours and theirs); the branch ' +
    'is untouched. Resolve by pulling again with `resolutions` (the final content of every conflicting path) and `upstreamCommit` (the ' +
    '`theirs` the resolution was made against; 409 `UPSTREAM_MOVED` when the upstream moved since). Uncommitted edits: 409 `UNCOMMITTED_CHANGES`.',
  params: DeploymentParams,
  body: Type.Object(
    {
      branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the deploy branch' })),
      message: Type.Optional(Type.String({ minLength: 1, maxLength: 5000 })),
      upstreamCommit: Type.Optional(Type.String({ pattern: '^[0-9a-f]{40}$' })),
      resolutions: Type.Optional(Type.Array(ConflictResolution, { minItems: 1, maxItems: 500 })),
    },
    { additionalProperties: false },
  ),
  bodyOptional: true,
  response: PullUpstreamResult,
});

export const pushToUpstream = defineRoute({
  method: 'POST',
  path: `${D}/git-host/push`,
  operationId: 'pushToUpstream',
  tag: TAG,
  summary: 'Push a branch to its upstream, fast-forward only (a branch without one is published under its own name)',
  description:
    `${ACCESS} Never forced: when the remote has commits the branch lacks, 409 \`PUSH_REJECTED\` and the local commits stay; pull, then push. ` +
    'Remote failures: 502 `UPSTREAM_UNREACHABLE` / `UPSTREAM_AUTH_FAILED` / `UPSTREAM_ERROR`, 504 `UPSTREAM_TIMEOUT`.',
  params: DeploymentParams,
  body: Type.Object({ branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the deploy branch' })) }, { additionalProperties: false }),
  bodyOptional: true,
  response: Type.Object({
    branchName: Type.String(),
    upstream: Type.String(),
    pushed: Type.Boolean({ description: 'False when the remote already had the head' }),
    before: Nullable(Type.String({ description: 'Remote head before (null: the branch was created there)' })),
    commit: Type.String(),
  }),
});

export const gitHostRoutes = {
  getGitHostStatus,
  listGitHostInstallations,
  listGitHostInstallationRepositories,
  listGitHostRepositoryBranches,
  connectDeploymentToGitHost,
  getDeploymentGitConnection,
  updateDeploymentGitConnection,
  disconnectDeploymentFromGitHost,
  fetchFromUpstream,
  cancelUpstreamFetch,
  pullFromUpstream,
  pushToUpstream,
};
