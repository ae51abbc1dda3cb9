/**
 * Writing a commit's tree from its first parent's: only the folders on the way to a changed file
 * are written again. A commit, merge or pull in a 10,000-cube model wrote every folder from the flat
 * list of files, the 10,000-entry one included, on the HTTP thread (issue 28).
 *
 * A folder whose changes only replace files' and subfolders' ids (the usual edit) is its object
 * with those ids replaced, found by a search of its bytes; a folder that gains or loses an entry,
 * or whose file changes mode, is read entry by entry and written again. Anything unexpected (a
 * folder that cannot be read, or does not hold a file as the parent's tree had it, a file and a
 * folder that would share a name) gives null, and the caller writes the whole tree from the list of
 * files instead, which says what is wrong.
 */
import { writeLooseObject } from './loose-object';
import { treeObjectOf, type EntryToWrite } from './object-format';
import { readObjectSync } from './packed-object';
import type { FlatTree, TreeChange } from './tree';
import { parseTreeObject, TREE_MODE } from './tree-object';

/** What a commit changes in one folder: its files by name, and the subfolders with changes inside. */
interface FolderPlan {
  files: Map<string, TreeChange>;
  folders: Set<string>;
}

/** A folder every entry of which is gone: its parent drops it. */
const EMPTIED = Symbol('emptied');

/**
 * The tree holding `after`, written from tree `rootOid` (which holds `before`) and `changes` (what
 * makes `after` from `before`); null when it has to be written whole (see the module comment).
 */
export async function treeWithChanges(gitdir: string, rootOid: string, changes: readonly TreeChange[], before: FlatTree, after: FlatTree): Promise<string | null> {
  if (changes.length === 0) return rootOid;
  const plans = plansOf(changes);
  const rewrite = async (treeOid: string | null, folder: string): Promise<string | typeof EMPTIED | null> => {
    const plan = plans.get(folder)!;
    let tree: Buffer;
    if (treeOid === null) tree = Buffer.alloc(0);
    else {
      const read = readObjectSync(gitdir, treeOid, 'tree');
      if (!read) return null;
      tree = Buffer.from(read);
    }
    const subfolders = new Map<string, string | typeof EMPTIED>();
    for (const name of plan.folders) {
      const at = entryIdAt(tree, name, true);
      const written = await rewrite(at < 0 ? null : tree.toString('hex', at, at + 20), `${folder}${name}/`);
      if (written === null) return null;
      subfolders.set(name, written);
    }
    const inPlace =
      treeOid !== null &&
      [...plan.files.values()].every((c) => c.status === 'modified' && before.get(c.path)?.mode === after.get(c.path)?.mode) &&
      [...subfolders].every(([name, oid]) => oid !== EMPTIED && entryIdAt(tree, name, true) >= 0);
    const written = inPlace ? replaceIds(tree, plan, subfolders) : rebuild(tree, plan, subfolders, after);
    if (written === null) return null;
    if (written === EMPTIED) return folder === '' ? writeLooseObject(gitdir, 'tree', treeObjectOf([])) : EMPTIED;
    return writeLooseObject(gitdir, 'tree', written);
  };
  const oid = await rewrite(rootOid, '');
  return oid === EMPTIED ? null : oid;
}

/** Folder (`''`, `model/`, `model/cubes/`) → what changes in it. */
function plansOf(changes: readonly TreeChange[]): Map<string, FolderPlan> {
  const plans = new Map<string, FolderPlan>();
  const planOf = (folder: string) => {
    let plan = plans.get(folder);
    if (!plan) plans.set(folder, (plan = { files: new Map(), folders: new Set() }));
    return plan;
  };
  for (const change of changes) {
    const slash = change.path.lastIndexOf('/');
    planOf(change.path.slice(0, slash + 1)).files.set(change.path.slice(slash + 1), change);
    for (let end = slash; end > 0; end = change.path.lastIndexOf('/', end - 1)) {
      const parent = change.path.lastIndexOf('/', end - 1);
      planOf(change.path.slice(0, parent + 1)).folders.add(change.path.slice(parent + 1, end));
    }
  }
  return plans;
}

/** `tree` with the new ids of its changed files and subfolders written over the old; null when a file is not there as it was. */
function replaceIds(tree: Buffer, plan: FolderPlan, subfolders: ReadonlyMap<string, string | typeof EMPTIED>): Buffer | null {
  for (const [name, change] of plan.files) {
    const at = entryIdAt(tree, name, false);
    if (at < 0 || tree.toString('hex', at, at + 20) !== change.beforeOid) return null;
    tree.write(change.afterOid!, at, 'hex');
  }
  for (const [name, oid] of subfolders) tree.write(oid as string, entryIdAt(tree, name, true), 'hex');
  return tree;
}

/** The entries of `tree` with the changes made, as a new tree object; EMPTIED when none is left, null when a file is not there as it was. */
function rebuild(tree: Buffer, plan: FolderPlan, subfolders: ReadonlyMap<string, string | typeof EMPTIED>, after: FlatTree): Buffer | typeof EMPTIED | null {
  const entries = new Map<string, EntryToWrite>();
  for (const entry of parseTreeObject(tree)) entries.set(entry.path, { mode: entry.mode, name: entry.path, oid: entry.oid });
  for (const [name, change] of plan.files) {
    const current = entries.get(name);
    const asBefore = change.beforeOid === null ? current === undefined : current !== undefined && current.mode !== TREE_MODE && current.oid === change.beforeOid;
    if (!asBefore) return null;
    if (change.afterOid === null) entries.delete(name);
    else entries.set(name, { mode: after.get(change.path)!.mode, name, oid: change.afterOid });
  }
  for (const [name, oid] of subfolders) {
    const current = entries.get(name);
    if (current !== undefined && current.mode !== TREE_MODE) return null;
    if (oid === EMPTIED) entries.delete(name);
    else entries.set(name, { mode: TREE_MODE, name, oid });
  }
  return entries.size === 0 ? EMPTIED : treeObjectOf([...entries.values()]);
}

/**
 * Where the id of entry `name` starts in tree object `tree` (a folder's entry when `folder`), or -1.
 * An entry is `<mode> <name>\0<20-byte id>`: the name with the space before it and the NUL after
 * it is searched for, and taken where a mode of its kind stands before it, at the start of the
 * object or after the NUL and id of the entry before (bytes of an id never pass for all that).
 */
function entryIdAt(tree: Buffer, name: string, folder: boolean): number {
  const needle = Buffer.from(` ${name}\0`, 'utf8');
  const modes = folder ? ['40000'] : ['100644', '100755', '120000'];
  for (let at = tree.indexOf(needle); at >= 0; at = tree.indexOf(needle, at + 1)) {
    for (const mode of modes) {
      const start = at - mode.length;
      if (start < 0 || tree.toString('latin1', start, at) !== mode) continue;
      if (start === 0 || (start >= 21 && tree[start - 21] === 0)) return at + needle.byteLength;
    }
  }
  return -1;
}
