// The Models store's file actions: saving edits (with the version each is based on, and the
// merge path when the service holds a newer one), discarding, creating, renaming, deleting.
import type { StoreApi } from 'zustand';
import {
  deleteDataModelFile,
  getDataModelFiles,
  renameDataModelFile,
  writeDataModelFiles,
  type FileContent,
  type WorkingState,
} from '../../../../src-shared/api/data-model';
import { api } from '../../app/session';
import type { CompilerClient } from './compiler';
import { byPath, dirtyPaths, type ModelsState } from './state';
import { changedPaths, ifMatchOf, sha256Hex } from './versions';
import { plural } from '../../lib/plural';

/** What the file actions need from the store that holds them. */
export interface StoreKit {
  set: StoreApi<ModelsState>['setState'];
  get: () => ModelsState;
  /** The compile worker, told of every change to a file's text. */
  worker: () => CompilerClient;
  /** The shown deployment as path parameters (throws when none is selected). */
  params: () => { deploymentId: number };
  fail: (error: unknown, action: string) => void;
  /** Applies the service's working state of the shown branch to the file list and the branch's flags. */
  applyWorkingState: (state: WorkingState) => void;
}

export type FileActions = Pick<ModelsState, 'save' | 'resolveStale' | 'discard' | 'createFile' | 'renameFile' | 'deleteFile'>;

export function fileActions({ set, get, worker, params, fail, applyWorkingState }: StoreKit): FileActions {
  return {

    async save(paths) {
      const s = get();
      const targets = (paths ?? dirtyPaths(s)).filter((p) => s.buffers[p] !== undefined && s.buffers[p] !== s.saved[p]);
      if (targets.length === 0) return true;
      // Each file carries the version it was based on (a file new in this session: none yet, so `null`).
      const withBase = (path: string) => ({ path, content: s.buffers[path], baseSha256: s.saved[path] === undefined ? null : (s.versions[path] ?? undefined) });
      set({ busy: targets.length === 1 ? `Saving ${targets[0]}…` : `Saving ${plural(targets.length, 'file')}…`, error: null });
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
  };
}
