// The compare-and-merge view of a save refused because someone saved meanwhile (another window, a
// script): the service's version on the left, the user's on the right (editable, Monaco's diff
// editor). The user keeps theirs over it, takes the service's, or saves what they merged; closing
// keeps the edit unsaved. Nothing is lost whichever they pick until they pick it.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Dialog, Spinner } from './ui';
import './kit.css';

const MergeEditor = lazy(() => import('./editor/MergeEditor'));

export interface StaleCompare {
  /** What changed, for the title: `The dashboard of “Sales”`. */
  what: string;
  /** Names the documents (editor URIs, screen readers): `sales/dashboard.json`. */
  path: string;
  language: 'json' | 'yaml';
  /** The service's version now (null: it was deleted there). */
  theirs: string | null;
  mine: string;
}

export function StaleCompareDialog({
  stale,
  busy,
  onKeepMine,
  onTakeTheirs,
  onSaveMerged,
  onClose,
}: {
  stale: StaleCompare | null;
  busy?: boolean;
  /** Save the user's version over the service's. */
  onKeepMine(): void;
  /** Drop the user's edit and show the service's version. */
  onTakeTheirs(): void;
  /** Save the merged text; answer a message when it cannot be read (it stays open then). Left out where merging makes no sense. */
  onSaveMerged?: (text: string) => string | null | Promise<string | null>;
  /** Keep editing: the edit stays, unsaved. */
  onClose(): void;
}) {
  const [merged, setMerged] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setMerged(stale?.mine ?? '');
    setError(null);
  }, [stale]);
  const gone = stale?.theirs === null;
  const edited = stale !== null && merged !== stale.mine;
  const saveMerged = async () => {
    if (!onSaveMerged) return;
    setError(await onSaveMerged(merged));
  };
  return (
    <Dialog
      title={stale ? `${stale.what} changed since you opened it` : 'Changed meanwhile'}
      open={stale !== null}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} title="Keep your edit unsaved; saving again shows this comparison again">
            Keep editing
          </Button>
          <Button variant="danger" onClick={onTakeTheirs} disabled={busy}>
            {gone ? 'Accept the deletion' : 'Take theirs'}
          </Button>
          <Button onClick={onKeepMine} disabled={busy} variant={onSaveMerged && edited ? 'default' : 'primary'}>
            Keep mine (overwrite)
          </Button>
          {onSaveMerged && !gone && (
            <Button variant={edited ? 'primary' : 'default'} onClick={() => void saveMerged()} disabled={busy || !edited} title={edited ? 'Save the right-hand side as you merged it' : 'Take changes from the left first'}>
              Save merged
            </Button>
          )}
        </>
      }
    >
      {stale && (
        <div className="stale-write">
          <p>
            Someone saved {stale.what.charAt(0).toLowerCase() + stale.what.slice(1)} after you opened it (another window or a script), so your save was not written.{' '}
            {gone
              ? 'It was deleted there.'
              : `Left: the version on the service now. Right: yours${onSaveMerged ? ', editable — take changes from the left with the arrows in the middle, then save the merged version' : ''}.`}
          </p>
          <div className="stale-write-labels" aria-hidden="true">
            <span>On the service now (theirs)</span>
            <span>Your version{onSaveMerged ? ' (merge here)' : ''}</span>
          </div>
          <Suspense fallback={<Spinner label="Loading the comparison…" />}>
            <MergeEditor path={stale.path} language={stale.language} theirs={stale.theirs ?? ''} mine={stale.mine} onChange={setMerged} />
          </Suspense>
          {error && (
            <p className="field-error stale-write-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
