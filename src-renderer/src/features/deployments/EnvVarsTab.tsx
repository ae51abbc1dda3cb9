import { useEffect, useState, type FormEvent } from 'react';
import { ENV_VAR_NAME_PATTERN, listEnvVars, setEnvVars, type EnvVar } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { errorFor, toShownError, type ShownError } from '../../lib/errors';
import { DataTable, ListState, PanelHead } from '../../lib/DataTable';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, Dialog, EmptyState, Field, ProblemBanner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { staleOf } from '../../lib/stale';
import type { ConflictRow } from '../../lib/staleForm';
import { SettingsConflictDialog } from '../../lib/SettingsConflictDialog';
import { envVarConflict, type EnvVarChange } from './envVarsStale';

const NAME_RE = new RegExp(ENV_VAR_NAME_PATTERN);

interface Draft {
  name: string;
  value: string;
  isSecret: boolean;
  /** The variable being replaced, if any (its name is then fixed). */
  existing: EnvVar | null;
}

const emptyDraft = (): Draft => ({ name: '', value: '', isSecret: false, existing: null });

/** A save refused because the variable changed elsewhere, waiting for the user's choice. */
interface EnvConflict {
  change: EnvVarChange;
  basedOn: EnvVar | null;
  /** The set as the service holds it now, and its version. */
  items: EnvVar[];
  version: string | null;
  rows: ConflictRow[];
}

export function EnvVarsTab({ deploymentId }: { deploymentId: number }) {
  // Every page answers the version of the whole set; the first page's is the one the list is based on.
  const listed = useQuery(
    async (signal) => {
      let version: string | null | undefined;
      const items = await fetchAllPages(async (after) => {
        const page = await api.callVersioned(listEnvVars, { params: { deploymentId }, query: { first: 500, ...(after ? { after } : {}) }, signal });
        if (version === undefined) version = page.version;
        return page.data;
      });
      return { items, version: version ?? null };
    },
    [deploymentId],
    'Loading env variables',
  );
  const [vars, setVars] = useState<EnvVar[] | null>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<EnvVar | null>(null);
  const [listVersion, setListVersion] = useState<string | null>(null);
  const [conflict, setConflict] = useState<EnvConflict | null>(null);

  useEffect(() => {
    if (!listed.data) return;
    setVars(listed.data.items);
    setListVersion(listed.data.version);
  }, [listed.data]);

  /**
   * Writes one variable with the version of the set the list shows (rule: envVarsStale.ts): re-sent
   * on the new version when only other variables changed meanwhile; 'conflict' when this one did
   * (the "changed elsewhere" dialog is then open). Other failures throw.
   */
  const write = async (change: EnvVarChange, basedOn: EnvVar | null, version: string | null, shown: EnvVar[] | null): Promise<EnvVar[] | 'conflict'> => {
    // The list was refreshed since the edit began and shows this variable changed: no need to ask the service.
    const known = shown ? envVarConflict(change, basedOn, shown) : null;
    if (known && shown) {
      setConflict({ change, basedOn, items: shown, version, rows: known });
      return 'conflict';
    }
    let on = version;
    for (let attempt = 0; ; attempt++) {
      try {
        const body = [change.value === null ? { name: change.name, value: null } : { name: change.name, value: change.value, isSecret: change.isSecret }];
        const result = await api.callVersioned(setEnvVars, { params: { deploymentId }, body, ...(on ? { ifMatch: on } : {}) });
        setVars(result.data.items);
        setListVersion(result.version);
        return result.data.items;
      } catch (failure) {
        const stale = staleOf<{ items: EnvVar[] }>(failure);
        if (!stale?.current || attempt >= 3) throw failure;
        const rows = envVarConflict(change, basedOn, stale.current.items);
        if (rows) {
          setConflict({ change, basedOn, items: stale.current.items, version: stale.version, rows });
          return 'conflict';
        }
        on = stale.version;
      }
    }
  };
  const announce = (change: EnvVarChange) => {
    setSaved(change.value === null ? `${change.name} deleted.` : `${change.name} saved${change.isSecret ? ' as a secret' : ''}.`);
    if (change.value !== null || draft.existing?.name === change.name) setDraft(emptyDraft());
  };

  const nameProblem = draft.name && !NAME_RE.test(draft.name) ? 'Use capital letters, digits and underscores, not starting with a digit.' : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    setBusy(true);
    try {
      const change = { name: draft.name, value: draft.value, isSecret: draft.isSecret };
      const result = await write(change, draft.existing, listVersion, vars);
      if (result !== 'conflict') announce(change);
    } catch (failure) {
      setError(toShownError(failure, `Saving ${draft.name || 'the variable'}`));
    } finally {
      setBusy(false);
    }
  };

  const edit = (v: EnvVar) => {
    setError(null);
    setSaved(null);
    // A secret's value is never sent to the page: replacing it means typing a new one.
    setDraft({ name: v.name, value: v.isSecret ? '' : (v.value ?? ''), isSecret: v.isSecret, existing: v });
    document.getElementById('env-value')?.focus();
  };

  return (
    <div className="two-col">
      <div className="panel">
        <PanelHead title="Variables" count={vars?.length}>
          <Button className="btn-small" onClick={listed.reload} busy={listed.loading && vars !== null}>
            Refresh
          </Button>
        </PanelHead>
        <ProblemBanner error={listed.error} />
        <ListState rows={vars} loading={listed.loading} loadingLabel="Loading env variables…" empty={<EmptyState title="No env variables">Set one with the form.</EmptyState>}>
          {(rows) => (
            <DataTable
              label="Env variables"
              rows={rows}
              rowKey={(v) => v.name}
              rowClassName={(v) => (draft.existing?.name === v.name ? 'selected' : undefined)}
              columns={[
                { header: 'Name', cell: (v) => <code className="strong">{v.name}</code> },
                { header: 'Value', cellClassName: 'value-cell', cell: (v) => <EnvValue variable={v} /> },
                { header: 'Updated', cell: (v) => <Time value={v.updatedAt} /> },
              ]}
              actions={[
                { label: 'Edit', ariaLabel: (v) => `Edit ${v.name}`, onClick: edit },
                { label: 'Delete', ariaLabel: (v) => `Delete ${v.name}`, onClick: setDeleting, danger: true },
              ]}
            />
          )}
        </ListState>
      </div>

      <form className="panel form side" onSubmit={save} noValidate aria-label="Set env variable">
        <h2>{draft.existing ? `Edit ${draft.existing.name}` : 'Set a variable'}</h2>
        {saved && (
          <div className="saved" role="status">
            {saved}
          </div>
        )}
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        <Field label="Name" htmlFor="env-name" error={errorFor(error, '0.name') ?? nameProblem} hint="e.g. CUBEJS_DB_HOST">
          <input
            id="env-name"
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value.toUpperCase(), existing: vars?.find((v) => v.name === e.target.value.toUpperCase()) ?? null })}
            spellCheck={false}
            autoComplete="off"
            readOnly={draft.existing !== null}
          />
        </Field>
        <Field
          label="Value"
          htmlFor="env-value"
          error={errorFor(error, '0.value')}
          hint={draft.existing?.isSecret ? 'The current value is hidden; type the new value.' : draft.isSecret ? 'Stored in the OS keychain; never shown again.' : undefined}
        >
          <input
            id="env-value"
            type={draft.isSecret ? 'password' : 'text'}
            value={draft.value}
            onChange={(e) => setDraft({ ...draft, value: e.target.value })}
            spellCheck={false}
            autoComplete="off"
            placeholder={draft.existing?.isSecret ? '••••••••' : undefined}
          />
        </Field>
        <label className="check">
          <input type="checkbox" checked={draft.isSecret} onChange={(e) => setDraft({ ...draft, isSecret: e.target.checked })} />
          Secret (value kept in the keychain, never returned)
        </label>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={!draft.name || nameProblem !== null}>
            {draft.existing ? 'Save variable' : 'Add variable'}
          </Button>
          {(draft.existing || draft.name || draft.value) && (
            <Button
              onClick={() => {
                setDraft(emptyDraft());
                setError(null);
              }}
            >
              Cancel
            </Button>
          )}
        </div>
      </form>
      <DeleteEnvVarDialog
        variable={deleting}
        onClose={() => setDeleting(null)}
        onConfirm={async (variable) => {
          const change = { name: variable.name, value: null, isSecret: variable.isSecret };
          const result = await write(change, variable, listVersion, null);
          if (result !== 'conflict') announce(change);
        }}
      />
      <SettingsConflictDialog
        conflict={conflict ? { what: `The env variable ${conflict.change.name}`, rows: conflict.rows } : null}
        busy={busy}
        keepMineLabel={conflict?.change.value === null ? 'Delete anyway' : 'Save mine'}
        onClose={() => setConflict(null)}
        onTakeTheirs={() => {
          if (!conflict) return;
          const theirs = conflict.items.find((v) => v.name === conflict.change.name) ?? null;
          setConflict(null);
          setVars(conflict.items);
          setListVersion(conflict.version);
          setError(null);
          if (conflict.change.value === null) return;
          setDraft(theirs ? { name: theirs.name, value: theirs.isSecret ? '' : (theirs.value ?? ''), isSecret: theirs.isSecret, existing: theirs } : { ...draft, existing: null });
        }}
        onKeepMine={() => {
          if (!conflict) return;
          const { change, items, version } = conflict;
          const theirs = items.find((v) => v.name === change.name) ?? null;
          setConflict(null);
          setBusy(true);
          write(change, theirs, version, null)
            .then((result) => result !== 'conflict' && announce(change))
            .catch((failure: unknown) => setError(toShownError(failure, `Saving ${change.name}`)))
            .finally(() => setBusy(false));
        }}
      />
    </div>
  );
}

function DeleteEnvVarDialog({ variable, onClose, onConfirm }: { variable: EnvVar | null; onClose: () => void; onConfirm: (variable: EnvVar) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => setError(null), [variable]);
  const remove = async () => {
    if (!variable) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm(variable);
      onClose();
    } catch (failure) {
      setError(toShownError(failure, `Deleting ${variable.name}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Delete ${variable?.name ?? ''}?`}
      open={variable !== null}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={busy} onClick={() => void remove()}>
            Delete
          </Button>
        </>
      }
    >
      <ProblemBanner error={error} />
      <p>The deployment will no longer see this variable{variable?.isSecret ? '; its secret value is removed from the keychain' : ''}.</p>
    </Dialog>
  );
}

/** A secret's value never reaches the page; an empty value is said, not left blank. */
function EnvValue({ variable: v }: { variable: EnvVar }) {
  if (v.isSecret)
    return (
      <span className="secret">
        <Badge tone="info">secret</Badge> <span className="muted">value hidden</span>
      </span>
    );
  if (v.value === '') return <span className="muted">(empty)</span>;
  return <code className="value">{v.value}</code>;
}
