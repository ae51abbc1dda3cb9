// "Changed elsewhere" for form-like settings (deployment settings, theme, tenant settings, an env
// var, a workbook's name): the save was refused because someone saved meanwhile; each field that
// changed is listed with its value when the form was opened, on the service now and in the form,
// and the user picks. Nothing is written and nothing typed is lost until they pick (rule: staleForm.ts).
import type { ReactNode } from 'react';
import type { ConflictRow } from './staleForm';
import { DataTable } from './DataTable';
import { Badge, Button, Dialog } from './ui';
import './kit.css';

export interface SettingsConflict {
  /** What changed, for the title and the sentence: `The settings of “Sales”`. */
  what: string;
  rows: ConflictRow[];
}

export function SettingsConflictDialog({
  conflict,
  busy,
  onKeepMine,
  onTakeTheirs,
  onClose,
  note,
  keepMineLabel = 'Save mine',
}: {
  conflict: SettingsConflict | null;
  busy?: boolean;
  /** Save the fields the user changed over the service's version (their other changes stay). */
  onKeepMine(): void;
  /** Drop the user's changes and show the service's version. */
  onTakeTheirs(): void;
  /** Keep editing: the typed values stay, unsaved. */
  onClose(): void;
  note?: ReactNode;
  /** The label of "Save mine" (e.g. "Delete anyway" when the refused write was a deletion). */
  keepMineLabel?: string;
}) {
  const clashes = conflict?.rows.filter((r) => r.clash).length ?? 0;
  const mineRows = conflict?.rows.filter((r) => !r.theirsOnly) ?? [];
  return (
    <Dialog title={conflict ? `${conflict.what} changed elsewhere` : 'Changed elsewhere'} open={conflict !== null}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} title="Keep your values unsaved; saving again shows this comparison again">
            Keep editing
          </Button>
          <Button variant="danger" onClick={onTakeTheirs} disabled={busy}>
            Take theirs (reload)
          </Button>
          <Button variant="primary" onClick={onKeepMine} disabled={busy || mineRows.length === 0} busy={busy}>
            {keepMineLabel}
          </Button>
        </>
      }
    >
      {conflict && (
        <div className="settings-conflict" data-testid="settings-conflict">
          <p>
            Someone saved {conflict.what.charAt(0).toLowerCase() + conflict.what.slice(1)} after you opened it (another window or a script), so your save was not written. Your values are still
            in the form.
          </p>
          <DataTable
            label="What changed"
            className="conflict-table"
            wrapClassName="table-wrap"
            rows={conflict.rows}
            rowKey={(row) => row.key}
            rowClassName={(row) => (row.clash ? 'conflict-clash' : undefined)}
            columns={[
              {
                header: 'Field',
                rowHeader: true,
                cell: (row) => (
                  <>
                    {row.label} {row.clash ? <Badge tone="bad">both changed</Badge> : row.theirsOnly ? <Badge tone="info">theirs</Badge> : <Badge tone="warn">yours</Badge>}
                  </>
                ),
              },
              { header: 'When you opened it', cell: (row) => row.base },
              { header: 'Saved elsewhere (theirs)', cell: (row) => row.theirs },
              { header: 'Yours', cell: (row) => row.mine },
            ]}
          />
          {note}
          <p className="muted small">
            {mineRows.length === 0
              ? 'You changed none of these fields.'
              : `“${keepMineLabel}” saves the ${mineRows.length === 1 ? 'field' : 'fields'} you changed (${mineRows.map((r) => r.label).join(', ')})${clashes > 0 ? ', over theirs where both changed' : ''}; their other changes stay.`}
          </p>
        </div>
      )}
    </Dialog>
  );
}
