// Optimistic concurrency for file writes: a write names the version of each file it was based on
// (`baseSha256` in the body, or the `If-Match` header with the file's ETag), and a file that has
// changed since answers 409 FILE_CHANGED instead of being overwritten.
import { DataModelErrorCodes as Codes } from '../../../src-shared/api/data-model';
import { ApiError } from '../../http/problem';

/** What a write expects of a file: its current sha256, `null` = must not exist yet, `'*'` = must exist. */
export type Expectation = string | null | '*';

/** The ETag of a file's content: its sha256, quoted. */
export const etagOf = (sha256: string): string => `"${sha256}"`;

/**
 * The expectation an `If-Match` header states: `*`, or one entity tag (weak or strong; a file's tag
 * is its sha256). Absent → undefined (no precondition). A list of tags or a malformed value is a 400.
 */
export function parseIfMatch(header: string | string[] | undefined): Expectation | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return '*';
  const match = /^(?:W\/)?"([0-9a-f]{64})"$/i.exec(value);
  if (!match) {
    throw new ApiError(400, Codes.INVALID_IF_MATCH, 'If-Match must be one entity tag of a file ("<sha256>", as its GET answered in ETag) or *.', {
      errors: [{ pointer: '/headers/if-match', detail: 'not one file ETag' }],
    });
  }
  return match[1].toLowerCase();
}

export interface StaleFile {
  path: string;
  /** The version the write was based on (null: the writer thought the file did not exist). */
  baseSha256: string | null;
  /** The version on the branch now (null: the file does not exist any more). */
  currentSha256: string | null;
}

/**
 * Checks every expectation against the branch as it is now (called under the repository lock, so
 * nothing can change between the check and the write). Any mismatch refuses the whole write.
 */
export async function assertUnchanged(
  branch: string,
  expected: Map<string, Expectation>,
  currentSha256: (path: string) => Promise<string | null>,
): Promise<void> {
  const stale: StaleFile[] = [];
  for (const [path, expectation] of expected) {
    const current = await currentSha256(path);
    const fresh = expectation === '*' ? current !== null : expectation === current;
    if (!fresh) stale.push({ path, baseSha256: expectation === '*' ? null : expectation, currentSha256: current });
  }
  if (stale.length === 0) return;
  const list = stale.map((s) => `"${s.path}"`).join(', ');
  throw new ApiError(
    409,
    Codes.FILE_CHANGED,
    `${stale.length === 1 ? `${list} has` : `${list} have`} changed on branch "${branch}" since you read ${stale.length === 1 ? 'it' : 'them'}; nothing was written. Read the current version and merge your change into it.`,
    { files: stale },
  );
}
