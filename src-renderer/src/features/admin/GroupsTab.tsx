import { useEffect, useMemo, useState } from 'react';
import {
  createGroup,
  createPolicy,
  deleteGroup,
  deletePolicy,
  POLICY_ACTIONS,
  updateGroup,
  updatePolicy,
  type Group,
  type Policy,
  type PolicyActionName,
} from '../../../../src-shared/api/access';
import { api } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { DataTable, ListState, NameAndDescription, PanelHead } from '../../lib/DataTable';
import { errorFor, toShownError, withoutField } from '../../lib/errors';
import { Badge, Button, EmptyState, Notice, ProblemBanner } from '../../lib/ui';
import { FormDialog, NameDescriptionFields } from '../../lib/FormDialog';
import { useAction } from '../../lib/useAction';
import { Checklist, type ChecklistItem } from './Checklist';
import { byId, useAllGroups, useAllPolicies, useAllUsers } from './data';
import { attachmentChanges, blankToNull, policiesOfGroup } from './groups';
import { ACTION_HINTS } from './UserDialog';
import { plural } from '../../lib/plural';

export function GroupsTab() {
  const [generation, setGeneration] = useState(0);
  const groups = useAllGroups([generation]);
  const policies = useAllPolicies([generation]);
  const users = useAllUsers();
  const [editingGroup, setEditingGroup] = useState<Group | 'new' | null>(null);
  const [editingPolicy, setEditingPolicy] = useState<Policy | 'new' | null>(null);
  const [deletingGroup, setDeletingGroup] = useState<Group | null>(null);
  const [deletingPolicy, setDeletingPolicy] = useState<Policy | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = () => setGeneration((g) => g + 1);

  const usersById = byId(users.data);
  const groupsById = byId(groups.data);
  const policiesById = byId(policies.data);
  const userItems = useMemo<ChecklistItem[]>(() => (users.data ?? []).map((u) => ({ id: u.id, label: `${u.name} <${u.email}>`, detail: u.role })), [users.data]);
  const done = (message: string) => {
    setNotice(message);
    reload();
  };

  return (
    <section aria-label="Groups and policies">
      <Notice text={notice} />
      <ProblemBanner error={users.error} />
      <div className="split">
        <div className="panel">
          <PanelHead title="Groups" count={groups.data?.length}>
            <Button className="btn-small" variant="primary" onClick={() => setEditingGroup('new')}>
              New group
            </Button>
          </PanelHead>
          <ProblemBanner error={groups.error} />
          <ListState rows={groups.data} loading={groups.loading} empty={<EmptyState title="No groups">Groups collect users; policies attached to a group apply to every member.</EmptyState>}>
            {(rows) => (
              <DataTable
                label="Groups"
                rows={rows}
                rowKey={(g) => g.id}
                columns={[
                  { header: 'Name', className: 'wrap-cell', cell: (g) => <NameAndDescription name={g.name} description={g.description} /> },
                  {
                    header: 'Members',
                    className: 'wrap-cell',
                    cell: (g) =>
                      g.userIds.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        <div title={g.userIds.map((id) => usersById.get(id)?.email ?? `user ${id}`).join('\n')}>
                          <div>{plural(g.userIds.length, 'member')}</div>
                          <div className="muted small">
                            {g.userIds
                              .slice(0, 3)
                              .map((id) => usersById.get(id)?.name ?? `user ${id}`)
                              .join(', ')}
                            {g.userIds.length > 3 && ` +${g.userIds.length - 3}`}
                          </div>
                        </div>
                      ),
                  },
                  {
                    header: 'Policies',
                    className: 'wrap-cell',
                    cell: (g) => (
                      <span className="badges">
                        {[...policiesOfGroup(policies.data ?? [], g.id)].map((id) => (
                          <Badge key={id} tone="info">
                            {policiesById.get(id)?.name ?? `policy ${id}`}
                          </Badge>
                        ))}
                      </span>
                    ),
                  },
                ]}
                actions={[
                  { label: 'Edit', ariaLabel: (g) => `Edit group ${g.name}`, onClick: setEditingGroup },
                  { label: 'Delete', ariaLabel: (g) => `Delete group ${g.name}`, onClick: setDeletingGroup, danger: true },
                ]}
              />
            )}
          </ListState>
        </div>

        <div className="panel">
          <PanelHead title="Policies" count={policies.data?.length}>
            <Button className="btn-small" variant="primary" onClick={() => setEditingPolicy('new')}>
              New policy
            </Button>
          </PanelHead>
          <ProblemBanner error={policies.error} />
          <ListState rows={policies.data} loading={policies.loading} empty={<EmptyState title="No policies">A policy grants actions (e.g. SchemaUpdate) to the groups and users it is attached to.</EmptyState>}>
            {(rows) => (
              <DataTable
                label="Policies"
                rows={rows}
                rowKey={(p) => p.id}
                columns={[
                  { header: 'Name', className: 'wrap-cell', cell: (p) => <NameAndDescription name={p.name} description={p.description} /> },
                  {
                    header: 'Actions',
                    className: 'wrap-cell',
                    cell: (p) => (
                      <span className="badges">
                        {p.actions.map((a) => (
                          <Badge key={a} tone="good">
                            {a}
                          </Badge>
                        ))}
                      </span>
                    ),
                  },
                  {
                    header: 'Attached to',
                    className: 'wrap-cell',
                    cellClassName: 'small',
                    cell: (p) =>
                      p.groupIds.length + p.userIds.length === 0 ? (
                        <span className="muted">nothing yet</span>
                      ) : (
                        <>
                          {p.groupIds.map((id) => groupsById.get(id)?.name ?? `group ${id}`).join(', ')}
                          {p.groupIds.length > 0 && p.userIds.length > 0 && '; '}
                          {p.userIds.map((id) => usersById.get(id)?.email ?? `user ${id}`).join(', ')}
                        </>
                      ),
                  },
                ]}
                actions={[
                  { label: 'Edit', ariaLabel: (p) => `Edit policy ${p.name}`, onClick: setEditingPolicy },
                  { label: 'Delete', ariaLabel: (p) => `Delete policy ${p.name}`, onClick: setDeletingPolicy, danger: true },
                ]}
              />
            )}
          </ListState>
        </div>
      </div>

      <GroupDialog
        group={editingGroup === 'new' ? null : editingGroup}
        open={editingGroup !== null}
        userItems={userItems}
        policies={policies.data ?? []}
        onClose={() => setEditingGroup(null)}
        onSaved={(message) => {
          setEditingGroup(null);
          done(message);
        }}
        onPartlySaved={reload}
      />
      <PolicyDialog
        policy={editingPolicy === 'new' ? null : editingPolicy}
        open={editingPolicy !== null}
        userItems={userItems}
        groups={groups.data ?? []}
        onClose={() => setEditingPolicy(null)}
        onSaved={(message) => {
          setEditingPolicy(null);
          done(message);
        }}
      />
      <ConfirmDialog
        open={deletingGroup !== null}
        title={`Delete group “${deletingGroup?.name ?? ''}”?`}
        confirmLabel="Delete group"
        action="Deleting the group"
        onClose={() => setDeletingGroup(null)}
        onConfirm={async () => {
          if (!deletingGroup) return;
          await api.call(deleteGroup, { params: { id: deletingGroup.id } });
          done(`Group “${deletingGroup.name}” deleted.`);
        }}
      >
        <p>Its {plural(deletingGroup?.userIds.length ?? 0, 'member')} lose the policies attached to the group. The users themselves are kept.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={deletingPolicy !== null}
        title={`Delete policy “${deletingPolicy?.name ?? ''}”?`}
        confirmLabel="Delete policy"
        action="Deleting the policy"
        onClose={() => setDeletingPolicy(null)}
        onConfirm={async () => {
          if (!deletingPolicy) return;
          await api.call(deletePolicy, { params: { id: deletingPolicy.id } });
          done(`Policy “${deletingPolicy.name}” deleted.`);
        }}
      >
        <p>Groups and users it is attached to lose {deletingPolicy?.actions.join(', ')} (unless another policy or their role grants it).</p>
      </ConfirmDialog>
    </section>
  );
}

function GroupDialog({
  group,
  open,
  userItems,
  policies,
  onClose,
  onSaved,
  onPartlySaved,
}: {
  group: Group | null;
  open: boolean;
  userItems: ChecklistItem[];
  policies: Policy[];
  onClose: () => void;
  onSaved: (message: string) => void;
  onPartlySaved: () => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<Set<number>>(new Set());
  const [attached, setAttached] = useState<Set<number>>(new Set());
  const { busy, error, setError, run } = useAction(group ? `Saving group ${group.name}` : 'Creating the group');

  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setDescription(group?.description ?? '');
    setMembers(new Set(group?.userIds ?? []));
    setAttached(group ? policiesOfGroup(policies, group.id) : new Set());
    setError(null);
    // Not on `policies`: they reload after saves, and the form keeps what the user chose meanwhile.
  }, [open, group, setError]);

  const submit = async () => {
    const body = { name: name.trim(), description: blankToNull(description), userIds: [...members].sort((a, b) => a - b) };
    const saved = await run(() => (group ? api.call(updateGroup, { params: { id: group.id }, body }) : api.call(createGroup, { body })));
    if (!saved) return;
    // Then the policies: one PUT per policy whose attachment to this group changed.
    for (const change of attachmentChanges(policies, saved.id, attached)) {
      const policy = policies.find((p) => p.id === change.policyId);
      try {
        await api.call(updatePolicy, { params: { id: change.policyId }, body: { groupIds: change.groupIds } });
      } catch (failure) {
        const shown = toShownError(failure, `Group “${saved.name}” was saved, but attaching policy “${policy?.name ?? change.policyId}”`);
        setError(shown);
        onPartlySaved();
        return;
      }
    }
    onSaved(`Group “${saved.name}” ${group ? 'saved' : 'created'}.`);
  };

  const policyItems = policies.map((p) => ({ id: p.id, label: p.name, detail: p.actions.join(', ') }));
  return (
    <FormDialog
      title={group ? `Edit group ${group.name}` : 'New group'}
      open={open}
      onClose={onClose}
      formId="group-form"
      formLabel={group ? 'Edit group' : 'New group'}
      submitLabel={group ? 'Save group' : 'Create group'}
      busy={busy}
      onSubmit={submit}
      error={error}
    >
      <NameDescriptionFields idPrefix="group" name={name} onName={setName} description={description} onDescription={setDescription} error={error} setError={setError} />
      <div className="form-row">
        <Checklist label="Members" idPrefix="group-member" items={userItems} selected={members} onChange={setMembers} error={errorFor(error, 'userIds')} empty="No users yet." />
        <Checklist label="Policies" idPrefix="group-policy" items={policyItems} selected={attached} onChange={setAttached} empty="No policies yet: create one first." />
      </div>
    </FormDialog>
  );
}

function PolicyDialog({
  policy,
  open,
  userItems,
  groups,
  onClose,
  onSaved,
}: {
  policy: Policy | null;
  open: boolean;
  userItems: ChecklistItem[];
  groups: Group[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [actions, setActions] = useState<Set<PolicyActionName>>(new Set());
  const [groupIds, setGroupIds] = useState<Set<number>>(new Set());
  const [userIds, setUserIds] = useState<Set<number>>(new Set());
  const { busy, error, setError, run } = useAction(policy ? `Saving policy ${policy.name}` : 'Creating the policy');

  useEffect(() => {
    if (!open) return;
    setName(policy?.name ?? '');
    setDescription(policy?.description ?? '');
    setActions(new Set(policy?.actions ?? []));
    setGroupIds(new Set(policy?.groupIds ?? []));
    setUserIds(new Set(policy?.userIds ?? []));
    setError(null);
  }, [open, policy, setError]);

  const submit = async () => {
    const body = {
      name: name.trim(),
      description: blankToNull(description),
      actions: POLICY_ACTIONS.filter((a) => actions.has(a)),
      groupIds: [...groupIds].sort((a, b) => a - b),
      userIds: [...userIds].sort((a, b) => a - b),
    };
    const saved = await run(() => (policy ? api.call(updatePolicy, { params: { id: policy.id }, body }) : api.call(createPolicy, { body })));
    if (saved) onSaved(`Policy “${saved.name}” ${policy ? 'saved' : 'created'}.`);
  };

  const actionsError = errorFor(error, 'actions');
  return (
    <FormDialog
      title={policy ? `Edit policy ${policy.name}` : 'New policy'}
      open={open}
      onClose={onClose}
      formId="policy-form"
      formLabel={policy ? 'Edit policy' : 'New policy'}
      submitLabel={policy ? 'Save policy' : 'Create policy'}
      busy={busy}
      onSubmit={submit}
      error={error}
    >
      <div className="form-row">
        <NameDescriptionFields idPrefix="policy" name={name} onName={setName} description={description} onDescription={setDescription} error={error} setError={setError} />
      </div>
      <fieldset className={`checklist ${actionsError ? 'field-invalid' : ''}`} aria-label="Actions">
        <legend>
          Actions <span className="muted">{actions.size} chosen</span>
        </legend>
        <div className="action-grid">
          {POLICY_ACTIONS.map((a) => (
            <label key={a} className="check">
              <input
                type="checkbox"
                checked={actions.has(a)}
                onChange={(e) => {
                  const next = new Set(actions);
                  if (e.target.checked) next.add(a);
                  else next.delete(a);
                  setActions(next);
                  setError(withoutField(error, 'actions'));
                }}
              />
              <code>{a}</code>
              <span className="muted small">{ACTION_HINTS[a]}</span>
            </label>
          ))}
        </div>
        {actionsError && <div className="field-error">{actionsError}</div>}
      </fieldset>
      <div className="form-row">
        <Checklist
          label="Attached to groups"
          idPrefix="policy-group"
          items={groups.map((g) => ({ id: g.id, label: g.name, detail: plural(g.userIds.length, 'member') }))}
          selected={groupIds}
          onChange={setGroupIds}
          error={errorFor(error, 'groupIds')}
          empty="No groups yet."
        />
        <Checklist label="Attached to users" idPrefix="policy-user" items={userItems} selected={userIds} onChange={setUserIds} error={errorFor(error, 'userIds')} empty="No users yet." />
      </div>
    </FormDialog>
  );
}
