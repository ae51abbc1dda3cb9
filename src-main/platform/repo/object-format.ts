// The bytes of tree and commit objects as git writes them, for the native object writer
// (loose-object.ts): isomorphic-git built them in JavaScript with a Buffer per field of every entry,
// and a commit in a 10,000-cube model rewrites a 10,000-entry folder (issue 28). The same bytes as
// isomorphic-git's GitTree and GitCommit make: a unit test compares both with plain git.

/** An entry of a tree object to write (tree-object.ts reads them back as TreeObjectEntry). */
export interface EntryToWrite {
  /** As a tree or the index spells it: `100644`, `100755`, `120000`, `160000`, `40000` or `040000`. */
  mode: string;
  /** One path segment. */
  name: string;
  oid: string;
}

/** Modes git writes (a folder without its leading zero); others are read as isomorphic-git reads them. */
function canonicalMode(mode: string): string {
  if (mode === '100644' || mode === '40000' || mode === '100755') return mode;
  if (/^0?4/.test(mode)) return '40000';
  if (/^1006/.test(mode)) return '100644';
  if (/^1007/.test(mode)) return '100755';
  if (/^120/.test(mode)) return '120000';
  if (/^160/.test(mode)) return '160000';
  throw new Error(`Could not understand file mode: ${mode}`);
}

// eslint-disable-next-line no-control-regex
const BEYOND_ASCII = /[^\u0000-\u007f]/;

/** Whether `text` is ASCII: its UTF-16 order is then its UTF-8 byte order, and a character is a byte. */
export const isAscii = (text: string): boolean => !BEYOND_ASCII.test(text);

/** The value of a hexadecimal digit (lower or upper case). */
const nibble = (c: number): number => (c <= 57 ? c - 48 : (c | 32) - 87);

/**
 * A tree object's content: entries in git's order, which compares names as UTF-8 bytes with a
 * folder's name read as if it ended in `/`. Written a character at a time where names are ASCII:
 * a Buffer call per field of 10,000 entries (the folder of a 10,000-cube model) took most of the
 * time (issue 28).
 */
export function treeObjectOf(entries: readonly EntryToWrite[]): Buffer {
  let ascii = true;
  const rows = entries.map((entry) => {
    const mode = canonicalMode(entry.mode);
    if (ascii && !isAscii(entry.name)) ascii = false;
    return { mode, name: entry.name, key: mode === '40000' ? `${entry.name}/` : entry.name, oid: entry.oid };
  });
  if (ascii) rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  else rows.sort((a, b) => Buffer.compare(Buffer.from(a.key, 'utf8'), Buffer.from(b.key, 'utf8')));
  let size = 0;
  for (const row of rows) size += row.mode.length + 1 + (ascii ? row.name.length : Buffer.byteLength(row.name, 'utf8')) + 1 + 20;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const row of rows) {
    for (let i = 0; i < row.mode.length; i++) out[at++] = row.mode.charCodeAt(i);
    out[at++] = 0x20;
    if (ascii) for (let i = 0; i < row.name.length; i++) out[at++] = row.name.charCodeAt(i);
    else at += out.write(row.name, at, 'utf8');
    out[at++] = 0;
    const oid = row.oid;
    if (oid.length !== 40) throw new Error(`Not an object id: ${oid}`);
    for (let i = 0; i < 40; i += 2) {
      const high = nibble(oid.charCodeAt(i));
      const low = nibble(oid.charCodeAt(i + 1));
      if (((high | low) & ~15) !== 0) throw new Error(`Not an object id: ${oid}`);
      out[at++] = (high << 4) | low;
    }
  }
  return out;
}

export interface CommitPerson {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** A commit message as git keeps it: no carriage returns, no blank lines before, one line break after. */
const normalizedMessage = (message: string): string => `${message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;

/** A commit object's content (times in UTC, `+0000`). */
export function commitObjectOf(commit: { tree: string; parents: readonly string[]; author: CommitPerson; committer: CommitPerson; message: string }): Buffer {
  const person = (p: CommitPerson) => `${p.name} <${p.email}> ${p.timestamp} +0000`;
  let text = `tree ${commit.tree}\n`;
  for (const parent of commit.parents) text += `parent ${parent}\n`;
  text += `author ${person(commit.author)}\ncommitter ${person(commit.committer)}\n\n${normalizedMessage(commit.message)}`;
  return Buffer.from(text, 'utf8');
}
