import { useShallow } from 'zustand/react/shallow';
import { plural, verb } from '../../../lib/plural';
import { Button, Dialog } from '../../../lib/ui';
import { dirtyPaths, useModels } from '../store';

/** Asks before an action that would drop unsaved edits (switching branch or deployment, leaving dev mode). */
export function UnsavedChangesDialog({ editable }: { editable: boolean }) {
  const pending = useModels((s) => s.pending);
  const resolvePending = useModels((s) => s.resolvePending);
  const dirty = useModels(useShallow(dirtyPaths));
  return (
    <Dialog
      title="Unsaved changes"
      open={pending !== null}
      onClose={() => void resolvePending('cancel')}
      footer={
        <>
          <Button onClick={() => void resolvePending('cancel')}>Cancel</Button>
          <Button variant="danger" onClick={() => void resolvePending('discard')}>
            Discard changes
          </Button>
          {editable && (
            <Button variant="primary" onClick={() => void resolvePending('save')}>
              Save and continue
            </Button>
          )}
        </>
      }
    >
      <p>
        {plural(dirty.length, 'file')} {verb(dirty.length, 'has', 'have')} unsaved edits. Save {verb(dirty.length, 'it', 'them')} before you {pending?.description ?? 'continue'}?
      </p>
      <ul className="unsaved-list">
        {dirty.map((path) => (
          <li key={path}>
            <code>{path}</code>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
