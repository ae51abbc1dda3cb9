import { useEffect, useState, type FormEvent } from 'react';
import { ENV_VAR_NAME_PATTERN, listEnvVars, setEnvVars, type EnvVar } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { errorFor, toShownError, type ShownError } from '../../lib/errors';
import { DataTable, ListState, PanelHead } from '../../lib/DataTable';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, Dialog, EmptyState, Field, ProblemBanner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';

const NAME_RE = new RegExp(ENV_VAR_NAME_PATTERN);

interface Draft {
  name: string;
  value: string;
  isSecret: boolean;
  /** The variable being replaced, if any (its name is then fixed). */
  existing: EnvVar | null;
}

const emptyDraft = (): Draft => ({ name: '', value: '', isSecret: false, existing: null });

export function EnvVarsTab({ deploymentId }: { deploymentId: number }) {
  const listed = useQuery(
    (signal) => fetchAllPages((after) => api.call(listEnvVars, { params: { deploymentId }, query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [deploymentId],
    'Loading env variables',
  );
  const [vars, setVars] = useState<EnvVar[] | null>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<EnvVar | null>(null);

  useEffect(() => {
    if (listed.data) setVars(listed.data);
  }, [listed.data]);

  const nameProblem = draft.name && !NAME_RE.test(draft.name) ? 'Use capital letters, digits and underscores, not starting with a digit.' : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    setBusy(true);
    try {
      const result = await api.call(setEnvVars, {
        params: { deploymentId },
        body: [{ name: draft.name, value: draft.value, isSecret: draft.isSecret }],
      });
      setVars(result.items);
      setSaved(`${draft.name} saved${draft.isSecret ? ' as a secret' : ''}.`);
      setDraft(emptyDraft());
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
        deploymentId={deploymentId}
        variable={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(items, name) => {
          setVars(items);
          setSaved(`${name} deleted.`);
          if (draft.existing?.name === name) setDraft(emptyDraft());
        }}
      />
    </div>
  );
}

function DeleteEnvVarDialog({
  deploymentId,
  variable,
  onClose,
  onDeleted,
}: {
  deploymentId: number;
  variable: EnvVar | null;
  onClose: () => void;
  onDeleted: (items: EnvVar[], name: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => setError(null), [variable]);
  const remove = async () => {
    if (!variable) return;
    setBusy(true);
    setError(null);
    try {
      const result = await api.call(setEnvVars, { params: { deploymentId }, body: [{ name: variable.name, value: null }] });
      onDeleted(result.items, variable.name);
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
