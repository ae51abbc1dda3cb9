import { useEffect, useRef, useState } from 'react';
import { registerLeaveGuard } from '../app/endpoint';
import { blockNavigation } from '../app/router';
import { Button, Dialog, ProblemBanner } from './ui';
import { useAction } from './useAction';

export interface UnsavedGuard {
  /** Where the user wanted to go while there were unsaved changes (null: nowhere). */
  pendingTo: string | null;
  /** Go there after all (the changes are dropped, or were just saved). */
  proceed(): void;
  /** Stay on the screen. */
  stay(): void;
}

/**
 * While `dirty`, leaving the screen asks first: in-app navigation (links, the sidebar, back and
 * forward) is held until the user decides, closing or reloading the window asks through the
 * browser, and switching to another service lists `what` among the work it would lose.
 */
export function useUnsavedGuard(dirty: boolean, what: string): UnsavedGuard {
  const [pending, setPending] = useState<{ to: string; proceed: () => void } | null>(null);
  const whatRef = useRef(what);
  whatRef.current = what;
  useEffect(() => {
    if (!dirty) return;
    const release = blockNavigation((to, proceed) => {
      setPending({ to, proceed });
      return true;
    });
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    const unregister = registerLeaveGuard(() => whatRef.current);
    return () => {
      release();
      window.removeEventListener('beforeunload', onUnload);
      unregister();
    };
  }, [dirty]);
  return {
    pendingTo: pending?.to ?? null,
    proceed: () => {
      const next = pending;
      setPending(null);
      next?.proceed();
    },
    stay: () => setPending(null),
  };
}

/** Asks what to do with unsaved changes before leaving: save and go, go without them, or stay. */
export function UnsavedChangesDialog({ guard, what, onSave }: { guard: UnsavedGuard; what: string; onSave?: () => Promise<boolean> }) {
  const { busy, error, setError, run } = useAction('Saving');
  useEffect(() => setError(null), [guard.pendingTo, setError]);
  const saveAndGo = async () => {
    const saved = await run(() => onSave!());
    if (saved) guard.proceed();
  };
  return (
    <Dialog
      title="Unsaved changes"
      open={guard.pendingTo !== null}
      onClose={guard.stay}
      footer={
        <>
          <Button onClick={guard.stay}>Keep editing</Button>
          <Button variant="danger" onClick={guard.proceed}>
            Discard changes
          </Button>
          {onSave && (
            <Button variant="primary" busy={busy} onClick={() => void saveAndGo()}>
              Save and leave
            </Button>
          )}
        </>
      }
    >
      <ProblemBanner error={error} />
      <p>{what} has changes that are not saved. Leaving now drops them.</p>
    </Dialog>
  );
}
