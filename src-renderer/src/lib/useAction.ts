import { useCallback, useRef, useState } from 'react';
import { toShownError, type ShownError } from './errors';

export interface Action {
  busy: boolean;
  error: ShownError | null;
  setError(error: ShownError | null): void;
  /**
   * Runs `work` with `busy` set; a failure becomes `error` (titled after `label`) and `run`
   * resolves to undefined, so the caller's next line only runs on success.
   */
  run<T>(work: () => Promise<T>, label?: string): Promise<T | undefined>;
}

/** Busy and error state of a button's async work (save, delete, mint…), never swallowing errors. */
export function useAction(label: string): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const labelRef = useRef(label);
  labelRef.current = label;
  const run = useCallback(async <T,>(work: () => Promise<T>, override?: string): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (failure) {
      setError(toShownError(failure, override ?? labelRef.current));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
