// A settings form that saves with the version it was opened on (If-Match), so a save over a change
// made meanwhile is refused and shown, never written over it (rule: staleForm.ts). The screen
// renders the form and <SettingsConflictDialog {...versioned.dialog} />.
import { useCallback, useRef, useState } from 'react';
import type { Versioned } from '../../../src-shared/api/client';
import { compareForms, showValue, type ConflictRow } from './staleForm';
import { staleOf } from './stale';
import { useAction } from './useAction';

export interface VersionedFormOptions<R, F extends object> {
  /** For the dialog: `The app theme`. */
  what: string;
  /** For errors: `Saving the app theme`. */
  action: string;
  formOf(resource: R): F;
  /** The fields compared, with their labels, in the order shown. */
  labels: Partial<Record<keyof F & string, string>>;
  show?: (key: keyof F & string, value: unknown) => string;
  /** Sends the form as a change of `base` (`ifMatch`: the version it is based on; null: none known). */
  save(base: R, form: F, ifMatch: string | null): Promise<Versioned<R>>;
  /** After a save (from the form or from the dialog's "Save mine"): `base` is what it was a change of. */
  onSaved?(saved: R, base: R, mine: F): void;
}

interface Pending<R, F> {
  theirs: R;
  version: string | null;
  rows: ConflictRow[];
  merged: F;
}

/** How many times a save is re-sent when only what the form does not show changed meanwhile. */
const REBASES = 3;

export function useVersionedForm<R, F extends object>(options: VersionedFormOptions<R, F>) {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [base, setBase] = useState<{ current: R; version: string | null } | null>(null);
  const [form, setForm] = useState<F | null>(null);
  const [pending, setPending] = useState<Pending<R, F> | null>(null);
  const saving = useAction(options.action);

  /** Shows `current` (a read or a save answered it) and bases the next save on it. */
  const load = useCallback((current: R, version: string | null) => {
    setBase({ current, version });
    setForm(optionsRef.current.formOf(current));
    setPending(null);
  }, []);

  /** Saves `mine` as a change of `current`; resolves to the saved resource, or undefined (failed, or waits for the user's choice). */
  const send = useCallback(
    (current: R, version: string | null, mine: F): Promise<R | undefined> =>
      saving.run(async () => {
        const { formOf, labels, show, save, onSaved } = optionsRef.current;
        let on = { current, version };
        for (let attempt = 0; ; attempt++) {
          try {
            const saved = await save(on.current, mine, on.version);
            load(saved.data, saved.version);
            onSaved?.(saved.data, on.current, mine);
            return saved.data;
          } catch (error) {
            const stale = staleOf<R>(error);
            if (!stale || stale.current === null || attempt >= REBASES) throw error;
            const compared = compareForms(formOf(on.current), formOf(stale.current), mine, labels, show ?? ((_key, value) => showValue(value)));
            if (compared.changedElsewhere) {
              setPending({ theirs: stale.current, version: stale.version, rows: compared.rows, merged: compared.merged });
              return undefined;
            }
            // Only what the form does not show changed: the same change, re-sent on the new version.
            on = { current: stale.current, version: stale.version };
            setBase(on);
          }
        }
      }),
    [saving.run, load],
  );

  /** Saves the form, or `mine` instead (a "reset to default" saved at once), on the version the form is based on. */
  const submit = useCallback(
    (mine?: F) => {
      const sent = mine ?? form;
      return base && sent ? send(base.current, base.version, sent) : Promise.resolve(undefined);
    },
    [base, form, send],
  );

  const dialog = {
    conflict: pending ? { what: options.what, rows: pending.rows } : null,
    busy: saving.busy,
    onClose: () => setPending(null),
    onTakeTheirs: () => pending && load(pending.theirs, pending.version),
    onKeepMine: () => {
      if (!pending) return;
      setPending(null);
      setBase({ current: pending.theirs, version: pending.version });
      setForm(pending.merged);
      void send(pending.theirs, pending.version, pending.merged);
    },
  };

  return {
    /** What the form is based on (null until loaded). */
    current: base?.current ?? null,
    version: base?.version ?? null,
    form,
    setForm,
    load,
    submit,
    busy: saving.busy,
    error: saving.error,
    setError: saving.setError,
    /** Whether a save waits for the user's choice in the dialog. */
    conflicted: pending !== null,
    dialog,
  };
}
