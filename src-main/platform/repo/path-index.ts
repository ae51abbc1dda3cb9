// Per-commit indexes of a branch's head files, and the path checks of a write that use them: a save,
// an upload or a commit of one file into a branch of 12,500 looks only at the names it could clash
// with, not at every path of the branch (issue 28). Head trees are kept by id (repository.ts), so an
// index keyed by the tree object is made once per commit.
import { caseTwins, foldedName, type CaseTwin } from '../../../src-shared/paths/portable-path';
import type { FlatTree } from './tree';

/** What the checks read of a branch as a user sees it (a WorkingTree): its head files, its uncommitted edits, and a file by path. */
export interface BranchFiles {
  head: FlatTree;
  edits: ReadonlyMap<string, string | null>;
  file(path: string): unknown;
}

/** The paths of a head tree in order, made once per tree (trees are kept by id, so once per commit). */
const sortedPaths = new WeakMap<FlatTree, string[]>();

export function sortedPathsOf(head: FlatTree): string[] {
  let sorted = sortedPaths.get(head);
  if (!sorted) sortedPaths.set(head, (sorted = [...head.keys()].sort()));
  return sorted;
}

/** The first index of `sorted` whose path is not before `path` (UTF-16 code unit order, as `sort()`). */
function firstAtOrAfter(sorted: readonly string[], path: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < path) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Folded form → the spellings of every folder and file path of a head tree, made once per tree. */
const foldedSpellings = new WeakMap<FlatTree, Map<string, string[]>>();

function foldedSpellingsOf(head: FlatTree): Map<string, string[]> {
  let index = foldedSpellings.get(head);
  if (index) return index;
  index = new Map();
  const add = (spelling: string, folded: string) => {
    const spellings = index!.get(folded);
    if (spellings) spellings.push(spelling);
    else index!.set(folded, [spelling]);
  };
  // Folder → its folded form, each folder folded and listed once (a model's files share a few folders).
  const folders = new Map<string, string>([['', '']]);
  const folderOf = (folder: string): string => {
    let folded = folders.get(folder);
    if (folded === undefined) {
      const slash = folder.lastIndexOf('/');
      const parent = slash < 0 ? '' : folderOf(folder.slice(0, slash));
      const name = foldedName(folder.slice(slash + 1));
      folded = slash < 0 ? name : `${parent}/${name}`;
      folders.set(folder, folded);
      add(folder, folded);
    }
    return folded;
  };
  for (const path of head.keys()) {
    const slash = path.lastIndexOf('/');
    const name = foldedName(path.slice(slash + 1));
    add(path, slash < 0 ? name : `${folderOf(path.slice(0, slash))}/${name}`);
  }
  foldedSpellings.set(head, index);
  return index;
}

/** Every folder and the file of a path with its folded form: `a/B.yml` → [`a`, `a`], [`a/B.yml`, `a/b.yml`]. */
function foldedPrefixes(path: string): [prefix: string, folded: string][] {
  const out: [string, string][] = [];
  let folded = '';
  for (let start = 0, end = path.indexOf('/'); ; start = end + 1, end = path.indexOf('/', start)) {
    const segment = end < 0 ? path.slice(start) : path.slice(start, end);
    folded = start === 0 ? foldedName(segment) : `${folded}/${foldedName(segment)}`;
    out.push([end < 0 ? path : path.slice(0, end), folded]);
    if (end < 0) return out;
  }
}

/** The paths `changes` brings into the branch: written, and not a file of it before. */
function addedPaths(tree: BranchFiles, changes: ReadonlyMap<string, string | null>): string[] {
  return [...changes].filter(([path, content]) => content !== null && !tree.file(path)).map(([path]) => path);
}

/** Whether a path is a file of the branch once `changes` apply. */
const keptAfter = (tree: BranchFiles, changes: ReadonlyMap<string, string | null>) => (path: string) =>
  changes.has(path) ? changes.get(path) !== null : tree.file(path) !== undefined;

/**
 * The new paths of `changes` that would be the same file as another on macOS or Windows. Only the
 * names a new path could clash with are looked at: the head's spellings of the same folded names
 * (indexed once per commit), still there if a file kept by the write is or lies under them, and the
 * uncommitted new files. Adding a file to 12,500 took 16–25 ms when every path was folded on each
 * save (issue 28).
 */
export function caseTwinsOfNewPaths(tree: BranchFiles, changes: ReadonlyMap<string, string | null>): CaseTwin[] {
  const added = addedPaths(tree, changes);
  if (added.length === 0) return [];
  const kept = keptAfter(tree, changes);
  const committed = sortedPathsOf(tree.head);
  const headKeeps = (prefix: string) => {
    if (tree.head.has(prefix)) return kept(prefix);
    const under = `${prefix}/`;
    for (let i = firstAtOrAfter(committed, under); i < committed.length && committed[i]!.startsWith(under); i++) if (kept(committed[i]!)) return true;
    return false;
  };
  const index = foldedSpellingsOf(tree.head);
  const existing = new Set<string>();
  for (const path of added) {
    for (const [, folded] of foldedPrefixes(path)) for (const spelling of index.get(folded) ?? []) if (!existing.has(spelling) && headKeeps(spelling)) existing.add(spelling);
  }
  for (const [path, content] of tree.edits) if (content !== null && !tree.head.has(path) && kept(path) && !added.includes(path)) existing.add(path);
  return caseTwins(existing, added);
}

/**
 * The paths that would make a file and a folder share a path once `changes` apply. Only a path new
 * to the branch can: its folders are looked up as files, and the files under it are found by a
 * binary search of the head's sorted paths and of the edited ones. A save costs what it writes, not a
 * pass over every file of the branch (issue 28).
 */
export function fileFolderClashes(tree: BranchFiles, changes: ReadonlyMap<string, string | null>): string[] {
  const added = addedPaths(tree, changes);
  if (added.length === 0) return [];
  const exists = keptAfter(tree, changes);
  const committed = sortedPathsOf(tree.head);
  const edited = [...new Set([...tree.edits.keys(), ...changes.keys()])].sort();
  const clashes = new Set<string>();
  for (const path of added) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      if (exists(folder)) clashes.add(folder).add(path);
    }
    const under = `${path}/`;
    for (const sorted of [committed, edited]) {
      for (let i = firstAtOrAfter(sorted, under); i < sorted.length && sorted[i]!.startsWith(under); i++) {
        if (exists(sorted[i]!)) clashes.add(path).add(sorted[i]!);
      }
    }
  }
  return [...clashes].sort();
}

/**
 * `caseTwinsOfNewPaths` for a change to a tree with no uncommitted edits beside it (an upload, a
 * commit): `changes` maps each written path to its content ('' will do) or null when removed.
 */
export function caseTwinsOfTreeChange(head: FlatTree, changes: ReadonlyMap<string, string | null>): CaseTwin[] {
  return caseTwinsOfNewPaths({ head, edits: new Map(), file: (path) => head.get(path) }, changes);
}
