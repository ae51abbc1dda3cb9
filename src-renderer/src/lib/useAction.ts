import { useCallback, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { toShownError, type ShownError } from './errors';

export interface Action {
  busy: boolean;
  error: ShownError | null;
  /** Also takes an updater, to drop one field's error while the user corrects it. */
  setError: Dispatch<SetStateAction<ShownError | null>>;
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

/**
 * `useAction` for a button repeated on every row of a list (Test, Retry …): each row is busy
 * and fails on its own, and a row's error stays with that row.
 */
export function useRowAction(label: string) {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<Readonly<Record<string, ShownError>>>({});
  const setError = useCallback((key: string, error: ShownError | null) => {
    setErrors(({ [key]: _dropped, ...rest }) => (error ? { ...rest, [key]: error } : rest));
  }, []);
  const run = useCallback(
    async <T,>(key: string, work: () => Promise<T>, override?: string): Promise<T | undefined> => {
      setBusy((keys) => new Set(keys).add(key));
      setError(key, null);
      try {
        return await work();
      } catch (failure) {
        setError(key, toShownError(failure, override ?? label));
        return undefined;
      } finally {
        setBusy((keys) => {
          const next = new Set(keys);
          next.delete(key);
          return next;
        });
      }
    },
    [label, setError],
  );
  return { isBusy: (key: string) => busy.has(key), errorOf: (key: string) => errors[key] ?? null, setError, run };
}
