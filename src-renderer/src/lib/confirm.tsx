import { useEffect, useState, type ReactNode } from 'react';
import { Button, Dialog, ProblemBanner } from './ui';
import { useAction } from './useAction';
import './kit.css';

/**
 * Asks before a destructive action and runs it; the service's error stays in the dialog.
 * `typeToConfirm` makes the user type a name first (for what cannot be undone).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  action,
  onConfirm,
  onClose,
  tone = 'danger',
  typeToConfirm,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** What failed, for the error's title (e.g. "Revoking the key"). */
  action: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  tone?: 'danger' | 'primary';
  typeToConfirm?: string;
}) {
  const { busy, error, setError, run } = useAction(action);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (open) {
      setTyped('');
      setError(null);
    }
  }, [open, setError]);
  const confirm = async () => {
    let done = false;
    await run(async () => {
      await onConfirm();
      done = true;
    });
    if (done) onClose();
  };
  return (
    <Dialog
      title={title}
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant={tone} busy={busy} disabled={typeToConfirm !== undefined && typed !== typeToConfirm} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <ProblemBanner error={error} />
      {children}
      {typeToConfirm !== undefined && (
        <input aria-label={`Type ${typeToConfirm} to confirm`} value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={typeToConfirm} spellCheck={false} />
      )}
    </Dialog>
  );
}
