// File versions for optimistic concurrency: the service names a file's version by the sha256 of its
// content; a save sends the version it was based on, and a 409 FILE_CHANGED lists the files that
// moved on meanwhile (another window, a pull, a script).
import { isApiProblem } from '../../../../src-shared/api/client';
import { DataModelErrorCodes } from '../../../../src-shared/api/data-model';

/** One file whose save was refused because the branch holds another version now. */
export interface StaleWrite {
  path: string;
  /** The editor's text that could not be saved. */
  mine: string;
  /** The content on the service now (null: the file was deleted there). */
  theirs: string | null;
  theirsSha256: string | null;
}

/** sha256 of UTF-8 text, hex; null where the page has no Web Crypto (then writes carry no version). */
export async function sha256Hex(text: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The paths a 409 FILE_CHANGED names, or null when `error` is something else. */
export function changedPaths(error: unknown): string[] | null {
  if (!isApiProblem(error) || error.code !== DataModelErrorCodes.FILE_CHANGED) return null;
  const files = error.problem?.files;
  if (!Array.isArray(files)) return [];
  return files.map((f: unknown) => (f && typeof f === 'object' && typeof (f as { path?: unknown }).path === 'string' ? (f as { path: string }).path : null)).filter((p): p is string => p !== null);
}

/** `If-Match` for a file of known version. */
export const ifMatchOf = (sha256: string | undefined): { ifMatch?: string } => (sha256 ? { ifMatch: `"${sha256}"` } : {});
