// The change review and the model tests of a branch (issue 26) as the renderer follows them: each is a
// job on the service, started (or found stored, for a review of the same commit pair), then polled
// until it ends. Nothing runs here but the polling.
import { useCallback, useEffect, useRef, useState } from 'react';
import { getModelReview, getModelReviewResult, startModelReview, type ModelReview, type ReviewResult } from '../../../../../src-shared/api/reviews';
import { getModelTestRun, startModelTestRun, type TestRun } from '../../../../../src-shared/api/model-tests';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';

const POLL_MS = 400;
const ENDED = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ReviewState {
  review: ModelReview | null;
  result: ReviewResult | null;
  error: ShownError | null;
  loading: boolean;
}

/**
 * The review of `head` against `base` (default: where it left its parent), started when `enabled`
 * and followed to its result. A new head commit reviews again; `refresh()` reruns the queries.
 */
export function useBranchReview(deploymentId: number | null, head: string | undefined, base: string | undefined, headCommit: string | undefined, enabled: boolean) {
  const [state, setState] = useState<ReviewState>({ review: null, result: null, error: null, loading: false });
  const [refreshes, setRefreshes] = useState(0);
  useEffect(() => {
    setState({ review: null, result: null, error: null, loading: enabled });
    if (!enabled || deploymentId === null || !head) return;
    let stopped = false;
    void (async () => {
      try {
        let review: ModelReview = await api.call(startModelReview, { params: { deploymentId }, body: { head, ...(base ? { base } : {}), ...(refreshes ? { refresh: true } : {}) } });
        while (!stopped && !ENDED.includes(review.status)) {
          setState((s) => ({ ...s, review }));
          await sleep(POLL_MS);
          if (stopped) return;
          review = await api.call(getModelReview, { params: { deploymentId, reviewId: review.reviewId } });
        }
        if (stopped) return;
        if (review.status !== 'COMPLETED') {
          setState({ review, result: null, error: { title: 'The review did not finish', detail: review.error?.message ?? `It ended ${review.status.toLowerCase()}.`, code: review.error?.code ?? null, status: null, fields: [] }, loading: false });
          return;
        }
        const result = await api.call(getModelReviewResult, { params: { deploymentId, reviewId: review.reviewId } });
        if (!stopped) setState({ review, result, error: null, loading: false });
      } catch (error) {
        if (!stopped) setState({ review: null, result: null, error: toShownError(error, 'Reviewing the change'), loading: false });
      }
    })();
    return () => {
      stopped = true;
    };
  }, [deploymentId, head, base, headCommit, enabled, refreshes]);
  const refresh = useCallback(() => setRefreshes((n) => n + 1), []);
  return { ...state, refresh };
}

export interface TestRunState {
  run: TestRun | null;
  error: ShownError | null;
  running: boolean;
}

/** Runs the model tests of a branch on demand (`start()`), following the run until it ends. */
export function useTestRun(deploymentId: number | null, branchName: string | undefined) {
  const [state, setState] = useState<TestRunState>({ run: null, error: null, running: false });
  // Each start, branch switch and unmount begins a new generation: a run followed for an older one stops.
  const generation = useRef(0);
  useEffect(() => {
    generation.current += 1;
    setState({ run: null, error: null, running: false });
    return () => {
      generation.current += 1;
    };
  }, [deploymentId, branchName]);
  const start = useCallback(async () => {
    if (deploymentId === null || !branchName) return;
    const mine = ++generation.current;
    const live = () => generation.current === mine;
    setState({ run: null, error: null, running: true });
    try {
      let run = await api.call(startModelTestRun, { params: { deploymentId }, body: { branchName } });
      while (live() && !ENDED.includes(run.status)) {
        setState({ run, error: null, running: true });
        await sleep(POLL_MS);
        if (!live()) return;
        run = await api.call(getModelTestRun, { params: { deploymentId, testRunId: run.testRunId } });
      }
      if (live()) setState({ run, error: null, running: false });
    } catch (error) {
      if (live()) setState({ run: null, error: toShownError(error, 'Running the model tests'), running: false });
    }
  }, [deploymentId, branchName]);
  return { ...state, start };
}
