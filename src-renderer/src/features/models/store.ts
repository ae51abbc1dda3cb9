// State of the Models screen: the deployment and branch shown, the branch's files (as saved on the
// service, and unsaved editor buffers), dev mode, the worker's diagnostics and the server's verdict.
import { create } from 'zustand';
import {
  getDataModelFiles,
  listBranches,
  startDevMode,
  stopDevMode,
  validateDataModel,
  type FileList,
  type FileSummary,
  type WorkingState,
} from '../../../../src-shared/api/data-model';
import type { LiveEvent } from '../../../../src-shared/api/events';
import { getDeploymentSettings } from '../../../../src-shared/api/deployments';
import { onServiceChange, registerLeaveGuard } from '../../app/endpoint';
import { onLiveEvent } from '../../lib/live';
import { api } from '../../app/session';
import { toShownError } from '../../lib/errors';
import { fetchAllPages } from '../../lib/paging';
import { CompilerClient, EMPTY_ANALYSIS } from './compiler';
import { AnalyzerSourceReader } from './data-sources';
import type { AnalyzerSources } from './protocol';
import { fileActions } from './file-actions';
import { byPath, currentBranch, dirtyPaths, myDevBranch, type ModelsState } from './state';
import { plural } from '../../lib/plural';

// The screen's components read the state's shape and selectors from here, with the store.
export { currentBranch, dirtyPaths, isEditable, myDevBranch, type ModelsState, type PendingAction, type RevealRequest, type ServerVerdict } from './state';

const FILE_PAGE = 1000;

/** Why the analyzers' findings are held (null: they run), for the Problems panel. */
const heldOf = (sources: AnalyzerSources, why: 'reading' | 'unavailable'): ModelsState['analyzersHeld'] => (sources.kind === 'unknown' ? why : null);

/** The deployment's data sources as the analyzers need them: a 403 and a transient failure are told apart there. */
const dataSources = new AnalyzerSourceReader((deploymentId) => api.call(getDeploymentSettings, { params: { deploymentId } }));

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
    analyzersHeld: null,
    server: null,
    validating: false,
    busy: null,
    error: null,
    notice: null,
    pending: null,

    async selectDeployment(id) {
      if (get().deploymentId === id && get().branchName !== null) return;
      loadToken += 1;
      set({ deploymentId: id, branches: [], branchName: null, files: [], saved: {}, buffers: {}, versions: {}, staleWrites: [], openPath: null, server: null, analyzersHeld: null, error: null, notice: null });
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
        const sources = dataSources.load(deploymentId);
        // Every file with its text, a few pages for the whole branch however many files it has: the
        // compiler must see every one (the model's own limits are the compiler's to apply), and a
        // list cut at the pager's default showed a 12,500-file branch as 5,000.
        const query = (after?: string) => ({ branchName: name, first: FILE_PAGE, content: true, ...(after ? { after } : {}) });
        const listed = await fetchAllPages(async (after) => (await api.call(getDataModelFiles, { params: { deploymentId }, query: query(after) })) as FileList, Infinity);
        const first = await sources.first;
        if (token !== loadToken) return;
        const files: FileSummary[] = listed.map(({ content: _content, ...summary }) => summary);
        const saved = Object.fromEntries(listed.map((c) => [c.path, c.content ?? '']));
        const versions = Object.fromEntries(listed.map((c) => [c.path, c.sha256]));
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
        set({ files: files.sort(byPath), saved, versions, buffers: kept, openPath, analyzersHeld: heldOf(first, 'reading') });
        worker().reset(
          listed.map((c) => ({ path: c.path, content: kept[c.path] ?? saved[c.path]! })),
          sameBranch,
          first,
        );
        // The first read failed for a transient reason: check the branch again once a retry answers.
        if (first.kind === 'unknown') {
          void sources.settled.then((settled) => {
            if (token !== loadToken) return;
            set({ analyzersHeld: heldOf(settled, 'unavailable') });
            if (settled.kind !== 'unknown') worker().setSources(settled);
          });
        }
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

    ...fileActions({ set, get, worker, params, fail, applyWorkingState }),

    async validateOnServer() {
      const s = get();
      if (!s.branchName) return;
      set({ validating: true, error: null });
      try {
        const result = await api.call(validateDataModel, { params: params(), query: { branchName: s.branchName } });
        set({ server: { result, unsavedAtCheck: dirtyPaths(get()).length, versionsAtCheck: get().versions } });
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
  dataSources.clear();
  useModels.setState({ deploymentId: null, branches: [], branchName: null, files: [], saved: {}, buffers: {}, versions: {}, staleWrites: [], openPath: null, server: null, analyzersHeld: null, error: null, notice: null, pending: null });
});
registerLeaveGuard(() => {
  const unsaved = dirtyPaths(useModels.getState()).length;
  return unsaved > 0 ? `${plural(unsaved, 'unsaved file')} in Models would be discarded.` : null;
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
