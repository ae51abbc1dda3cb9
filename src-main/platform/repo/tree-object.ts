// Reading a tree object's entries ourselves. isomorphic-git's reader refuses a whole tree when one
// entry has a name it considers unsafe (`git~1`, `.GIT.`, …): a repository that already holds such a
// name — from before the path rules (issue 23) or from a teammate's commit — could then not be read,
// validated or repaired at all. Here every entry is read; only names that cannot be a path segment
// at all ('', `.`, `..`) are left out, which a next commit then drops from the tree.

export interface TreeObjectEntry {
  /** `100644`, `100755`, `120000`, `040000` or `160000`. */
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

const decoder = new TextDecoder();

/** The entries of a tree object's content (`<mode> <name>\0<20-byte id>`, repeated). */
export function parseTreeObject(content: Uint8Array): TreeObjectEntry[] {
  const entries: TreeObjectEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = space < 0 ? -1 : content.indexOf(0x00, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > content.length) throw new Error(`A tree object is cut short at byte ${at}.`);
    let mode = decoder.decode(content.subarray(at, space));
    if (mode === '40000') mode = '040000';
    const path = decoder.decode(content.subarray(space + 1, nul));
    const oid = Buffer.from(content.subarray(nul + 1, nul + 21)).toString('hex');
    at = nul + 21;
    if (path === '' || path === '.' || path === '..' || path.includes('/')) continue;
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, path, oid, type });
  }
  return entries;
}
