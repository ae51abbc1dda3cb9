/**
 * Paths a model repository may hold when a team shares it across Linux, macOS and Windows (issue
 * 23): git's own rules (read-cache.c verify_path with core.protectNTFS and core.protectHFS, i.e.
 * path.c is_ntfs_dotgit / is_ntfs_dotgitmodules… and utf8.c is_hfs_dotgit…), the names and
 * characters Windows refuses (git for Windows' is_valid_win32_path, and Microsoft's list of
 * reserved device names), Unicode that is no text, and names that one of those file systems takes
 * for the same file (case and normalisation twins). Pure: the service checks every way a path
 * enters a repository with it, and the editor checks names before sending them.
 */

/** Why a path is refused; each is an error `code` of the API. */
export type PathRuleCode = 'PATH_RESERVED_BY_GIT' | 'PATH_NOT_PORTABLE' | 'PATH_INVALID_UNICODE' | 'PATH_CASE_CONFLICT';

export interface PathRuleProblem {
  code: PathRuleCode;
  /** The rule, in a few words (`NTFS short name of .git`, `Windows reserved name CON`…). */
  rule: string;
  /** The path concerned. */
  path: string;
  detail: string;
}

/** Longest segment (file or folder name) in UTF-8 bytes: Linux's NAME_MAX (NTFS and APFS allow 255 UTF-16 units, which this stays within). */
export const MAX_SEGMENT_BYTES = 255;

const problem = (code: PathRuleCode, path: string, rule: string, detail: string): PathRuleProblem => ({ code, rule, path, detail: `"${path}" ${detail}` });

// ---- git: .git and its synonyms ---------------------------------------------------------------

/** Code points HFS+ ignores in names (utf8.c next_hfs_char): `.g\u200cit` is `.git` on a Mac. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** utf8.c is_hfs_dot_generic: `.` + needle, case-insensitively, once HFS-ignored code points are dropped. */
const isHfsDot = (segment: string, needle: string): boolean => segment.replace(HFS_IGNORED, '').toLowerCase() === `.${needle}`;

/** Only spaces and periods after `at`, up to the end or an NTFS stream separator `:` (path.c only_spaces_and_periods). */
function onlySpacesAndPeriods(segment: string, at: number): boolean {
  for (let i = at; i < segment.length; i++) {
    const c = segment[i];
    if (c === ':') return true;
    if (c !== ' ' && c !== '.') return false;
  }
  return true;
}

/** path.c is_ntfs_dotgit: `.git` or its 8.3 short name `git~1`, with trailing spaces or periods, or an alternate data stream. */
function isNtfsDotGit(segment: string): boolean {
  const lower = segment.toLowerCase();
  if (lower.startsWith('.git')) return onlySpacesAndPeriods(segment, 4);
  if (lower.startsWith('git~1')) return onlySpacesAndPeriods(segment, 5);
  return false;
}

/**
 * path.c is_ntfs_dot_generic: `.<name>` with trailing spaces/periods/stream, its regular short name
 * (`<first six>~1`…`~4`) or its fall-back short name (`<prefix>~<digits>`, e.g. `gi7eba~1`).
 */
function isNtfsDot(segment: string, name: string, shortPrefix: string): boolean {
  const lower = segment.toLowerCase();
  if (lower.startsWith(`.${name}`)) return onlySpacesAndPeriods(segment, name.length + 1);
  if (lower.startsWith(name.slice(0, 6)) && lower[6] === '~' && lower[7]! >= '1' && lower[7]! <= '4') return onlySpacesAndPeriods(segment, 8);
  let i = 0;
  let sawTilde = false;
  for (; i < 8; i++) {
    const c = lower[i];
    if (c === undefined) return false;
    if (sawTilde) {
      if (c < '0' || c > '9') return false;
    } else if (c === '~') {
      const digit = lower[++i];
      if (digit === undefined || digit < '1' || digit > '9') return false;
      sawTilde = true;
    } else if (i >= 6 || c.charCodeAt(0) > 0x7f || c !== shortPrefix[i]) return false;
  }
  return onlySpacesAndPeriods(segment, i);
}

/** The special files git reads from a work tree, with their NTFS fall-back short-name prefixes (path.c). */
const GIT_FILES: [string, string][] = [
  ['gitmodules', 'gi7eba'],
  ['gitignore', 'gi250a'],
  ['gitattributes', 'gi7d29'],
];

/**
 * Why git refuses (or treats specially) a path segment, or null: `.git` in any case and its NTFS
 * and HFS+ synonyms (`git~1`, `.git.`, `.git::$INDEX_ALLOCATION`, `.g\u200cit`), and the files git
 * reads from a work tree (`.gitmodules`, `.gitattributes`, `.gitignore` and their synonyms), which
 * would configure the checkouts of everyone sharing the repository.
 */
export function gitReservedSegment(segment: string): string | null {
  if (isNtfsDotGit(segment)) return segment.toLowerCase().startsWith('git~1') ? 'the NTFS short name of .git' : '.git (NTFS spelling)';
  if (isHfsDot(segment, 'git')) return '.git (HFS+ spelling)';
  for (const [name, prefix] of GIT_FILES) {
    if (isNtfsDot(segment, name, prefix)) return `.${name} (or its NTFS spelling)`;
    if (isHfsDot(segment, name)) return `.${name} (HFS+ spelling)`;
  }
  return null;
}

// ---- Windows ---------------------------------------------------------------------------------

/** Device names Windows reserves in every folder, with any extension (Microsoft's naming rules; git's is_valid_win32_path). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i;
// eslint-disable-next-line no-control-regex
const WINDOWS_INVALID_CHARACTER = /[<>:"|?*\\\u0000-\u001f]/;

/** Why Windows (or macOS/Linux limits) cannot hold a segment, or null. */
export function nonPortableSegment(segment: string): string | null {
  const invalid = WINDOWS_INVALID_CHARACTER.exec(segment);
  if (invalid) {
    const c = invalid[0];
    return c < ' ' ? `a control character (U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}), which Windows refuses` : `"${c}", which Windows refuses in names`;
  }
  // The device name is what precedes the first period, trailing spaces ignored ("CON .yml" too).
  const base = segment.split('.')[0]!.replace(/ +$/, '');
  if (WINDOWS_DEVICE.test(base)) return `the Windows reserved name ${base.toUpperCase()} (with any extension)`;
  if (/[. ]$/.test(segment)) return 'a name ending in a period or space, which Windows drops';
  // A UTF-16 unit takes at most 3 bytes in UTF-8: short names need no count.
  if (segment.length * 3 > MAX_SEGMENT_BYTES && new TextEncoder().encode(segment).byteLength > MAX_SEGMENT_BYTES) return `a name longer than ${MAX_SEGMENT_BYTES} bytes`;
  return null;
}

/**
 * `name` as a file or folder name Windows can hold, for names a generator makes up (a cube named
 * `con` becomes `con_`): a reserved device name gets `_` appended, trailing periods and spaces
 * become `_`. Other rules are the generator's (its names are identifiers).
 */
export function portableName(name: string): string {
  const trimmed = name.replace(/[. ]+$/, (tail) => '_'.repeat(tail.length));
  const base = trimmed.split('.')[0]!;
  return WINDOWS_DEVICE.test(base) ? `${base}_${trimmed.slice(base.length)}` : trimmed;
}

// ---- Unicode ---------------------------------------------------------------------------------

/** Why a path is no proper Unicode text, or null: a lone surrogate (no UTF-8 for it) or U+FFFD (bytes that were not UTF-8). */
export function invalidUnicode(path: string): string | null {
  for (let i = 0; i < path.length; i++) {
    const unit = path.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = path.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `a lone surrogate (U+${unit.toString(16).toUpperCase()}), which has no UTF-8 form: git would store it as U+FFFD`;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return `a lone surrogate (U+${unit.toString(16).toUpperCase()}), which has no UTF-8 form: git would store it as U+FFFD`;
    if (unit === 0xfffd) return 'U+FFFD, the mark of bytes that were not UTF-8';
  }
  return null;
}

// ---- one path --------------------------------------------------------------------------------

/**
 * The first of these rules `path` breaks, or null: valid Unicode, git's reserved names, names and
 * characters Windows refuses, segment length. Structure (empty segments, `.`/`..`, absolute paths,
 * total length) is the caller's first check: this assumes `/`-separated relative segments.
 */
export function portablePathProblem(path: string): PathRuleProblem | null {
  const unicode = invalidUnicode(path);
  if (unicode) return problem('PATH_INVALID_UNICODE', path, 'invalid Unicode', `contains ${unicode}.`);
  const segments = path.split('/');
  for (const segment of segments) {
    const reserved = gitReservedSegment(segment);
    if (reserved) return problem('PATH_RESERVED_BY_GIT', path, reserved, `has a file or folder named "${segment}": git reserves ${reserved} (it refuses to check such a path out).`);
  }
  for (const segment of segments) {
    const why = nonPortableSegment(segment);
    if (why) return problem('PATH_NOT_PORTABLE', path, why, `has a file or folder name "${segment}" with ${why}; the repository is shared with Windows and macOS.`);
  }
  return null;
}

// ---- twins -----------------------------------------------------------------------------------

/**
 * The form two names share when macOS (case-insensitive, normalisation-insensitive APFS/HFS+) or
 * Windows (case-insensitive NTFS) would take them for the same file: NFC, then case folded by an
 * upper- and a lower-case mapping (so `ß`/`SS`, `ı`/`I`/`i` fold together too — erring on the side
 * of refusing).
 */
export function foldedName(name: string): string {
  // ASCII (nearly every name) folds by lower-casing alone.
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(name)) return name.toLowerCase();
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

export interface CaseTwin {
  /** The new path. */
  path: string;
  /** The path already there (or also new) that a case-insensitive or normalisation-insensitive file system takes for the same. */
  twin: string;
}

/** Every folder and the file of a path with its folded form: `a/B.yml` → [`a`, `a`], [`a/B.yml`, `a/b.yml`]. */
function prefixesOf(path: string): [prefix: string, folded: string][] {
  const out: [string, string][] = [];
  let folded = '';
  let start = 0;
  for (;;) {
    const end = path.indexOf('/', start);
    const segment = end < 0 ? path.slice(start) : path.slice(start, end);
    folded = start === 0 ? foldedName(segment) : `${folded}/${foldedName(segment)}`;
    out.push([end < 0 ? path : path.slice(0, end), folded]);
    if (end < 0) return out;
    start = end + 1;
  }
}

/**
 * New paths that would share a file or folder with another on macOS or Windows: `existing` is what
 * the tree holds besides the new paths, `added` the new paths. A name already in the tree is never
 * a new twin (a repository that holds twins keeps working: its files can be edited, renamed and
 * deleted); a name a new path brings in is checked against everything else in its folder.
 */
export function caseTwins(existing: Iterable<string>, added: Iterable<string>): CaseTwin[] {
  const news = [...new Set(added)];
  if (news.length === 0) return [];
  /** Folded prefix → the spellings seen (the first one, and any other). */
  const byFold = new Map<string, string[]>();
  const note = (prefix: string, folded: string) => {
    const spellings = byFold.get(folded);
    if (!spellings) byFold.set(folded, [prefix]);
    else if (!spellings.includes(prefix)) spellings.push(prefix);
  };
  /** Every prefix of the existing paths → its folded form (folders repeat from path to path: folded once). */
  const there = new Map<string, string>();
  for (const path of existing) {
    let start = 0;
    let parentFolded = '';
    for (;;) {
      const end = path.indexOf('/', start);
      const prefix = end < 0 ? path : path.slice(0, end);
      let folded = there.get(prefix);
      if (folded === undefined) {
        const segment = end < 0 ? path.slice(start) : path.slice(start, end);
        folded = start === 0 ? foldedName(segment) : `${parentFolded}/${foldedName(segment)}`;
        there.set(prefix, folded);
        note(prefix, folded);
      }
      if (end < 0) break;
      parentFolded = folded;
      start = end + 1;
    }
  }
  const newPrefixes = news.map((path) => prefixesOf(path));
  for (const prefixes of newPrefixes) for (const [prefix, folded] of prefixes) note(prefix, folded);
  const twins: CaseTwin[] = [];
  news.forEach((path, i) => {
    for (const [prefix, folded] of newPrefixes[i]!) {
      if (there.has(prefix)) continue;
      const other = byFold.get(folded)!.find((candidate) => candidate !== prefix);
      if (other !== undefined) {
        twins.push({ path, twin: other });
        return;
      }
    }
  });
  return twins;
}

/** The problem for a twin (code PATH_CASE_CONFLICT). */
export function caseTwinProblem(twin: CaseTwin): PathRuleProblem {
  return problem(
    'PATH_CASE_CONFLICT',
    twin.path,
    'case or normalisation twin',
    `would be the same file or folder as "${twin.twin}" on macOS and Windows (names that differ only in case or Unicode normalisation); rename one of them.`,
  );
}
