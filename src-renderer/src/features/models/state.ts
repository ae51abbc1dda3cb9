// The Models screen's state shape and the selectors read from it (which files are unsaved, which
// branch is shown, whether it may be edited). The store itself (store.ts) holds the actions.
import type { Branch, FileSummary, ValidationResult } from '../../../../src-shared/api/data-model';
import { useSession } from '../../app/session';
import type { ShownError } from '../../lib/errors';
import type { Analysis } from './compiler';
import type { StaleWrite } from './versions';


export interface RevealRequest {
  path: string;
  line: number;
  column: number;
  /** Distinguishes two requests for the same place. */
  seq: number;
}

export interface ServerVerdict {
  result: ValidationResult;
  /** Unsaved files when the check ran (the service checks saved content only). */
  unsavedAtCheck: number;
  /** The saved files' versions (sha256 by path) the check saw: a save since makes the verdict stale. */
  versionsAtCheck: Record<string, string>;
}

/** An action that would drop unsaved edits, waiting for the user to save, discard or cancel. */
export interface PendingAction {
  description: string;
  run: () => Promise<void>;
}

export interface ModelsState {
  deploymentId: number | null;
  branches: Branch[];
  branchesLoading: boolean;
  /** The branch shown. */
  branchName: string | null;
  files: FileSummary[];
  filesLoading: boolean;
  /** Content on the service (dev-mode edits included) by path. */
  saved: Record<string, string>;
  /** Editor text of files edited in this session, by path (equal to `saved` once saved). */
  buffers: Record<string, string>;
  /** sha256 of `saved` by path: the version a save is based on (the service refuses a stale one). */
  versions: Record<string, string>;
  /** Saves refused because the file changed on the service meanwhile, waiting for the user to merge. */
  staleWrites: StaleWrite[];
  openPath: string | null;
  reveal: RevealRequest | null;
  analysis: Analysis;
  /**
   * The push and publish findings are held because the deployment's data sources are not known:
   * `reading` while a transient failure of the settings read is retried, `unavailable` once it was
   * given up (the next load of a branch reads again). Null: the analyzers run.
   */
  analyzersHeld: 'reading' | 'unavailable' | null;
  server: ServerVerdict | null;
  validating: boolean;
  /** Label of the branch or file action under way. */
  busy: string | null;
  error: ShownError | null;
  notice: string | null;
  pending: PendingAction | null;

  selectDeployment(id: number): Promise<void>;
  loadBranches(): Promise<Branch[]>;
  openBranch(name: string): Promise<void>;
  /** Reloads the branch list and the shown branch's files (after commits, merges, pulls). */
  refresh(): Promise<void>;
  enterDevMode(): Promise<void>;
  leaveDevMode(): Promise<void>;
  openFile(path: string, at?: { line: number; column: number }): void;
  setBuffer(path: string, text: string): void;
  save(paths?: string[]): Promise<boolean>;
  discard(paths?: string[]): void;
  /**
   * Settles the first stale write: `{ content }` saves that text over the service's version (the
   * user merged), `theirs` takes the service's version and drops the edit, `later` keeps the edit
   * unsaved (the next save asks again).
   */
  resolveStale(choice: { content: string } | 'theirs' | 'later'): Promise<void>;
  createFile(path: string, content: string): Promise<void>;
  renameFile(path: string, newPath: string): Promise<void>;
  deleteFile(path: string): Promise<void>;
  validateOnServer(): Promise<void>;
  /** Runs `action` now, or after the user saved or discarded unsaved edits. */
  guardUnsaved(description: string, action: () => Promise<void>): void;
  resolvePending(choice: 'save' | 'discard' | 'cancel'): Promise<void>;
  setError(error: ShownError | null): void;
  setNotice(notice: string | null): void;
}

export const dirtyPaths = (s: Pick<ModelsState, 'buffers' | 'saved'>): string[] =>
  Object.keys(s.buffers)
    .filter((p) => s.buffers[p] !== s.saved[p])
    .sort();

export const currentBranch = (s: Pick<ModelsState, 'branches' | 'branchName'>): Branch | undefined => s.branches.find((b) => b.branchName === s.branchName);

/** The signed-in user's active dev-mode branch. */
export function myDevBranch(branches: Branch[]): Branch | undefined {
  const me = useSession.getState().user;
  return branches.find((b) => b.kind === 'personal' && b.isDevMode && (me ? b.ownerUserId === me.id : true));
}

/** Files can be edited only on your own branch while in dev mode on it (the service refuses the rest). */
export function isEditable(branch: Branch | undefined): boolean {
  if (!branch || branch.kind !== 'personal' || !branch.isDevMode) return false;
  const me = useSession.getState().user;
  return me ? branch.ownerUserId === me.id : true;
}

export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
