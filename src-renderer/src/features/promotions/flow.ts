import { useCallback, useEffect, useRef, useState } from 'react';
import { applyWorkbookPromotion, previewWorkbookPromotion, type PromotionPreview, type WorkbookPromotion } from '../../../../src-shared/api/promotions';
import { api } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { stalePreviewOf, type StalePreview } from './stale';

export type { StalePreview } from './stale';

export interface PromotionRequest {
  sourceDeploymentId: number;
  sourceWorkbookId: number;
  targetDeploymentId: number | null;
  /** null: let the service choose (the workbook last promoted to, else the same slug, else a new one). */
  targetWorkbookId: number | null;
}

export interface PromotionFlow {
  preview: PromotionPreview | null;
  previewing: boolean;
  applying: boolean;
  result: WorkbookPromotion | null;
  stale: StalePreview | null;
  error: ShownError | null;
  /** Sent with the apply of the current preview: a repeat (double click, retry) applies once. */
  idempotencyKey: string | null;
  runPreview(): Promise<void>;
  apply(): Promise<void>;
  dismissError(): void;
}

const newKey = (): string =>
  typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? `ui-${crypto.randomUUID()}`
    : `ui-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/**
 * Preview → apply, with what the service guarantees made visible: each preview gets its own
 * idempotency key, the apply sends the preview's hashes, and a stale preview is kept (greyed)
 * next to the explanation instead of being thrown away.
 */
export function usePromotionFlow(
  request: PromotionRequest,
  onApplied?: (promotion: WorkbookPromotion) => void,
  onStale?: (stale: StalePreview) => void,
): PromotionFlow {
  const [preview, setPreview] = useState<PromotionPreview | null>(null);
  const [idempotencyKey, setKey] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [applying, setApplying] = useState(false);
  const [result, setResult] = useState<WorkbookPromotion | null>(null);
  const [stale, setStale] = useState<StalePreview | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  // Guards that state updates cannot: a second click arriving before the re-render.
  const inFlight = useRef(false);
  const generation = useRef(0);

  const { sourceDeploymentId, sourceWorkbookId, targetDeploymentId, targetWorkbookId } = request;

  // A different source or target makes the preview (and what followed it) meaningless.
  useEffect(() => {
    generation.current += 1;
    setPreview(null);
    setKey(null);
    setResult(null);
    setStale(null);
    setError(null);
  }, [sourceDeploymentId, sourceWorkbookId, targetDeploymentId, targetWorkbookId]);

  const runPreview = useCallback(async () => {
    if (targetDeploymentId === null) return;
    const mine = ++generation.current;
    setPreviewing(true);
    setError(null);
    try {
      const fresh = await api.call(previewWorkbookPromotion, {
        params: { deploymentId: sourceDeploymentId, workbookId: sourceWorkbookId },
        body: { targetDeploymentId, ...(targetWorkbookId !== null ? { targetWorkbookId } : {}) },
      });
      if (mine !== generation.current) return;
      setPreview(fresh);
      setKey(newKey());
      setResult(null);
      setStale(null);
    } catch (failure) {
      if (mine === generation.current) setError(toShownError(failure, 'Preview'));
    } finally {
      if (mine === generation.current) setPreviewing(false);
    }
  }, [sourceDeploymentId, sourceWorkbookId, targetDeploymentId, targetWorkbookId]);

  const apply = useCallback(async () => {
    if (!preview || !idempotencyKey || inFlight.current || result || stale) return;
    inFlight.current = true;
    const mine = generation.current;
    setApplying(true);
    setError(null);
    try {
      const promotion = await api.call(applyWorkbookPromotion, {
        params: { deploymentId: sourceDeploymentId, workbookId: sourceWorkbookId },
        body: {
          targetDeploymentId: preview.target.deploymentId,
          // Pin the workbook the preview compared with, so the apply cannot land elsewhere.
          ...(preview.target.workbookId !== null ? { targetWorkbookId: preview.target.workbookId } : {}),
          sourceHash: preview.sourceHash,
          targetHash: preview.targetHash,
          idempotencyKey,
        },
      });
      if (mine !== generation.current) return;
      setResult(promotion);
      onApplied?.(promotion);
      // The preview showed the target before the promotion ("does not exist in the target yet"):
      // show it as it is now, which matches the source (issue 24). The result stays in sight.
      const after = await api
        .call(previewWorkbookPromotion, {
          params: { deploymentId: sourceDeploymentId, workbookId: sourceWorkbookId },
          body: { targetDeploymentId: promotion.target.deploymentId, ...(promotion.target.workbookId !== null ? { targetWorkbookId: promotion.target.workbookId } : {}) },
        })
        .catch(() => null);
      if (after && mine === generation.current) {
        setPreview(after);
        setKey(newKey());
      }
    } catch (failure) {
      if (mine !== generation.current) return;
      const staleness = stalePreviewOf(failure);
      if (staleness) {
        setStale(staleness);
        onStale?.(staleness);
      } else setError(toShownError(failure, 'Promotion'));
    } finally {
      inFlight.current = false;
      if (mine === generation.current) setApplying(false);
    }
  }, [preview, idempotencyKey, result, stale, sourceDeploymentId, sourceWorkbookId, onApplied, onStale]);

  return { preview, previewing, applying, result, stale, error, idempotencyKey, runPreview, apply, dismissError: () => setError(null) };
}
