/** One file of a commit's tree, by repository-relative path (`model/cubes/orders.yml`). */
export interface TreeFile {
  oid: string;
  mode: string;
}

/** A commit's whole tree flattened to its files: path → blob. Directories are implied by paths. */
export type FlatTree = ReadonlyMap<string, TreeFile>;

export type ChangeStatus = 'added' | 'modified' | 'deleted';

export interface TreeChange {
  path: string;
  status: ChangeStatus;
  /** Blob before the change (null when added). */
  beforeOid: string | null;
  /** Blob after the change (null when deleted). */
  afterOid: string | null;
}

const sameFile = (a: TreeFile | undefined, b: TreeFile | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.oid === b.oid && a.mode === b.mode);

/**
 * Files that differ between two trees, sorted by path. `among`: the only paths that can differ,
 * when the caller knows them (the files a commit writes); the others are not compared.
 */
export function diffTrees(before: FlatTree, after: FlatTree, among?: Iterable<string>): TreeChange[] {
  const changes: TreeChange[] = [];
  const compare = (path: string, a: TreeFile | undefined, b: TreeFile | undefined) => {
    if (sameFile(a, b)) return;
    changes.push({ path, status: a === undefined ? 'added' : b === undefined ? 'deleted' : 'modified', beforeOid: a?.oid ?? null, afterOid: b?.oid ?? null });
  };
  if (among) {
    for (const path of new Set(among)) compare(path, before.get(path), after.get(path));
  } else {
    // Each tree walked once and only the differences sorted: merging every path of two 12,500-file
    // trees into one sorted list held the HTTP thread about 8 ms a merge (issue 28).
    for (const [path, a] of before) compare(path, a, after.get(path));
    for (const [path, b] of after) if (!before.has(path)) compare(path, undefined, b);
  }
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

export interface ThreeWayMergeResult {
  merged: Map<string, TreeFile>;
  /** Paths changed differently on both sides (or a file on one side where the other has a folder). */
  conflicts: string[];
}

/**
 * Tree-level three-way merge over blob ids: a path changed on one side only takes that side; a path
 * changed identically on both sides is fine; a path changed differently on both sides (edit/edit,
 * edit/delete, add/add with other content) is a conflict. No line-level merging: a conflict is
 * reported rather than guessed.
 */
export function threeWayMerge(base: FlatTree, ours: FlatTree, theirs: FlatTree): ThreeWayMergeResult {
  const merged = new Map<string, TreeFile>();
  const conflicts = new Set<string>();
  const paths = new Set([...base.keys(), ...ours.keys(), ...theirs.keys()]);
  for (const path of paths) {
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    let result: TreeFile | undefined;
    if (sameFile(o, t)) result = o;
    else if (sameFile(o, b)) result = t;
    else if (sameFile(t, b)) result = o;
    else {
      conflicts.add(path);
      continue;
    }
    if (result) merged.set(path, result);
  }
  for (const path of pathsShadowedByFiles(merged)) conflicts.add(path);
  return { merged, conflicts: [...conflicts].sort() };
}

/** Paths that cannot coexist in one tree: `a` as a file while `a/b` exists (both are returned). */
export function pathsShadowedByFiles(files: ReadonlyMap<string, unknown>): string[] {
  const clashes = new Set<string>();
  for (const path of files.keys()) {
    let slash = path.indexOf('/');
    while (slash > 0) {
      const folder = path.slice(0, slash);
      if (files.has(folder)) {
        clashes.add(folder);
        clashes.add(path);
      }
      slash = path.indexOf('/', slash + 1);
    }
  }
  return [...clashes].sort();
}
