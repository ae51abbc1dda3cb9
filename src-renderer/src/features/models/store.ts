// State of the Models screen: the deployment and branch shown, the branch's files (as saved on the
// service, and unsaved editor buffers), dev mode, the worker's diagnostics and the server's verdict.
import { create } from 'zustand';
import {
  deleteDataModelFile,
  getDataModelFiles,
  listBranches,
  renameDataModelFile,
  startDevMode,
  stopDevMode,
  validateDataModel,
  writeDataModelFiles,
  type Branch,
  type FileContent,
  type FileList,
  type FileSummary,
  type ValidationResult,
  type WorkingState,
} from '../../../../src-shared/api/data-model';
import type { LiveEvent } from '../../../../src-shared/api/events';
import { getDeploymentSettings } from '../../../../src-shared/api/deployments';
import type { AnalyzerDataSource } from '../../../../src-shared/model';
import { onServiceChange, registerLeaveGuard } from '../../app/endpoint';
import { onLiveEvent } from '../../lib/live';
import { api, useSession } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { fetchAllPages } from '../../lib/paging';
import { CompilerClient, EMPTY_ANALYSIS, type Analysis } from './compiler';
import { mapLimit } from '../../lib/mapLimit';
import { changedPaths, ifMatchOf, sha256Hex, type StaleWrite } from './versions';

const FILE_PAGE = 1000;

/**
 * The deployment's data sources as the analyzers need them (kind, catalog), read once per deployment.
 * Without them (a caller who may not read the settings) every view gets both analyzers.
 */
const dataSourceCache = new Map<number, Promise<Record<string, AnalyzerDataSource> | undefined>>();
function analyzerDataSources(deploymentId: number): Promise<Record<string, AnalyzerDataSource> | undefined> {
  let cached = dataSourceCache.get(deploymentId);
  if (!cached) {
    cached = api
      .call(getDeploymentSettings, { params: { deploymentId } })
      .then((settings) => Object.fromEntries(settings.dataSources.map((d) => [d.name, { kind: d.kind, catalog: d.catalog }])))
      .catch(() => {
        dataSourceCache.delete(deploymentId);
        return undefined;
      });
    dataSourceCache.set(deploymentId, cached);
  }
  return cached;
}
/** File contents fetched in parallel when a branch loads. */
const CONTENT_CONCURRENCY = 6;

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
}

/** An action that would drop unsaved edits, waiting for the user to save, discard or cancel. */
export interface PendingAction {
  description: string;
  run: () => Promise<void>;
}

interface ModelsState {
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

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

let compiler: CompilerClient | null = null;
/** Guards against a slower, older branch load overwriting a newer one. */
let loadToken = 0;
let revealSeq = 0;

export const useModels = create<ModelsState>((set, get) => {
  const worker = () => (compiler ??= new CompilerClient((analysis) => set({ analysis })));
  const params = () => {
    const id = get().deploymentId;
    if (id === null) throw new Error('No deployment is selected.');
    return { deploymentId: id };
  };
  const fail = (error: unknown, action: string) => set({ error: toShownError(error, action) });
  /** Applies the service's working state of the shown branch to the file list and the branch's flags. */
  const applyWorkingState = (state: WorkingState) => {
    const changed = new Set(state.uncommittedChanges.filter((c) => c.status !== 'deleted').map((c) => c.path));
    set((s) => ({
      files: s.files.map((f) => ({ ...f, uncommitted: changed.has(f.path) })),
      branches: s.branches.map((b) => (b.branchName === state.branchName ? { ...b, hasUncommittedChanges: state.uncommittedChanges.length > 0, headCommit: state.headCommit } : b)),
    }));
  };

  return {
    deploymentId: null,
    branches: [],
    branchesLoading: false,
    branchName: null,
    files: [],
    filesLoading: false,
    saved: {},
    buffers: {},
    versions: {},
    staleWrites: [],
    openPath: null,
    reveal: null,
    analysis: EMPTY_ANALYSIS,
    server: null,
    validating: false,
    busy: null,
    error: null,
    notice: null,
    pending: null,

    async selectDeployment(id) {
      if (get().deploymentId === id && get().branchName !== null) return;
      loadToken += 1;
      set({ deploymentId: id, branches: [], branchName: null, files: [], saved: {}, buffers: {}, versions: {}, staleWrites: [], openPath: null, server: null, error: null, notice: null });
      const branches = await get().loadBranches();
      if (get().deploymentId !== id || branches.length === 0) return;
      const start = myDevBranch(branches) ?? branches.find((b) => b.isDeployBranch) ?? branches[0];
      await get().openBranch(start.branchName);
    },

    async loadBranches() {
      const deploymentId = get().deploymentId;
      if (deploymentId === null) return [];
      set({ branchesLoading: true });
      try {
        const branches = await fetchAllPages((after) => api.call(listBranches, { params: { deploymentId }, query: { first: 1000, ...(after ? { after } : {}) } }));
        if (get().deploymentId === deploymentId) set({ branches });
        return branches;
      } catch (error) {
        fail(error, 'Loading branches');
        return [];
      } finally {
        set({ branchesLoading: false });
      }
    },

    async openBranch(name) {
      const deploymentId = get().deploymentId;
      if (deploymentId === null) return;
      const token = ++loadToken;
      const sameBranch = get().branchName === name;
      // Reloading the same branch (after a commit or pull) keeps what is shown, unsaved edits included,
      // until the new content arrives; another branch starts clean.
      if (sameBranch) set({ filesLoading: true });
      else set({ branchName: name, filesLoading: true, files: [], saved: {}, buffers: {}, versions: {}, staleWrites: [], server: null });
      try {
        const query = (after?: string) => ({ branchName: name, first: FILE_PAGE, ...(after ? { after } : {}) });
        const files = await fetchAllPages(async (after) => (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after) })) as FileList);
        const sources = analyzerDataSources(deploymentId);
        const contents = await mapLimit(files, CONTENT_CONCURRENCY, async (f) => (await api.call(getDataModelFiles, { params: { deploymentId }, query: { branchName: name, path: f.path } })) as FileContent);
        const dataSources = await sources;
        if (token !== loadToken) return;
        const saved = Object.fromEntries(contents.map((c) => [c.path, c.content]));
        const versions = Object.fromEntries(contents.map((c) => [c.path, c.sha256]));
        const shown = get().openPath;
        const openPath = shown && saved[shown] !== undefined ? shown : null;
        const before = get();
        const kept = Object.fromEntries(Object.entries(before.buffers).filter(([path]) => saved[path] !== undefined));
        // An unsaved edit stays based on the version it was made from: if the file changed meanwhile
        // (another window, a pull), its save is refused and the merge view opens, instead of overwriting.
        for (const [path, text] of Object.entries(kept)) {
          if (!sameBranch || text === before.saved[path] || before.saved[path] === undefined) continue;
          saved[path] = before.saved[path];
          if (before.versions[path]) versions[path] = before.versions[path];
        }
        set({ files: files.sort(byPath), saved, versions, buffers: kept, openPath });
        worker().reset(
          contents.map((c) => ({ path: c.path, content: kept[c.path] ?? c.content })),
          sameBranch,
          dataSources,
        );
      } catch (error) {
        if (token === loadToken) fail(error, `Loading branch “${name}”`);
      } finally {
        if (token === loadToken) set({ filesLoading: false });
      }
    },

    async refresh() {
      const name = get().branchName;
      const branches = await get().loadBranches();
      const still = branches.find((b) => b.branchName === name) ?? branches.find((b) => b.isDeployBranch);
      if (still) await get().openBranch(still.branchName);
    },

    async enterDevMode() {
      const branch = currentBranch(get());
      // Fork from the branch shown (from its parent when it is someone's personal branch).
      const from = branch ? (branch.kind === 'personal' ? (branch.parentBranch ?? undefined) : branch.branchName) : undefined;
      set({ busy: 'Entering dev mode…', error: null });
      try {
        const result = await api.call(startDevMode, { params: params(), query: from ? { branchName: from } : {} });
        await get().loadBranches();
        await get().openBranch(result.branch.branchName);
        set({ notice: result.created ? `Created your dev branch “${result.branch.branchName}” from “${result.branch.parentBranch ?? from}”.` : `Back on your dev branch “${result.branch.branchName}”.` });
      } catch (error) {
        fail(error, 'Entering dev mode');
      } finally {
        set({ busy: null });
      }
    },

    async leaveDevMode() {
      const dev = myDevBranch(get().branches);
      set({ busy: 'Leaving dev mode…', error: null });
      try {
        await api.call(stopDevMode, { params: params() });
        const branches = await get().loadBranches();
        const target = branches.find((b) => b.branchName === dev?.parentBranch) ?? branches.find((b) => b.isDeployBranch);
        if (target && get().branchName === dev?.branchName) await get().openBranch(target.branchName);
        set({ notice: dev ? `Left dev mode. “${dev.branchName}” and its uncommitted edits are kept for next time.` : 'Left dev mode.' });
      } catch (error) {
        fail(error, 'Leaving dev mode');
      } finally {
        set({ busy: null });
      }
    },

    openFile(path, at) {
      set({ openPath: path, ...(at ? { reveal: { path, line: at.line, column: at.column, seq: ++revealSeq } } : {}) });
    },

    setBuffer(path, text) {
      if (get().buffers[path] === text) return;
      set((s) => ({ buffers: { ...s.buffers, [path]: text } }));
      worker().change(path, text);
    },

    async save(paths) {
      const s = get();
      const targets = (paths ?? dirtyPaths(s)).filter((p) => s.buffers[p] !== undefined && s.buffers[p] !== s.saved[p]);
      if (targets.length === 0) return true;
      // Each file carries the version it was based on (a file new in this session: none yet, so `null`).
      const withBase = (path: string) => ({ path, content: s.buffers[path], baseSha256: s.saved[path] === undefined ? null : (s.versions[path] ?? undefined) });
      set({ busy: targets.length === 1 ? `Saving ${targets[0]}…` : `Saving ${targets.length} files…`, error: null });
      const write = async (paths: string[]) => {
        const files = paths.map(withBase);
        const state = await api.call(writeDataModelFiles, { params: params(), query: { branchName: s.branchName! }, body: { files } });
        const hashes = await Promise.all(files.map((f) => sha256Hex(f.content)));
        set((now) => {
          const saved = { ...now.saved };
          const versions = { ...now.versions };
          files.forEach((f, i) => {
            saved[f.path] = f.content;
            if (hashes[i]) versions[f.path] = hashes[i];
            else delete versions[f.path];
          });
          return { saved, versions };
        });
        applyWorkingState(state);
      };
      try {
        await write(targets);
        return true;
      } catch (error) {
        const stale = changedPaths(error);
        if (stale === null) {
          fail(error, 'Saving');
          return false;
        }
        // Nothing was written: save the files nobody else touched, and ask about the others.
        try {
          const rest = targets.filter((p) => !stale.includes(p));
          if (rest.length > 0) await write(rest);
          const staleWrites = await Promise.all(stale.filter((p) => targets.includes(p)).map(async (path) => {
            const current = await api
              .call(getDataModelFiles, { params: params(), query: { branchName: s.branchName!, path } })
              .then((c) => c as FileContent)
              .catch(() => null);
            return { path, mine: s.buffers[path], theirs: current?.content ?? null, theirsSha256: current?.sha256 ?? null };
          }));
          set((now) => ({ staleWrites: [...now.staleWrites.filter((w) => !stale.includes(w.path)), ...staleWrites] }));
        } catch (again) {
          fail(again, 'Saving');
        }
        return false;
      } finally {
        set({ busy: null });
      }
    },

    async resolveStale(choice) {
      const [first, ...others] = get().staleWrites;
      if (!first) return;
      set({ staleWrites: others });
      if (choice === 'later') return;
      const { path, theirs, theirsSha256 } = first;
      // The service's version becomes the base; the merged text (if any) is saved over it.
      set((s) => {
        const saved = { ...s.saved };
        const versions = { ...s.versions };
        const buffers = { ...s.buffers };
        if (theirs === null) delete saved[path];
        else saved[path] = theirs;
        if (theirsSha256) versions[path] = theirsSha256;
        else delete versions[path];
        if (choice === 'theirs') delete buffers[path];
        else buffers[path] = choice.content;
        const files = theirs === null && choice === 'theirs' ? s.files.filter((f) => f.path !== path) : s.files;
        return { saved, versions, buffers, files, openPath: files.some((f) => f.path === s.openPath) ? s.openPath : null };
      });
      worker().change(path, choice === 'theirs' ? theirs : choice.content);
      if (choice !== 'theirs') await get().save([path]);
    },

    discard(paths) {
      const targets = paths ?? dirtyPaths(get());
      set((s) => {
        const buffers = { ...s.buffers };
        for (const p of targets) delete buffers[p];
        return { buffers };
      });
      for (const p of targets) worker().change(p, get().saved[p] ?? null);
    },

    async createFile(path, content) {
      set({ busy: `Creating ${path}…`, error: null });
      try {
        const state = await api.call(writeDataModelFiles, { params: params(), query: { branchName: get().branchName! }, body: { files: [{ path, content, baseSha256: null }] } });
        const version = await sha256Hex(content);
        set((s) => ({
          saved: { ...s.saved, [path]: content },
          versions: version ? { ...s.versions, [path]: version } : s.versions,
          files: [...s.files.filter((f) => f.path !== path), { path, size: new TextEncoder().encode(content).byteLength, sha256: '', uncommitted: true }].sort(byPath),
          openPath: path,
        }));
        applyWorkingState(state);
        worker().change(path, content);
      } catch (error) {
        fail(error, `Creating ${path}`);
        throw error;
      } finally {
        set({ busy: null });
      }
    },

    async renameFile(path, newPath) {
      set({ busy: `Renaming ${path}…`, error: null });
      try {
        const state = await api.call(renameDataModelFile, { params: params(), query: { branchName: get().branchName! }, body: { path, newPath }, ...ifMatchOf(get().versions[path]) });
        const s = get();
        const content = s.saved[path];
        const buffer = s.buffers[path];
        const saved = { ...s.saved, [newPath]: content };
        delete saved[path];
        const versions = { ...s.versions, [newPath]: s.versions[path] };
        delete versions[path];
        const buffers = { ...s.buffers };
        delete buffers[path];
        if (buffer !== undefined) buffers[newPath] = buffer;
        set({
          saved,
          versions,
          buffers,
          files: s.files.map((f) => (f.path === path ? { ...f, path: newPath } : f)).sort(byPath),
          openPath: s.openPath === path ? newPath : s.openPath,
        });
        applyWorkingState(state);
        worker().change(path, null);
        worker().change(newPath, buffer ?? content);
      } catch (error) {
        fail(error, `Renaming ${path}`);
        throw error;
      } finally {
        set({ busy: null });
      }
    },

    async deleteFile(path) {
      set({ busy: `Deleting ${path}…`, error: null });
      try {
        const state = await api.call(deleteDataModelFile, { params: params(), query: { branchName: get().branchName!, path }, ...ifMatchOf(get().versions[path]) });
        set((s) => {
          const saved = { ...s.saved };
          const buffers = { ...s.buffers };
          delete saved[path];
          delete buffers[path];
          return { saved, buffers, files: s.files.filter((f) => f.path !== path), openPath: s.openPath === path ? null : s.openPath };
        });
        applyWorkingState(state);
        worker().change(path, null);
      } catch (error) {
        fail(error, `Deleting ${path}`);
        throw error;
      } finally {
        set({ busy: null });
      }
    },

    async validateOnServer() {
      const s = get();
      if (!s.branchName) return;
      set({ validating: true, error: null });
      try {
        const result = await api.call(validateDataModel, { params: params(), query: { branchName: s.branchName } });
        set({ server: { result, unsavedAtCheck: dirtyPaths(get()).length } });
      } catch (error) {
        fail(error, 'Validating on the service');
      } finally {
        set({ validating: false });
      }
    },

    guardUnsaved(description, action) {
      if (dirtyPaths(get()).length === 0) void action();
      else set({ pending: { description, run: action } });
    },

    async resolvePending(choice) {
      const pending = get().pending;
      set({ pending: null });
      if (!pending || choice === 'cancel') return;
      if (choice === 'save' && !(await get().save())) return;
      if (choice === 'discard') get().discard();
      await pending.run();
    },

    setError(error) {
      set({ error });
    },

    setNotice(notice) {
      set({ notice });
    },
  };
});

// Another service in the header: forget this one's deployment, branches and files.
onServiceChange(() => {
  loadToken += 1;
  dataSourceCache.clear();
  useModels.setState({ deploymentId: null, branches: [], branchName: null, files: [], saved: {}, buffers: {}, versions: {}, staleWrites: [], openPath: null, server: null, error: null, notice: null, pending: null });
});
registerLeaveGuard(() => {
  const unsaved = dirtyPaths(useModels.getState()).length;
  return unsaved > 0 ? `${unsaved} unsaved file${unsaved === 1 ? '' : 's'} in Models would be discarded.` : null;
});

// Live events: another window's save, a commit, merge, pull or fetch shows here without a reload.
// Decided after a short pause, against the state then, so this window's own saves (whose versions
// it already holds by then) cause no reload.
let liveEvents: LiveEvent[] = [];
let liveTimer: ReturnType<typeof setTimeout> | null = null;
const LIVE_TYPES = new Set<LiveEvent['type']>(['files', 'branch', 'upstream', 'resync']);

function applyLiveEvents(): void {
  const events = liveEvents;
  liveEvents = [];
  liveTimer = null;
  const s = useModels.getState();
  if (s.deploymentId === null || s.branchName === null) return;
  const shown = currentBranch(s);
  const mine = events.filter((e) => e.type === 'resync' || e.deploymentId === s.deploymentId);
  const reloadBranch = mine.some(
    (e) =>
      e.type === 'resync' ||
      (e.type === 'files' && e.branch === s.branchName && e.files.some((f) => (s.versions[f.path] ?? null) !== f.sha256)) ||
      (e.type === 'branch' && e.branch === s.branchName && e.commit !== (shown?.headCommit ?? null)),
  );
  if (reloadBranch) void s.refresh();
  else if (mine.some((e) => e.type === 'upstream' || e.type === 'branch')) void s.loadBranches();
}

onLiveEvent((event) => {
  if (!LIVE_TYPES.has(event.type)) return;
  liveEvents.push(event);
  liveTimer ??= setTimeout(applyLiveEvents, 300);
});
