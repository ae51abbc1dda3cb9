import { useEffect, useState, type FormEvent } from 'react';
import { ENV_VAR_NAME_PATTERN, listEnvVars, setEnvVars, type EnvVar } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { errorFor, toShownError, type ShownError } from '../../lib/errors';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, Dialog, EmptyState, Field, ProblemBanner, Spinner, Time } from '../../lib/ui';
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
        <div className="panel-head">
          <h2>Variables {vars && <span className="count">{vars.length}</span>}</h2>
          <Button className="btn-small" onClick={listed.reload} busy={listed.loading && vars !== null}>
            Refresh
          </Button>
        </div>
        <ProblemBanner error={listed.error} />
        {!vars ? (
          listed.loading && <Spinner label="Loading env variables…" />
        ) : vars.length === 0 ? (
          <EmptyState title="No env variables">Set one with the form.</EmptyState>
        ) : (
          <table className="table" aria-label="Env variables">
            <thead>
              <tr>
                <th>Name</th>
                <th>Value</th>
                <th>Updated</th>
                <th className="actions-col" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {vars.map((v) => (
                <tr key={v.name} className={draft.existing?.name === v.name ? 'selected' : undefined}>
                  <td>
                    <code className="strong">{v.name}</code>
                  </td>
                  <td className="value-cell">
                    {v.isSecret ? (
                      <span className="secret">
                        <Badge tone="info">secret</Badge> <span className="muted">value hidden</span>
                      </span>
                    ) : v.value === '' ? (
                      <span className="muted">(empty)</span>
                    ) : (
                      <code className="value">{v.value}</code>
                    )}
                  </td>
                  <td>
                    <Time value={v.updatedAt} />
                  </td>
                  <td className="actions-col">
                    <button type="button" className="btn btn-ghost btn-small" onClick={() => edit(v)} aria-label={`Edit ${v.name}`}>
                      Edit
                    </button>
                    <button type="button" className="btn btn-ghost btn-small danger-text" onClick={() => setDeleting(v)} aria-label={`Delete ${v.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
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
