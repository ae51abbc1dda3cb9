import { useEffect, useRef } from 'react';
import type { LakehouseConfigurationInput, LakehouseSettings } from '../../../../../src-shared/api/lakehouse';
import { DataTable } from '../../../lib/DataTable';
import type { ShownError } from '../../../lib/errors';
import { Badge, Button, ProblemDetails, Time } from '../../../lib/ui';
import { conflictChanges } from './form';

/** A save of the publication settings refused because someone else saved a newer version meanwhile. */
export interface Conflict {
  /** The configuration the refused save carried. */
  attempted: LakehouseConfigurationInput;
  /** The settings as saved by someone else meanwhile. */
  latest: LakehouseSettings;
  problem: ShownError;
}

/** What clashed (field by field: where you started, what was saved, your edit) and the two ways out. */
export function ConflictNotice({ conflict, base, onRebase, onTakeTheirs }: { conflict: Conflict; base: LakehouseSettings | null; onRebase: () => void; onTakeTheirs: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [conflict]);
  const changes = conflictChanges(base?.configuration ?? null, conflict.attempted, conflict.latest.configuration);
  const { latest } = conflict;
  return (
    <div className="sy-conflict" role="alert" aria-label="Version conflict" ref={ref}>
      <div className="sy-conflict-head">
        <strong>Someone else saved these settings while you were editing</strong>
      </div>
      <p>
        You started from version {base?.configurationVersion ?? 0}; version {latest.configurationVersion} was saved <Time value={latest.updatedAt} />
        {latest.updatedBy !== null ? ` by user #${latest.updatedBy}` : ''}. Nothing of yours was saved. Your edits are still in the form below.
      </p>
      <ProblemDetails error={conflict.problem} />
      {changes.length > 0 ? (
        <DataTable
          label="Your edits and the saved version"
          className="sy-conflict-table"
          rows={changes}
          rowKey={(c) => c.field}
          rowClassName={(c) => (c.clash ? 'sy-clash' : undefined)}
          columns={[
            {
              header: 'Setting',
              cell: (c) => (
                <>
                  {c.label}
                  {c.clash && (
                    <>
                      {' '}
                      <Badge tone="warn">both changed</Badge>
                    </>
                  )}
                </>
              ),
            },
            { header: `Version ${base?.configurationVersion ?? 0} (yours started here)`, cellClassName: 'sy-wrap muted', cell: (c) => c.base },
            { header: `Version ${latest.configurationVersion} (saved now)`, cellClassName: 'sy-wrap', cell: (c) => c.theirs },
            { header: 'Your edit', cellClassName: 'sy-wrap strong', cell: (c) => c.mine },
          ]}
        />
      ) : (
        <p className="muted">The saved version already matches your edits.</p>
      )}
      <div className="form-actions">
        <Button variant="primary" onClick={onRebase}>
          Reload version {latest.configurationVersion}, keep my edits
        </Button>
        <Button onClick={onTakeTheirs}>Discard my edits</Button>
      </div>
      <div className="field-hint">Keeping your edits puts them on top of version {latest.configurationVersion}; review them and save again.</div>
    </div>
  );
}
