// Shown when a save was refused because the file changed on the service since it was opened (another
// window, a pull, a script): compare both versions, merge, and save the result — never overwrite blindly.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Dialog, Spinner } from '../../lib/ui';
import { useModels } from './store';
import { plural } from '../../lib/plural';

const MergeEditor = lazy(() => import('./MergeEditor'));

export function StaleWriteDialog() {
  const stale = useModels((s) => s.staleWrites[0] ?? null);
  const remaining = useModels((s) => s.staleWrites.length);
  const resolveStale = useModels((s) => s.resolveStale);
  const busy = useModels((s) => s.busy !== null);
  const [merged, setMerged] = useState('');
  useEffect(() => setMerged(stale?.mine ?? ''), [stale]);

  const title = stale ? `${stale.path} changed since you opened it` : 'File changed';
  return (
    <Dialog
      title={title}
      open={stale !== null}
      onClose={() => void resolveStale('later')}
      footer={
        <>
          <Button onClick={() => void resolveStale('later')} title="Keep your edit unsaved; saving again shows this comparison again">
            Keep editing
          </Button>
          <Button variant="danger" onClick={() => void resolveStale('theirs')} disabled={busy}>
            {stale?.theirs === null ? 'Accept the deletion' : 'Use their version'}
          </Button>
          <Button variant="primary" onClick={() => void resolveStale({ content: merged })} disabled={busy}>
            {stale?.theirs === null ? 'Save my version again' : 'Save merged version'}
          </Button>
        </>
      }
    >
      {stale && (
        <div className="stale-write">
          <p>
            Someone saved <code>{stale.path}</code> after you opened it (another window, a pull or a script), so your save was not written.{' '}
            {stale.theirs === null
              ? 'The file was deleted there.'
              : 'Left: the version on the service now. Right: yours, editable — take changes from the left with the arrows in the middle, then save the merged version.'}
            {remaining > 1 && ` ${plural(remaining - 1, 'more file', 'more files')} to compare after this one.`}
          </p>
          <div className="stale-write-labels" aria-hidden="true">
            <span>On the service now</span>
            <span>Your version (merge here)</span>
          </div>
          <Suspense fallback={<Spinner label="Loading the comparison…" />}>
            <MergeEditor path={stale.path} theirs={stale.theirs ?? ''} mine={stale.mine} onChange={setMerged} />
          </Suspense>
        </div>
      )}
    </Dialog>
  );
}
