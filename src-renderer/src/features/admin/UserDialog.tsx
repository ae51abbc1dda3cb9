import { useEffect, useState } from 'react';
import { POLICY_ACTIONS, type PolicyActionName } from '../../../../src-shared/api/access';
import { createUser, updateUser, type User } from '../../../../src-shared/api/identity';
import { api } from '../../app/session';
import { errorFor, withoutField } from '../../lib/errors';
import { DataTable, type Column } from '../../lib/DataTable';
import { Field } from '../../lib/ui';
import { FormDialog } from '../../lib/FormDialog';
import { useAction } from '../../lib/useAction';
import { newUserForm, policiesOf, userFormOf, userPatch, type PolicyChoice, type UserForm } from './policies';

export const ROLE_HINTS: Record<User['role'], string> = {
  admin: 'Everything, including users, keys and tenant settings',
  developer: 'Edit deployments and data models, use the SQL Runner',
  viewer: 'Read deployments and data models',
};

export const ACTION_HINTS: Record<PolicyActionName, string> = {
  DeploymentRead: 'See deployments',
  DeploymentEdit: 'Change deployments',
  SchemaRead: 'Read data models',
  SchemaUpdate: 'Change data models',
  SqlRunnerRead: 'Use the SQL Runner',
  SecretsManage: 'Manage secrets',
  DownloadData: 'Download query results',
  ChatHistoryRead: 'Read AI chat history',
};

const CHOICES: { value: PolicyChoice; label: string }[] = [
  { value: 'role', label: 'Role' },
  { value: 'grant', label: 'Grant' },
  { value: 'withdraw', label: 'Withdraw' },
];

/** Create a user (user = null) or edit one: name, email, role, active, and per-action policy overrides. */
export function UserDialog({ open, user, onClose, onSaved }: { open: boolean; user: User | null; onClose: () => void; onSaved: (user: User, verb: 'created' | 'saved') => void }) {
  const [form, setForm] = useState<UserForm>(newUserForm);
  const { busy, error, setError, run } = useAction(user ? `Saving ${user.email}` : 'Creating the user');

  useEffect(() => {
    if (!open) return;
    setForm(user ? userFormOf(user) : newUserForm());
    setError(null);
  }, [open, user, setError]);

  const set = <K extends keyof UserForm>(key: K, value: UserForm[K], field: string = key) => {
    setForm((f) => ({ ...f, [key]: value }));
    setError(withoutField(error, field));
  };
  const choose = (action: PolicyActionName, choice: PolicyChoice) =>
    set('policies', { ...form.policies, choices: { ...form.policies.choices, [action]: choice } }, 'userPolicies');

  const patch = user ? userPatch(user, form) : null;
  const unchanged = patch !== null && Object.keys(patch).length === 0;

  const submit = async () => {
    const saved = await run(() =>
      user
        ? api.call(updateUser, { params: { id: user.id }, body: userPatch(user, form) })
        : api.call(createUser, { body: { name: form.name, email: form.email.trim(), role: form.role, userPolicies: policiesOf(form.policies) } }),
    );
    if (saved) onSaved(saved, user ? 'saved' : 'created');
  };

  return (
    <FormDialog
      title={user ? `Edit ${user.name}` : 'New user'}
      open={open}
      onClose={onClose}
      formId="user-form"
      formLabel={user ? 'Edit user' : 'New user'}
      submitLabel={user ? 'Save user' : 'Create user'}
      busy={busy}
      submitDisabled={unchanged}
      onSubmit={submit}
      error={error}
    >
      <div className="form-row">
        <Field label="Name" htmlFor="user-name" error={errorFor(error, 'name')}>
          <input id="user-name" value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={255} autoFocus autoComplete="off" />
        </Field>
        <Field label="Email" htmlFor="user-email" error={errorFor(error, 'email')}>
          <input id="user-email" type="email" value={form.email} onChange={(e) => set('email', e.target.value)} maxLength={320} autoComplete="off" spellCheck={false} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Role" htmlFor="user-role" error={errorFor(error, 'role')} hint={ROLE_HINTS[form.role]}>
          <select id="user-role" value={form.role} onChange={(e) => set('role', e.target.value as User['role'])}>
            <option value="admin">Admin</option>
            <option value="developer">Developer</option>
            <option value="viewer">Viewer</option>
          </select>
        </Field>
        {user && (
          <div className="field">
            <span className="field-label">Status</span>
            <label className="check check-field">
              <input type="checkbox" checked={form.active} onChange={(e) => set('active', e.target.checked)} />
              Active (can sign in and use API keys)
            </label>
            {errorFor(error, 'active') && <div className="field-error">{errorFor(error, 'active')}</div>}
          </div>
        )}
      </div>
      <div className={`field ${errorFor(error, 'userPolicies') ? 'field-invalid' : ''}`}>
        <span className="field-label">Policy overrides</span>
        <DataTable
          label="Policy overrides"
          className="policy-grid"
          rows={POLICY_ACTIONS}
          rowKey={(action) => action}
          columns={[
            {
              header: 'Action',
              cell: (action) => (
                <>
                  <code>{action}</code> <span className="muted">{ACTION_HINTS[action]}</span>
                </>
              ),
            },
            ...CHOICES.map(
              (c): Column<PolicyActionName> => ({
                header: c.label,
                className: 'choice-col',
                cell: (action) => (
                  <input
                    type="radio"
                    name={`policy-${action}`}
                    aria-label={`${action}: ${c.label === 'Role' ? 'as the role says' : c.label.toLowerCase()}`}
                    checked={form.policies.choices[action] === c.value}
                    onChange={() => choose(action, c.value)}
                  />
                ),
              }),
            ),
          ]}
        />
        {form.policies.others.length > 0 && (
          <div className="field-hint">
            Also kept: {form.policies.others.map((o) => <code key={o}>{o} </code>)}
          </div>
        )}
        <div className={errorFor(error, 'userPolicies') ? 'field-error' : 'field-hint'}>
          {errorFor(error, 'userPolicies') ?? 'Grant adds an action to the role; withdraw removes one. Group policies add to these.'}
        </div>
      </div>
    </FormDialog>
  );
}
