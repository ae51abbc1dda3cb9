import { useState, type ReactNode } from 'react';
import { FormDialog } from '../../lib/FormDialog';
import { useAction, type Action } from '../../lib/useAction';

// The dialogs that start a sync job (push, pull, publish): a FormDialog with an intro, a
// dismissable error and Cancel / Start — Enter in a field starts too. Problems the dialog can see
// itself show only after a first try, so an untouched form is not red all over.

export interface StartForm extends Action {
  /** A start was tried: client-side problems may now be shown. */
  touched: boolean;
  /** Marks the form touched, then (when `valid`) runs `start` with busy and error handling. */
  submit(valid: boolean, start: () => Promise<void>): void;
}

export function useStartForm(label: string): StartForm {
  const action = useAction(label);
  const [touched, setTouched] = useState(false);
  return {
    ...action,
    touched,
    submit: (valid, start) => {
      setTouched(true);
      if (valid) void action.run(start);
    },
  };
}

/** A FormDialog that starts a sync job; `formId` names its form. */
export function StartDialog({
  formId,
  title,
  formLabel,
  startLabel,
  form,
  onStart,
  onClose,
  intro,
  footNote,
  children,
}: {
  formId: string;
  title: string;
  formLabel: string;
  startLabel: string;
  form: StartForm;
  onStart: () => void;
  onClose: () => void;
  intro: ReactNode;
  /** Left of the buttons (what is selected). */
  footNote?: ReactNode;
  children: ReactNode;
}) {
  return (
    <FormDialog
      title={title}
      open
      onClose={onClose}
      formId={formId}
      formLabel={formLabel}
      submitLabel={startLabel}
      busy={form.busy}
      error={form.error}
      onDismissError={() => form.setError(null)}
      onSubmit={onStart}
      intro={intro}
      footNote={footNote}
    >
      {children}
    </FormDialog>
  );
}
