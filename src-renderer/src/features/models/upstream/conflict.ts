// A pull conflict as the service reports it (409 MERGE_CONFLICT of `git-host/pull`): which branch,
// the commits on each side, and each conflicting file's content at the merge base, ours and theirs.
import { ApiProblem } from '../../../../../src-shared/api/client';

export interface ConflictFile {
  path: string;
  /** null: the file does not exist on that side. */
  base: string | null;
  ours: string | null;
  theirs: string | null;
}

export interface PullConflict {
  branchName: string;
  upstream: string;
  ours: string;
  /** The upstream head the resolution is made against (sent back as `upstreamCommit`). */
  theirs: string;
  files: ConflictFile[];
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The conflict carried by a failed pull, or null for any other failure. */
export function conflictOf(error: unknown): PullConflict | null {
  if (!(error instanceof ApiProblem) || error.code !== 'MERGE_CONFLICT' || !error.problem) return null;
  const p = error.problem;
  const files = Array.isArray(p.files) ? p.files : [];
  if (typeof p.branchName !== 'string' || typeof p.upstream !== 'string' || typeof p.ours !== 'string' || typeof p.theirs !== 'string' || files.length === 0) return null;
  return {
    branchName: p.branchName,
    upstream: p.upstream,
    ours: p.ours,
    theirs: p.theirs,
    files: files
      .filter((f): f is Record<string, unknown> => typeof f === 'object' && f !== null && typeof (f as { path?: unknown }).path === 'string')
      .map((f) => ({ path: f.path as string, base: text(f.base), ours: text(f.ours), theirs: text(f.theirs) })),
  };
}

/** The starting point of a resolution: our side when it exists, else theirs (null: both deleted it). */
export function initialResolution(file: ConflictFile): string | null {
  return file.ours ?? file.theirs;
}

/** Whether a resolution still holds git-style conflict markers someone forgot to clean up. */
export function hasConflictMarkers(content: string): boolean {
  return /^(<{7}|={7}|>{7})( |$)/m.test(content);
}

/** One line on whether a merge or commit reached the team repository. */
export function pushLine(status: string, upstream: string): string {
  switch (status) {
    case 'pushed':
      return `Pushed to ${upstream}.`;
    case 'up-to-date':
      return `${upstream} already had it.`;
    case 'rejected':
      return `Not pushed: ${upstream} has new commits (pull, then push).`;
    default:
      return `Not pushed to ${upstream} (the remote failed); the commit is kept here.`;
  }
}
