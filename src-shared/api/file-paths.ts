// The rule for paths in a deployment's model repository, shared by the service (every write,
// upload, pull resolution and publish) and the editor's file dialogs. The rules that keep a
// repository usable on every system (git's reserved names, Windows names, Unicode, twins) are in
// ../paths/portable-path.ts.
import { portablePathProblem, type PathRuleCode } from '../paths/portable-path';

/** File types the model repository accepts (model files, Jinja templates and macros, config, model test fixtures). */
export const ALLOWED_FILE_EXTENSIONS = ['.yml', '.yaml', '.js', '.ts', '.jinja', '.j2', '.py', '.sql', '.json', '.md', '.csv'] as const;
export const MAX_FILE_PATH_LENGTH = 512;

/**
 * Characters that make a path look like another one: format characters (bidirectional overrides
 * and isolates, zero-width spaces and joiners, BOM, soft hyphen, tag characters), line and
 * paragraph separators, private-use and unassigned code points, spaces other than U+0020, and
 * invisible letters (Hangul fillers, combining grapheme joiner, variation selectors).
 */
const SPOOFING_CLASS = /[\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
/** Invisible letters and marks, by code point (a character class would combine them with their neighbours). */
const isInvisibleMark = (cp: number) =>
  cp === 0x034f || cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0 || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const hasSpoofingCharacter = (path: string): boolean => SPOOFING_CLASS.test(path) || [...path].some((ch) => isInvisibleMark(ch.codePointAt(0)!));

/** A segment that, percent-decoded once or more, is `.`/`..` or holds a separator (`%2e%2e`, `%252e`, `a%2fb`). */
function hidesSeparatorOrDotSegment(segment: string): boolean {
  let current = segment;
  for (let round = 0; round < 4 && current.includes('%'); round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return false;
    }
    if (decoded === current) return false;
    if (decoded === '.' || decoded === '..' || /[/\\]/.test(decoded)) return true;
    current = decoded;
  }
  return false;
}

export type FilePathProblemCode = 'INVALID_FILE_PATH' | 'FILE_TYPE_NOT_ALLOWED' | PathRuleCode;

/**
 * Why `path` is not an acceptable path for a new file, or null when it is: valid Unicode,
 * repository-relative with `/` separators, no empty, `.` or `..` segments, nothing git reserves
 * (`.git` and its NTFS/HFS+ synonyms), nothing Windows cannot hold (reserved device names, `<>:"|?*`,
 * a name ending in a period or space), an allowed extension. Twins (names that differ only by case
 * or normalisation) need the other paths: see `caseTwins`.
 */
export function filePathProblem(path: string): { code: FilePathProblemCode; detail: string } | null {
  const invalid = (detail: string) => ({ code: 'INVALID_FILE_PATH' as const, detail: `"${path}" ${detail}` });
  if (path.length === 0) return invalid('is empty.');
  if (path.length > MAX_FILE_PATH_LENGTH) return invalid(`is longer than ${MAX_FILE_PATH_LENGTH} characters.`);
  // Unicode first: a lone surrogate cannot even be shown in the messages below.
  const portable = portablePathProblem(path);
  if (portable?.code === 'PATH_INVALID_UNICODE') return portable;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return invalid('contains a control character or a backslash; use `/` between folders.');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return invalid('is absolute; give a path relative to the repository root.');
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return invalid('has an empty, `.` or `..` segment.');
  // What git refuses comes before the look-alike rule: `.g\u200cit` is `.git` to git on a Mac.
  if (portable?.code === 'PATH_RESERVED_BY_GIT') return portable;
  if (hasSpoofingCharacter(path)) {
    return invalid('contains an invisible, bidirectional-control or look-alike space character; file names must show what they are.');
  }
  if (path.normalize('NFC') !== path) return invalid('is not in Unicode NFC form (precomposed accents); save it with composed characters.');
  if (segments.some(hidesSeparatorOrDotSegment)) return invalid('has a percent-encoded `.`/`..` segment or separator; paths are not URL-encoded.');
  if (segments.some((s) => s !== s.trimStart())) return invalid('has a segment starting with a space.');
  if (portable) return portable;
  const name = segments[segments.length - 1].toLowerCase();
  if (!ALLOWED_FILE_EXTENSIONS.some((ext) => name.endsWith(ext) && name.length > ext.length)) {
    return {
      code: 'FILE_TYPE_NOT_ALLOWED',
      detail: `"${path}" is not a model file; allowed extensions: ${ALLOWED_FILE_EXTENSIONS.join(' ')}.`,
    };
  }
  return null;
}

/**
 * Why `path` cannot even name an existing file, or null. Reads, deletes and the source of a rename
 * accept any path the branch holds (a file that predates a rule must stay reachable, to be fixed);
 * a path the branch does not hold gets `filePathProblem` instead.
 */
export function existingPathProblem(path: string): { code: 'INVALID_FILE_PATH'; detail: string } | null {
  const invalid = (detail: string) => ({ code: 'INVALID_FILE_PATH' as const, detail: `"${path}" ${detail}` });
  if (path.length === 0) return invalid('is empty.');
  if (path.length > MAX_FILE_PATH_LENGTH) return invalid(`is longer than ${MAX_FILE_PATH_LENGTH} characters.`);
  if (path.startsWith('/') || path.split('/').some((s) => s === '' || s === '.' || s === '..')) return invalid('has an empty, `.` or `..` segment, or is absolute.');
  return null;
}
