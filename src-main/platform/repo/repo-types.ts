// The shapes a GitRepository (repository.ts) takes and answers, and the failures it explains.

import { DataModelErrorCodes } from '../../../src-shared/api/data-model/limits';
import type { PathRuleProblem } from '../../../src-shared/paths/portable-path';
import { ApiError } from '../../http/problem';
import type { TreeChange } from './tree';

export interface Signature {
  name: string;
  email: string;
}

/** A file to write (`content`) or delete (`content: null`) in a commit. */
export interface FileWrite {
  path: string;
  content: Uint8Array | string | null;
}

/** A file whose blob is already in the repository (written by a worker thread): `blob` is its id. */
export interface BlobWrite {
  path: string;
  blob: string;
}

export interface CommitInfo {
  oid: string;
  message: string;
  author: Signature;
  /** ISO-8601 UTC. */
  committedAt: string;
  parents: string[];
}

export interface CommitResult {
  /** The branch head after the operation (unchanged when nothing changed). */
  commit: string;
  changed: boolean;
  changes: TreeChange[];
}

export type MergeOutcome = 'up-to-date' | 'fast-forward' | 'merged' | 'conflict';

export interface MergeResult {
  outcome: MergeOutcome;
  /** Target head after the merge; for a dry run, the head it would have (null when a merge commit would be created). */
  commit: string | null;
  /** Paths changed differently on both sides; non-empty only for `conflict`. */
  conflicts: string[];
  /** What the merge changes (or would change) on the target. */
  changes: TreeChange[];
}

export type RepoErrorCode =
  | 'BRANCH_NOT_FOUND'
  | 'BRANCH_EXISTS'
  | 'BRANCH_NAME_CONFLICT'
  | 'PATH_CONFLICT'
  | 'HEAD_MOVED'
  | 'REPO_BUSY'
  | 'INVALID_BRANCH_NAME'
  /** A new path breaks a rule of src-shared/paths/portable-path.ts (`rule` says which, `problems` each path). */
  | 'PATH_REFUSED';

/** A failure the caller can explain (missing branch, moved head, file/folder clash…). */
export class RepoError extends Error {
  constructor(
    readonly code: RepoErrorCode,
    message: string,
    readonly paths: string[] = [],
    /** `PATH_REFUSED`: what is wrong with each path. */
    readonly problems: PathRuleProblem[] = [],
  ) {
    super(message);
    this.name = 'RepoError';
  }
}

const DAMAGED_PREFIX = 'The model repository is damaged: ';

/**
 * An object the repository needs is missing, empty or unreadable (a crash of an older version, a
 * damaged disk; issue 23). A problem the caller can act on, never a 500: 409 `REPOSITORY_DAMAGED`
 * naming the objects. The start check (repo-check.ts) repairs what it can; restoring the file,
 * pulling from the team's repository or rewriting the file's content repairs the rest.
 */
export class RepositoryDamagedError extends ApiError {
  constructor(
    detail: string,
    readonly objects: string[],
  ) {
    super(
      409,
      DataModelErrorCodes.REPOSITORY_DAMAGED,
      `${DAMAGED_PREFIX}${detail} Write the file again, pull from the team's repository, or restart the service to let it repair what it can.`,
      { objects },
    );
    this.name = 'RepositoryDamagedError';
  }

  /**
   * The same error again from what a worker thread's failure kept of it (a structured clone keeps an
   * error's message, not its class); null for any other error.
   */
  static revive(error: unknown): RepositoryDamagedError | null {
    if (error instanceof RepositoryDamagedError) return error;
    const message = error instanceof Error ? error.message : '';
    if (!message.startsWith(DAMAGED_PREFIX)) return null;
    const revived = new RepositoryDamagedError('', [...new Set(message.match(/\b[0-9a-f]{40}\b/g) ?? [])]);
    Object.assign(revived, { detail: message, message });
    return revived;
  }
}
