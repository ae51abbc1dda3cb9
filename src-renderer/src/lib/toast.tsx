import { createRoot } from 'react-dom/client';
import { create } from 'zustand';
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
}

interface Toast extends ToastInput {
  id: number;
}

const useToasts = create<{ items: Toast[] }>(() => ({ items: [] }));

let nextId = 1;
let mounted = false;
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
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      {items.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone ?? 'info'}`}>
          <div className="toast-text">
            <div className="toast-title">{t.title}</div>
            {t.body && (
              <div className="toast-body" title={t.body}>
                {t.body}
              </div>
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
