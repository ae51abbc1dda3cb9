import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '../../../src-shared/api/events';
import { toShownError, type ShownError } from './errors';
import { useLiveRefresh } from './live';

export interface Query<T> {
  data: T | null;
  error: ShownError | null;
  loading: boolean;
  reload(): void;
}

/**
 * Loads `load()` when `key` changes; a newer load wins over an older one still in flight. With
 * `liveWhen`, it loads again when a live event it matches arrives (another window, a job, a build).
 */
export function useQuery<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: unknown[],
  action = 'Loading',
  liveWhen: ((event: LiveEvent) => boolean) | null = null,
): Query<T> {
  const [state, setState] = useState<{ data: T | null; error: ShownError | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, error: null, loading: false }),
      (error: unknown) => !controller.signal.aborted && setState((s) => ({ data: s.data, error: toShownError(error, action), loading: false })),
    );
    return () => controller.abort();
    // `key` is the dependency list of the load, as with useEffect.
  }, [...key, generation, action]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useLiveRefresh(liveWhen, reload);
  return { ...state, reload };
}
