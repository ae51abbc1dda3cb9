import { useState, type ReactNode } from 'react';
import { Button, Dialog, ProblemBanner } from '../../lib/ui';
import { useAction, type Action } from '../../lib/useAction';

// The frame of the dialogs that start a sync job (push, pull, publish): the intro, the service's
// error, the fields, and Cancel / Start — Enter in a field starts too. Problems the dialog can see
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

export function StartDialog({
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
    <Dialog
      title={title}
      open
      onClose={onClose}
      footer={
        <>
          {footNote}
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={onStart} busy={form.busy}>
            {startLabel}
          </Button>
        </>
      }
    >
      <form
        className="form"
        aria-label={formLabel}
        onSubmit={(e) => {
          e.preventDefault();
          onStart();
        }}
      >
        <p className="muted sy-dialog-intro">{intro}</p>
        <ProblemBanner error={form.error} onDismiss={() => form.setError(null)} />
        {children}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
