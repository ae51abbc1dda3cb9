import type { RemoteEndpoint } from '../../platform/repo';

/**
 * A repository host reached through an app installation (GitHub-App style): the app is installed on
 * accounts (users or organizations); each installation grants access to some repositories. A real
 * client talks to the host's REST API; the local emulator keeps bare git repositories on disk.
 */

export interface GitHostApp {
  slug: string;
  name: string;
  owner: string | null;
  htmlUrl: string | null;
}

export interface GitHostInstallation {
  id: number;
  account: { login: string; type: 'User' | 'Organization' };
  repositorySelection: 'all' | 'selected';
  createdAt: string | null;
}

export interface GitHostRepository {
  id: number;
  owner: string;
  name: string;
  fullName: string;
  private: boolean;
  defaultBranch: string;
  htmlUrl: string | null;
  cloneUrl: string;
}

export interface GitHostBranch {
  name: string;
  commit: string;
  protected: boolean;
}

export interface GitHostConnector {
  readonly provider: 'github' | 'local';
  /** The app the service acts as (throws when its credentials do not work). */
  app(): Promise<GitHostApp>;
  installations(): Promise<GitHostInstallation[]>;
  /** Repositories an installation grants. */
  repositories(installationId: number): Promise<GitHostRepository[]>;
  /** A repository through whichever installation covers it; null when none does. */
  repository(owner: string, repo: string): Promise<GitHostRepository | null>;
  /** The installation that covers a repository; null when none does. */
  installationFor(owner: string, repo: string): Promise<number | null>;
  branches(owner: string, repo: string): Promise<GitHostBranch[]>;
  /** The commit a branch, tag or commit id names; null when it names nothing. */
  resolveRef(owner: string, repo: string, ref: string): Promise<string | null>;
  /** File content at a ref; null when the file (or the ref) does not exist. */
  readFile(owner: string, repo: string, ref: string, path: string): Promise<Uint8Array | null>;
  /**
   * How git reaches a repository right now: its clone URL with a fresh installation access token
   * (user `x-access-token`), or the bare repository on disk. `cloneUrl` saves a lookup when known.
   */
  gitRemote(target: { owner: string; repo: string; installationId: number; cloneUrl?: string | null }): Promise<RemoteEndpoint>;
}

export const GitHostErrorCodes = {
  GITHOST_NOT_CONFIGURED: 'GITHOST_NOT_CONFIGURED',
  GITHOST_UNAUTHORIZED: 'GITHOST_UNAUTHORIZED',
  GITHOST_RATE_LIMITED: 'GITHOST_RATE_LIMITED',
  GITHOST_NOT_FOUND: 'GITHOST_NOT_FOUND',
  GITHOST_UNREACHABLE: 'GITHOST_UNREACHABLE',
  GITHOST_ERROR: 'GITHOST_ERROR',
} as const;
export type GitHostErrorCode = (typeof GitHostErrorCodes)[keyof typeof GitHostErrorCodes];

export class GitHostError extends Error {
  constructor(
    readonly code: GitHostErrorCode,
    message: string,
    readonly options: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GitHostError';
  }
}
