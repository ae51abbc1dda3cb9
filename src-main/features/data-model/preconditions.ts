// Optimistic concurrency for file writes: a write names the version of each file it was based on
// (`baseSha256` in the body, or the `If-Match` header with the file's ETag), and a file that has
// changed since answers 409 FILE_CHANGED instead of being overwritten.
import { DataModelErrorCodes as Codes } from '../../../src-shared/api/data-model';
import { ApiError } from '../../http/problem';
import { meets, type Expectation } from '../../http/preconditions';

// The rule and the header are shared by every versioned resource (src-main/http/preconditions.ts).
export { etagOf, parseIfMatch, type Expectation } from '../../http/preconditions';

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
    if (!meets(expectation, current)) stale.push({ path, baseSha256: expectation === '*' ? null : expectation, currentSha256: current });
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
