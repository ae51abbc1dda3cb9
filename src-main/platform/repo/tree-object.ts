// Reading a tree object's entries ourselves. isomorphic-git's reader refuses a whole tree when one
// entry has a name it considers unsafe (`git~1`, `.GIT.`, …): a repository that already holds such a
// name — from before the path rules (issue 23) or from a teammate's commit — could then not be read,
// validated or repaired at all. Here every entry is read; only names that cannot be a path segment
// at all ('', `.`, `..`) are left out, which a next commit then drops from the tree.

import { isAscii } from './object-format';
import { bufferView } from '../files/buffer-view';

export interface TreeObjectEntry {
  /** `100644`, `100755`, `120000`, `040000` or `160000`. */
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/** A folder's mode as entries are read here (a tree object may spell it `40000`). */
export const TREE_MODE = '040000';

const decoder = new TextDecoder();

/**
 * The entries of a tree object's content (`<mode> <name>\0<20-byte id>`, repeated). The content is
 * read as one latin1 string (a character a byte), whose searches and slices cost no allocation of
 * their own: with a decoder call, a copy and a hex conversion per entry, the 10,000-entry folder of
 * a 10,000-cube model took 20 ms of the HTTP thread the first time (issue 28).
 */
export function parseTreeObject(content: Uint8Array): TreeObjectEntry[] {
  const bytes = bufferView(content);
  const text = bytes.toString('latin1');
  const entries: TreeObjectEntry[] = [];
  let at = 0;
  while (at < text.length) {
    const space = text.indexOf(' ', at);
    const nul = space < 0 ? -1 : text.indexOf('\0', space + 1);
    if (space < 0 || nul < 0 || nul + 21 > text.length) throw new Error(`A tree object is cut short at byte ${at}.`);
    const mode = modeAt(text, at, space);
    let path = text.slice(space + 1, nul);
    // A name with a byte past ASCII is UTF-8 to decode; the rest reads as it is in the latin1 text.
    if (!isAscii(path)) path = decoder.decode(bytes.subarray(space + 1, nul));
    const oid = bytes.toString('hex', nul + 1, nul + 21);
    at = nul + 21;
    if (path === '' || path === '.' || path === '..' || path.includes('/')) continue;
    const type = mode === TREE_MODE ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, path, oid, type });
  }
  return entries;
}

/** The mode of the entry at `at` (its text up to `space`): the usual ones without a copy of their own. */
function modeAt(text: string, at: number, space: number): string {
  const length = space - at;
  if (length === 6 && text.startsWith('100644', at)) return '100644';
  if (length === 5 && text.startsWith('40000', at)) return TREE_MODE;
  return text.slice(at, space);
}
