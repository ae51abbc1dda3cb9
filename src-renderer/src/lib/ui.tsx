import { useEffect, useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import type { ShownError } from './errors';

/**
 * A failure in plain words (what happened, what to do, the fields to correct), with what the service
 * said — its code, status, words and field pointers — behind "Details" for whoever needs to dig.
 */
export function ProblemBanner({ error, onDismiss }: { error: ShownError | null; onDismiss?: () => void }) {
  if (!error) return null;
  return (
    <div className="problem" role="alert">
      <div className="problem-head">
        <strong>{error.title}</strong>
        {onDismiss && (
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
            ×
          </button>
        )}
      </div>
      {error.detail && <div className="problem-detail">{error.detail}</div>}
      {error.fields.length > 0 && (
        <ul className="problem-fields">
          {error.fields.map((field, index) => (
            <li key={`${field.pointer}-${index}`}>{field.detail}</li>
          ))}
        </ul>
      )}
      <ProblemDetails error={error} />
    </div>
  );
}

/** The "Details" disclosure of a failure: the service's code, status and own words. Nothing when there are none. */
export function ProblemDetails({ error }: { error: ShownError }) {
  const technical = error.technical;
  if (!technical && !error.code) return null;
  return (
    <details className="problem-technical">
      <summary>Details</summary>
      <dl>
        {error.code && (
          <>
            <dt>Code</dt>
            <dd>
              <code className="problem-code">{error.code}</code>
            </dd>
          </>
        )}
        {error.status !== null && error.status > 0 && (
          <>
            <dt>Status</dt>
            <dd>
              {error.status}
              {technical?.title ? ` ${technical.title}` : ''}
            </dd>
          </>
        )}
        {technical?.operationId && (
          <>
            <dt>Operation</dt>
            <dd>
              <code>{technical.operationId}</code>
            </dd>
          </>
        )}
        {technical?.detail && (
          <>
            <dt>The service said</dt>
            <dd className="problem-said">{technical.detail}</dd>
          </>
        )}
        {technical && technical.fields.length > 0 && (
          <>
            <dt>Fields</dt>
            <dd>
              <ul className="problem-pointers">
                {technical.fields.map((field, index) => (
                  <li key={`${field.pointer}-${index}`}>
                    <code>{field.pointer}</code> {field.detail}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </details>
  );
}

export function Button({
  variant = 'default',
  busy = false,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'default' | 'primary' | 'danger' | 'ghost'; busy?: boolean }) {
  return (
    <button type="button" {...rest} className={`btn btn-${variant} ${rest.className ?? ''}`} disabled={rest.disabled || busy} aria-busy={busy}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function Field({ label, hint, error, children, htmlFor }: { label: string; hint?: ReactNode; error?: string | null; children: ReactNode; htmlFor: string }) {
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {error ? <div className="field-error">{error}</div> : hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  );
}

/** One <option> a named record (deployments, warehouses …), valued by its id and labelled by its name. */
export function NameOptions({ items }: { items: readonly { id: number | string; name: string }[] | null | undefined }) {
  return (
    <>
      {(items ?? []).map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </>
  );
}

/** What the last action did ("Key revoked."), said once to screen readers and left in sight until the next one. */
export function Notice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div className="saved notice-line" role="status">
      {text}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <div className="empty-title">{title}</div>
      {children && <div className="empty-body">{children}</div>}
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** A modal dialog on the native <dialog> element (focus trapping and Escape come with it). */
export function Dialog({ title, open, onClose, children, footer }: { title: string; open: boolean; onClose: () => void; children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element, the close button; start in the first field
      // instead (or, with no field, on the first action of the footer, usually Cancel).
      const first =
        dialog.querySelector<HTMLElement>('.dialog-body :is(input, select, textarea):not([disabled]):not([type="hidden"])') ??
        dialog.querySelector<HTMLElement>('.dialog-foot button:not([disabled])');
      first?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose} onCancel={onClose}>
      <header className="dialog-head">
        <h2>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer && <footer className="dialog-foot">{footer}</footer>}
    </dialog>
  );
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** `3 min ago` for recent times, a date otherwise; the exact time is in the title attribute. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  const date = new Date(value);
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const abs = Math.abs(seconds);
  const text =
    abs < 60
      ? relative.format(seconds, 'second')
      : abs < 3600
        ? relative.format(Math.round(seconds / 60), 'minute')
        : abs < 86400
          ? relative.format(Math.round(seconds / 3600), 'hour')
          : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return (
    <time dateTime={value} title={date.toLocaleString()}>
      {text}
    </time>
  );
}
