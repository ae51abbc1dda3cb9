// A write refused because the resource changed since it was read (409 FILE_CHANGED): what the
// service holds now, so a screen can show both versions instead of overwriting (see StaleCompareDialog).
import { isApiProblem } from '../../../src-shared/api/client';
import { ErrorCodes } from '../../../src-shared/api/errors';

export interface StaleResource<T> {
  /** The resource as the service holds it now (null: it was deleted). */
  current: T | null;
  /** Its version, quoted as `ifMatch` takes it (null: it was deleted). */
  version: string | null;
}

/** The current state a 409 FILE_CHANGED of a workbook, report or setting carries, or null for any other error. */
export function staleOf<T>(error: unknown): StaleResource<T> | null {
  if (!isApiProblem(error) || error.code !== ErrorCodes.FILE_CHANGED || !error.problem || !('currentVersion' in error.problem)) return null;
  const currentVersion = error.problem.currentVersion;
  return {
    current: (error.problem.current ?? null) as T | null,
    version: typeof currentVersion === 'string' ? `"${currentVersion}"` : null,
  };
}

/** A document as the compare view shows it: JSON with two-space indents (key order kept). */
export const asDocument = (value: unknown): string => `${JSON.stringify(value ?? null, null, 2)}\n`;
