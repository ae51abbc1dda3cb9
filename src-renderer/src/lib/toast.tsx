import { useLayoutEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { create } from 'zustand';
import { toastCorner, type Rect, type ToastCorner } from './toast-placement';
import './toast.css';

/**
 * In-app toasts for events that happen while the user looks elsewhere (a job ended, a run
 * finished). The stack mounts itself on first use, so any feature can call `showToast` without
 * the app shell rendering anything.
 */
export interface ToastInput {
  title: string;
  body?: string;
  tone?: 'good' | 'bad' | 'warn' | 'info';
  /** A button in the toast (e.g. open the job); clicking it dismisses the toast. */
  action?: { label: string; run: () => void };
  /** Milliseconds before it goes away by itself; 0 keeps it until dismissed. Default 8 s. */
  timeoutMs?: number;
  /** A failure's code and the service's own words, behind "Details" (the body says it in plain words). */
  details?: { code: string | null; message: string };
}

interface Toast extends ToastInput {
  id: number;
}

const useToasts = create<{ items: Toast[] }>(() => ({ items: [] }));

let nextId = 1;
let mounted = false;

/** The control the user used last (clicked, or pressed a key on), so the stack keeps clear of it. */
const CONTROL = 'button, a[href], input, select, textarea, summary, [role="button"], [role="menuitem"], [role="tab"], [role="switch"], [role="checkbox"]';
let lastControl: { element: Element; rect: Rect } | null = null;
const useLastUse = create<{ seq: number }>(() => ({ seq: 0 }));

function remember(event: Event): void {
  const target = event.target instanceof Element ? event.target.closest(CONTROL) : null;
  if (!target || target.closest('.toasts')) return;
  const { x, y, width, height } = target.getBoundingClientRect();
  lastControl = { element: target, rect: { x, y, width, height } };
  useLastUse.setState((s) => ({ seq: s.seq + 1 }));
}

// From the start, not from the first toast: the control that starts a job is used before its toast.
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', remember, true);
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' || event.key === ' ') remember(event);
    },
    true,
  );
}

/** Where the last control is now (it may have scrolled), or where it was if it has gone (a closed dialog's button). */
function lastControlRect(): Rect | null {
  if (!lastControl) return null;
  if (!lastControl.element.isConnected) return lastControl.rect;
  const { x, y, width, height } = lastControl.element.getBoundingClientRect();
  return width === 0 && height === 0 ? lastControl.rect : { x, y, width, height };
}
const MAX_VISIBLE = 4;

function dismiss(id: number): void {
  useToasts.setState((s) => ({ items: s.items.filter((t) => t.id !== id) }));
}

function mount(): void {
  if (mounted || typeof document === 'undefined') return;
  mounted = true;
  const host = document.createElement('div');
  host.className = 'toast-host';
  document.body.appendChild(host);
  createRoot(host).render(<Toaster />);
}

export function showToast(input: ToastInput): number {
  mount();
  const id = nextId++;
  useToasts.setState((s) => ({ items: [...s.items, { ...input, id }].slice(-MAX_VISIBLE) }));
  const timeout = input.timeoutMs ?? 8000;
  if (timeout > 0) setTimeout(() => dismiss(id), timeout);
  return id;
}

function Toaster() {
  const items = useToasts((s) => s.items);
  const used = useLastUse((s) => s.seq);
  const stack = useRef<HTMLDivElement>(null);
  const [corner, setCorner] = useState<ToastCorner>('bottom-right');
  // Before each paint with toasts: the first corner whose box keeps clear of the control just used.
  useLayoutEffect(() => {
    const element = stack.current;
    if (!element || items.length === 0) return;
    const { width, height } = element.getBoundingClientRect();
    setCorner(toastCorner({ width, height }, { width: window.innerWidth, height: window.innerHeight }, lastControlRect()));
  }, [items, used]);
  return (
    <div ref={stack} className={`toasts toasts-${corner}`} data-corner={corner} role="status" aria-live="polite" aria-label="Notifications">
      {items.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone ?? 'info'}`}>
          <div className="toast-text">
            <div className="toast-title">{t.title}</div>
            {t.body && (
              <div className="toast-body" title={t.body}>
                {t.body}
              </div>
            )}
            {t.details && (t.details.code || t.details.message) && (
              <details className="toast-details">
                <summary>Details</summary>
                {t.details.code && <code className="problem-code">{t.details.code}</code>}
                {t.details.message && <span> {t.details.message}</span>}
              </details>
            )}
          </div>
          <div className="toast-actions">
            {t.action && (
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => {
                  dismiss(t.id);
                  t.action!.run();
                }}
              >
                {t.action.label}
              </button>
            )}
            <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
