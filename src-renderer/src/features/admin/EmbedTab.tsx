import { useEffect, useMemo, useState } from 'react';
import {
  addEmbedGroupUsers,
  createEmbedGroup,
  deleteEmbedGroup,
  deleteEmbedTenant,
  listEmbedGroups,
  listEmbedGroupUsers,
  listEmbedTenants,
  listEmbedTenantUsers,
  updateEmbedGroup,
  type EmbedGroup,
  type EmbedTenant,
} from '../../../../src-shared/api/embed';
import { api } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { DataTable, ListState, NameAndDescription, PanelHead, SelectLink } from '../../lib/DataTable';
import { errorFor } from '../../lib/errors';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, Dialog, EmptyState, Notice, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { FormDialog, NameDescriptionFields } from '../../lib/FormDialog';
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { Checklist } from './Checklist';
import { blankToNull } from './groups';
import { plural } from '../../lib/plural';

export function EmbedTab() {
  const [generation, setGeneration] = useState(0);
  const tenants = useQuery(
    (signal) => fetchAllPages((after) => api.call(listEmbedTenants, { query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [generation],
    'Loading embed tenants',
  );
  const [selectedName, setSelectedName] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<EmbedTenant | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = tenants.data ?? [];
  const selected = list.find((t) => t.name === selectedName) ?? list[0] ?? null;

  return (
    <section aria-label="Embed tenants">
      <div className="toolbar">
        <span className="muted toolbar-note">
          An embed tenant is one customer of an app that embeds Drydock. Tenants and their users appear when the app first generates an embed session for them (
          <code>POST /api/v1/embed/generate-session</code>).
        </span>
        <Button onClick={() => setGeneration((g) => g + 1)} busy={tenants.loading && tenants.data !== null}>
          Refresh
        </Button>
      </div>
      <Notice text={notice} />
      <ProblemBanner error={tenants.error} />
      <ListState
        rows={tenants.data ? list : null}
        loading={tenants.loading}
        loadingLabel="Loading embed tenants…"
        empty={<EmptyState title="No embed tenants yet">Turn on signed embedding in Tenant settings, then generate an embed session from your app.</EmptyState>}
      >
        {(rows) => (
          <div className="master-detail">
            <DataTable
              label="Embed tenants"
              className="table-hover"
              rows={rows}
              rowKey={(t) => t.name}
              selection={{ isSelected: (t) => selected?.name === t.name, onSelect: (t) => setSelectedName(t.name) }}
              columns={[
                {
                  header: 'Tenant',
                  cell: (t) => (
                    <>
                      <SelectLink onSelect={() => setSelectedName(t.name)}>{t.displayName ?? t.name}</SelectLink>
                      {t.displayName && <div className="muted small mono">{t.name}</div>}
                    </>
                  ),
                },
                { header: 'Users', className: 'num', cell: (t) => t.userCount },
                { header: 'Groups', className: 'num', cell: (t) => t.groupCount },
              ]}
            />
            {selected && <TenantDetail key={selected.name} tenant={selected} onChanged={() => setGeneration((g) => g + 1)} onDelete={() => setDeleting(selected)} />}
          </div>
        )}
      </ListState>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete embed tenant “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete tenant"
        action="Deleting the embed tenant"
        typeToConfirm={deleting?.name}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.call(deleteEmbedTenant, { params: { embedTenantName: deleting.name } });
          setNotice(`Embed tenant “${deleting.name}” deleted; its live sessions are revoked.`);
          setSelectedName(null);
          setGeneration((g) => g + 1);
        }}
      >
        <p>Its {plural(deleting?.userCount ?? 0, 'user')}, {plural(deleting?.groupCount ?? 0, 'group')}, comments and access entries are removed and its live sessions revoked. Type its name to confirm.</p>
      </ConfirmDialog>
    </section>
  );
}

function TenantDetail({ tenant, onChanged, onDelete }: { tenant: EmbedTenant; onChanged: () => void; onDelete: () => void }) {
  const [generation, setGeneration] = useState(0);
  const name = tenant.name;
  const groups = useQuery(
    (signal) => fetchAllPages((after) => api.call(listEmbedGroups, { params: { embedTenantName: name }, query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [name, generation],
    'Loading embed groups',
  );
  const users = useQuery(
    (signal) => fetchAllPages((after) => api.call(listEmbedTenantUsers, { params: { embedTenantName: name }, query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [name, generation],
    'Loading embed users',
  );
  const [editing, setEditing] = useState<EmbedGroup | 'new' | null>(null);
  const [members, setMembers] = useState<EmbedGroup | null>(null);
  const [deleting, setDeleting] = useState<EmbedGroup | null>(null);
  const refresh = () => {
    setGeneration((g) => g + 1);
    onChanged();
  };

  return (
    <div className="detail-stack">
      <section className="panel">
        <div className="panel-head">
          <h2>
            {tenant.displayName ?? tenant.name} {tenant.displayName && <code className="muted">{tenant.name}</code>}
          </h2>
          <Button className="btn-small danger-text" variant="ghost" onClick={onDelete}>
            Delete tenant…
          </Button>
        </div>
        <dl className="facts">
          <dt>Dashboard comments</dt>
          <dd>{tenant.settings.enableDashboardComments ? <Badge tone="good">enabled</Badge> : <Badge>disabled</Badge>}</dd>
          <dt>Users</dt>
          <dd>{tenant.userCount}</dd>
          <dt>Created</dt>
          <dd>
            <Time value={tenant.createdAt} />
          </dd>
        </dl>
      </section>

      <section className="panel">
        <PanelHead title="Groups" count={groups.data?.length}>
          <Button className="btn-small" variant="primary" onClick={() => setEditing('new')}>
            New group
          </Button>
        </PanelHead>
        <ProblemBanner error={groups.error} />
        <ListState rows={groups.data} loading={groups.loading} empty={<EmptyState title="No groups">Groups let you share content with many embed users at once.</EmptyState>}>
          {(rows) => (
            <DataTable
              label="Embed groups"
              rows={rows}
              rowKey={(g) => g.id}
              columns={[
                { header: 'Name', className: 'wrap-cell', cell: (g) => <NameAndDescription name={g.name} description={g.description} /> },
                { header: 'Members', className: 'num', cell: (g) => g.userCount },
                { header: 'Updated', priority: 1, cell: (g) => <Time value={g.updatedAt} /> },
              ]}
              actions={[
                { label: 'Members', ariaLabel: (g) => `Members of ${g.name}`, onClick: setMembers },
                { label: 'Edit', ariaLabel: (g) => `Rename ${g.name}`, onClick: setEditing },
                { label: 'Delete', ariaLabel: (g) => `Delete ${g.name}`, onClick: setDeleting, danger: true },
              ]}
            />
          )}
        </ListState>
      </section>

      <section className="panel">
        <PanelHead title="Users" count={users.data?.length} />
        <ProblemBanner error={users.error} />
        <ListState rows={users.data} loading={users.loading} empty={<EmptyState title="No embed users" />}>
          {(rows) => (
            <DataTable
              label="Embed users"
              rows={rows}
              rowKey={(u) => u.id}
              columns={[
                { header: 'External id', cell: (u) => <code>{u.externalId}</code> },
                {
                  header: 'Name',
                  cell: (u) => (
                    <>
                      {u.name ?? <span className="muted">—</span>}
                      {u.email && <div className="muted small">{u.email}</div>}
                    </>
                  ),
                },
                {
                  header: 'Groups',
                  className: 'wrap-cell',
                  cell: (u) => <span className="badges">{u.groups.length === 0 ? <span className="muted">—</span> : u.groups.map((g) => <Badge key={g}>{g}</Badge>)}</span>,
                },
                { header: 'Last session', priority: 1, cell: (u) => <Time value={u.lastSessionAt} /> },
              ]}
            />
          )}
        </ListState>
      </section>

      <EmbedGroupDialog tenantName={name} group={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} onSaved={refresh} />
      <GroupMembersDialog tenantName={name} group={members} tenantUsers={users.data ?? []} onClose={() => setMembers(null)} onChanged={refresh} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete group “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete group"
        action="Deleting the embed group"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.call(deleteEmbedGroup, { params: { embedTenantName: name, id: deleting.id } });
          refresh();
        }}
      >
        <p>Its {plural(deleting?.userCount ?? 0, 'member')} stay in the tenant; content shared with the group is no longer shared with them.</p>
      </ConfirmDialog>
    </div>
  );
}

function EmbedGroupDialog({ tenantName, group, open, onClose, onSaved }: { tenantName: string; group: EmbedGroup | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, setError, run } = useAction(group ? `Saving group ${group.name}` : 'Creating the embed group');
  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setDescription(group?.description ?? '');
    setError(null);
  }, [open, group, setError]);
  const submit = async () => {
    const body = { name: name.trim(), description: blankToNull(description) };
    const saved = await run(() =>
      group ? api.call(updateEmbedGroup, { params: { embedTenantName: tenantName, id: group.id }, body }) : api.call(createEmbedGroup, { params: { embedTenantName: tenantName }, body }),
    );
    if (saved) {
      onSaved();
      onClose();
    }
  };
  return (
    <FormDialog
      title={group ? `Edit group ${group.name}` : `New group in ${tenantName}`}
      open={open}
      onClose={onClose}
      formId="embed-group-form"
      formLabel="Embed group"
      submitLabel={group ? 'Save group' : 'Create group'}
      busy={busy}
      onSubmit={submit}
      error={error}
    >
      <NameDescriptionFields idPrefix="embed-group" name={name} onName={setName} description={description} onDescription={setDescription} error={error} setError={setError} />
    </FormDialog>
  );
}

function GroupMembersDialog({
  tenantName,
  group,
  tenantUsers,
  onClose,
  onChanged,
}: {
  tenantName: string;
  group: EmbedGroup | null;
  tenantUsers: { id: number; externalId: string; name: string | null; email: string | null }[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const [generation, setGeneration] = useState(0);
  const members = useQuery(
    (signal) =>
      group
        ? fetchAllPages((after) => api.call(listEmbedGroupUsers, { params: { embedTenantName: tenantName, id: group.id }, query: { first: 500, ...(after ? { after } : {}) }, signal }))
        : Promise.resolve([]),
    [tenantName, group?.id, generation],
    'Loading group members',
  );
  const [adding, setAdding] = useState<Set<number>>(new Set());
  const { busy, error, setError, run } = useAction('Adding members');
  useEffect(() => {
    setAdding(new Set());
    setError(null);
  }, [group, setError]);
  const memberIds = useMemo(() => new Set((members.data ?? []).map((m) => m.id)), [members.data]);
  const candidates = tenantUsers.filter((u) => !memberIds.has(u.id)).map((u) => ({ id: u.id, label: u.externalId, detail: u.name ?? u.email ?? undefined }));

  const add = async () => {
    if (!group) return;
    const result = await run(() => api.call(addEmbedGroupUsers, { params: { embedTenantName: tenantName, id: group.id }, body: { userIds: [...adding] } }));
    if (result) {
      setAdding(new Set());
      setGeneration((g) => g + 1);
      onChanged();
    }
  };

  return (
    <Dialog
      title={`Members of ${group?.name ?? ''}`}
      open={group !== null}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button variant="primary" busy={busy} disabled={adding.size === 0} onClick={() => void add()}>
            Add {adding.size || ''} to group
          </Button>
        </>
      }
    >
      <ProblemBanner error={error} />
      <ProblemBanner error={members.error} />
      <h3 className="subhead">Members</h3>
      {!members.data ? (
        <Spinner />
      ) : members.data.length === 0 ? (
        <p className="muted">No members yet.</p>
      ) : (
        <ul className="compact-list">
          {members.data.map((m) => (
            <li key={m.id}>
              <code>{m.externalId}</code> {m.name && <span className="muted">{m.name}</span>}
            </li>
          ))}
        </ul>
      )}
      <Checklist label="Add tenant users" idPrefix="embed-add" items={candidates} selected={adding} onChange={setAdding} error={errorFor(error, 'userIds')} empty="Every user of the tenant is already a member." />
    </Dialog>
  );
}
