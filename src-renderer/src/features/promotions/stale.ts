import { ApiProblem } from '../../../../src-shared/api/client';

/** Why an apply was refused because the preview no longer describes the workbooks (409). */
export interface StalePreview {
  side: 'source' | 'target';
  /** The hash the preview showed, and the one the service sees now (null: no such workbook). */
  previewHash: string | null;
  currentHash: string | null;
  /** The service's own explanation. */
  detail: string;
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A 409 that says the preview is stale, read into what the UI explains; null for any other failure. */
export function stalePreviewOf(error: unknown): StalePreview | null {
  if (!(error instanceof ApiProblem) || error.status !== 409) return null;
  const extras: Record<string, unknown> = error.problem ?? {};
  if (error.code === 'PROMOTION_SOURCE_CHANGED') {
    return { side: 'source', previewHash: stringOrNull(extras.previewSourceHash), currentHash: stringOrNull(extras.currentSourceHash), detail: error.detail };
  }
  if (error.code === 'PROMOTION_TARGET_CHANGED') {
    return { side: 'target', previewHash: stringOrNull(extras.previewTargetHash), currentHash: stringOrNull(extras.currentTargetHash), detail: error.detail };
  }
  return null;
}
