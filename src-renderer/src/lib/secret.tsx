import { useEffect, useRef, useState, type ReactNode } from 'react';
import './kit.css';

/** Copies `text`: the async clipboard API where the page may use it, else a selected field and execCommand. */
export async function copyText(text: string, fallbackField?: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused (headless, unfocused page): fall through to the selection copy.
  }
  if (!fallbackField) return false;
  fallbackField.focus();
  fallbackField.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

export function CopyButton({ text, label = 'Copy', field, className = '' }: { text: string; label?: string; field?: () => HTMLInputElement | HTMLTextAreaElement | null; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button type="button" className={`btn btn-default ${className}`} onClick={() => void copyText(text, field?.()).then((ok) => setState(ok ? 'copied' : 'failed'))}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : label}
    </button>
  );
}

/**
 * A credential the service returns exactly once (API key, token): shown in a read-only field with
 * a copy button and a plain warning that it cannot be shown again.
 */
export function OneTimeSecret({ value, label, id, children }: { value: string; label: string; id: string; children?: ReactNode }) {
  const field = useRef<HTMLInputElement>(null);
  return (
    <div className="one-time-secret">
      <div className="one-time-warning" role="note">
        <strong>Copy it now: you won’t see this again.</strong>{' '}
        {children ?? 'Drydock does not keep it in readable form. If it is lost, revoke it and create another.'}
      </div>
      <label htmlFor={id} className="one-time-label">
        {label}
      </label>
      <div className="one-time-row">
        <input id={id} ref={field} className="one-time-value" readOnly value={value} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} field={() => field.current} />
      </div>
    </div>
  );
}
