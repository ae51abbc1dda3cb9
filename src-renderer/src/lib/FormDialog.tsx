import type { FormEvent, ReactNode } from 'react';
import { errorFor, withoutField, type ShownError } from './errors';
import { Button, Dialog, Field, ProblemBanner } from './ui';
import './kit.css';

/**
 * The one form dialog of the app: a titled modal holding a form, the failure in plain words at its
 * top (what went wrong and what to do; the service's code and words behind “Details”), and Cancel
 * and the submit button at its foot. The first field gets the focus when it opens (`Dialog`).
 * Enter in a field submits; the page never reloads.
 */
export function FormDialog({
  title,
  open,
  onClose,
  formId,
  formLabel,
  submitLabel,
  busy,
  submitDisabled,
  cancelLabel = 'Cancel',
  onCancel,
  error,
  onSubmit,
  validate = false,
  intro,
  footNote,
  onDismissError,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  /** The form's id: the footer's submit button names it (it sits outside the form). */
  formId: string;
  /** The form's accessible name; the title when left out. */
  formLabel?: string;
  submitLabel: ReactNode;
  busy: boolean;
  submitDisabled?: boolean;
  cancelLabel?: string;
  /** What Cancel does when it is not just closing (keeping an answer already given …). */
  onCancel?: () => void;
  error: ShownError | null;
  onSubmit: () => void | Promise<unknown>;
  /** Let the browser check `required`/`pattern` before submitting; off by default, the service's field errors are shown instead. */
  validate?: boolean;
  /** A paragraph above the error and the fields: what submitting will do. */
  intro?: ReactNode;
  /** Left of the buttons (what is selected …). */
  footNote?: ReactNode;
  /** The error can be dismissed (it stays until the next submit otherwise). */
  onDismissError?: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <Dialog
      title={title}
      open={open}
      onClose={onClose}
      footer={
        <>
          {footNote}
          <Button onClick={onCancel ?? onClose}>{cancelLabel}</Button>
          <Button variant="primary" type="submit" form={formId} busy={busy} disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate={!validate} aria-label={formLabel ?? title}>
        {intro !== undefined && <p className="muted dialog-intro">{intro}</p>}
        <ProblemBanner error={error} onDismiss={onDismissError} />
        {children}
      </form>
    </Dialog>
  );
}

/**
 * The Name and Description fields that groups, policies and embed groups share: the name is
 * required by the service and takes the focus; typing in it clears the service's complaint about it.
 */
export function NameDescriptionFields({
  idPrefix,
  name,
  onName,
  description,
  onDescription,
  error,
  setError,
}: {
  idPrefix: string;
  name: string;
  onName: (name: string) => void;
  description: string;
  onDescription: (description: string) => void;
  error: ShownError | null;
  setError: (error: ShownError | null) => void;
}) {
  return (
    <>
      <Field label="Name" htmlFor={`${idPrefix}-name`} error={errorFor(error, 'name')}>
        <input
          id={`${idPrefix}-name`}
          value={name}
          onChange={(e) => {
            onName(e.target.value);
            setError(withoutField(error, 'name'));
          }}
          maxLength={255}
          autoFocus
        />
      </Field>
      <Field label="Description" htmlFor={`${idPrefix}-description`} error={errorFor(error, 'description')}>
        <input id={`${idPrefix}-description`} value={description} onChange={(e) => onDescription(e.target.value)} maxLength={2000} />
      </Field>
    </>
  );
}
