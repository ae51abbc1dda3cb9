// The shapes a GitRepository (repository.ts) takes and answers, and the failure it explains.

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
  /** An object the repository needs is not there (a crash of an older version, a damaged disk). */
  | 'OBJECT_MISSING'
  /** An object file is there but empty or unreadable. */
  | 'OBJECT_DAMAGED';

/** A failure the caller can explain (missing branch, moved head, file/folder clash, damaged object…). */
export class RepoError extends Error {
  constructor(
    readonly code: RepoErrorCode,
    message: string,
    readonly paths: string[] = [],
    /** The object ids concerned (`OBJECT_MISSING`, `OBJECT_DAMAGED`). */
    readonly objects: string[] = [],
  ) {
    super(message);
    this.name = 'RepoError';
  }
}
