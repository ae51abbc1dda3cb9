import { useState } from 'react';
import { bulkUsers, deleteUser, listUsers, updateUser, type User } from '../../../../src-shared/api/identity';
import { api, useSession } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { CursorPager, DataTable, ListState } from '../../lib/DataTable';
import { Badge, Button, EmptyState, Notice, ProblemBanner, Time } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { useCursorPages } from '../../lib/useCursorPages';
import { useDebounced } from '../../lib/useDebounced';
import { BULK_VERBS, bulkReport, type BulkAction, type BulkReport } from './bulk';
import { UserDialog } from './UserDialog';
import { noun, plural } from '../../lib/plural';

const PAGE_SIZES = [25, 50, 100];

export function UsersTab() {
  const me = useSession((s) => s.user);
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 250);
  const [pageSize, setPageSize] = useState(50);
  const pages = useCursorPages(
    (after, signal) => api.call(listUsers, { query: { first: pageSize, ...(after ? { after } : {}), ...(query ? { search: query } : {}) }, signal }),
    [query, pageSize],
    'Loading users',
  );
  // Selected users by id; kept across pages and searches so a bulk action can span them.
  const [selected, setSelected] = useState<Map<number, User>>(new Map());
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [report, setReport] = useState<BulkReport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<User[] | null>(null);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const row = useAction('Updating the user');
  const bulk = useAction('Bulk update');

  const items = pages.items ?? [];
  const allOnPage = items.length > 0 && items.every((u) => selected.has(u.id));
  const toggle = (user: User, on: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      if (on) next.set(user.id, user);
      else next.delete(user.id);
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      for (const u of items) {
        if (on) next.set(u.id, u);
        else next.delete(u.id);
      }
      return next;
    });

  const applyBulk = async (action: BulkAction, users: User[]) => {
    setNotice(null);
    const result = await bulk.run(() => api.call(bulkUsers, { body: { action, userIds: users.map((u) => u.id) } }), `${BULK_VERBS[action].verb} users`);
    if (!result) return;
    const known = new Map(users.map((u) => [u.id, u]));
    setReport(bulkReport(action, result, known));
    // Failed users stay selected, so the same action can be retried after fixing the cause.
    setSelected((s) => new Map([...s].filter(([id]) => result.failed.some((f) => f.userId === id))));
    pages.reload();
  };

  const activate = async (user: User) => {
    setReport(null);
    const saved = await row.run(() => api.call(updateUser, { params: { id: user.id }, body: { active: true } }), `Activating ${user.email}`);
    if (saved) {
      setNotice(`${saved.email} activated.`);
      pages.reload();
    }
  };

  const chosen = [...selected.values()];
  return (
    <section aria-label="Users">
      <div className="toolbar">
        <input type="search" aria-label="Search users" placeholder="Search name or email" value={search} onChange={(e) => setSearch(e.target.value)} />
        <Button onClick={pages.reload} busy={pages.loading && pages.items !== null}>
          Refresh
        </Button>
        <span className="grow" />
        <Button variant="primary" onClick={() => setEditing('new')}>
          New user
        </Button>
      </div>

      {chosen.length > 0 && (
        <div className="selection-bar" role="region" aria-label="Selected users">
          <strong>{chosen.length} selected</strong>
          <Button className="btn-small" busy={bulk.busy} onClick={() => void applyBulk('ACTIVATE', chosen)}>
            Activate
          </Button>
          <Button className="btn-small" busy={bulk.busy} onClick={() => void applyBulk('DEACTIVATE', chosen)}>
            Deactivate
          </Button>
          <Button className="btn-small" variant="danger" disabled={bulk.busy} onClick={() => setDeleting(chosen)}>
            Delete…
          </Button>
          <button type="button" className="link" onClick={() => setSelected(new Map())}>
            Clear selection
          </button>
        </div>
      )}

      <ProblemBanner error={bulk.error} onDismiss={() => bulk.setError(null)} />
      <ProblemBanner error={row.error} onDismiss={() => row.setError(null)} />
      {report && <BulkReportPanel report={report} onDismiss={() => setReport(null)} />}
      <Notice text={notice} />
      <ProblemBanner error={pages.error} />

      <ListState
        rows={pages.items}
        loading={pages.loading}
        loadingLabel="Loading users…"
        empty={<EmptyState title={query ? `No user matches “${query}”` : 'No users'}>{query ? 'Try part of a name or an email address.' : null}</EmptyState>}
      >
        {(rows) => (
          <DataTable
            label="Users"
            className="table-hover"
            rows={rows}
            rowKey={(u) => u.id}
            rowClassName={(u) => (selected.has(u.id) ? 'selected' : undefined)}
            columns={[
              {
                header: <input type="checkbox" aria-label="Select every user on this page" checked={allOnPage} onChange={(e) => togglePage(e.target.checked)} />,
                className: 'check-col',
                cell: (u) => <input type="checkbox" aria-label={`Select ${u.email}`} checked={selected.has(u.id)} onChange={(e) => toggle(u, e.target.checked)} />,
              },
              {
                header: 'Name',
                cellClassName: 'strong',
                cell: (u) => (
                  <>
                    {u.name}
                    {me?.id === u.id && <span className="muted"> (you)</span>}
                  </>
                ),
              },
              { header: 'Email', cell: (u) => u.email },
              { header: 'Role', priority: 1, cell: (u) => <Badge tone={u.role === 'admin' ? 'info' : 'neutral'}>{u.role}</Badge> },
              { header: 'Policy overrides', priority: 2, className: 'wrap-cell', cell: (u) => <PolicyOverrides policies={u.userPolicies} /> },
              { header: 'Status', cell: (u) => (u.active ? <Badge tone="good">active</Badge> : <Badge tone="warn">inactive</Badge>) },
              { header: 'Created', priority: 3, cell: (u) => <Time value={u.createdAt} /> },
            ]}
            actions={[
              { label: 'Edit', ariaLabel: (u) => `Edit ${u.email}`, onClick: setEditing },
              {
                label: (u) => (u.active ? 'Deactivate' : 'Activate'),
                ariaLabel: (u) => `${u.active ? 'Deactivate' : 'Activate'} ${u.email}`,
                // Deactivating signs a user out of everything: asked first. Activating is harmless.
                onClick: (u) => (u.active ? setDeactivating(u) : void activate(u)),
                unavailable: (u) => (me?.id === u.id && u.active ? 'You cannot deactivate your own account: another admin can.' : null),
              },
              {
                label: 'Delete',
                ariaLabel: (u) => `Delete ${u.email}`,
                onClick: (u) => setDeleting([u]),
                danger: true,
                unavailable: (u) => (me?.id === u.id ? 'You cannot delete your own account: another admin can.' : null),
              },
            ]}
          />
        )}
      </ListState>

      {pages.items !== null && (pages.hasNext || pages.hasPrevious || items.length > 0) && (
        <CursorPager pages={pages} label="Pages">
          <label className="pager-size">
            Per page{' '}
            <select value={pageSize} onChange={(e) => setPageSize(Number(e.target.value))} aria-label="Users per page">
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </CursorPager>
      )}

      <UserDialog
        open={editing !== null}
        user={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={(user, verb) => {
          setEditing(null);
          setReport(null);
          setNotice(`${user.email} ${verb}.`);
          pages.reload();
        }}
      />
      <ConfirmDialog
        open={deactivating !== null}
        title={`Deactivate ${deactivating?.email ?? ''}?`}
        confirmLabel="Deactivate"
        action="Deactivating"
        onClose={() => setDeactivating(null)}
        onConfirm={async () => {
          if (!deactivating) return;
          const saved = await api.call(updateUser, { params: { id: deactivating.id }, body: { active: false } });
          setReport(null);
          setNotice(`${saved.email} deactivated.`);
          pages.reload();
        }}
      >
        <p>They are signed out and can no longer sign in or use their API keys until an admin activates them again. Their history and ownership stay.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting && deleting.length === 1 ? `Delete ${deleting[0].email}?` : `Delete ${plural(deleting?.length ?? 0, 'user')}?`}
        confirmLabel="Delete"
        action="Deleting"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          if (deleting.length === 1) {
            await api.call(deleteUser, { params: { id: deleting[0].id } });
            setReport(null);
            setNotice(`${deleting[0].email} deleted.`);
            setSelected((s) => {
              const next = new Map(s);
              next.delete(deleting[0].id);
              return next;
            });
            pages.reload();
          } else {
            await applyBulk('DELETE', deleting);
          }
        }}
      >
        <p>
          Deleting removes the {noun(deleting?.length ?? 1, 'user')}, their API keys and their sessions. This cannot be undone; deactivate instead to keep their
          history.
        </p>
        {deleting && deleting.length > 1 && (
          <ul className="compact-list">
            {deleting.slice(0, 10).map((u) => (
              <li key={u.id}>{u.email}</li>
            ))}
            {deleting.length > 10 && <li className="muted">and {deleting.length - 10} more</li>}
          </ul>
        )}
      </ConfirmDialog>
    </section>
  );
}

function BulkReportPanel({ report, onDismiss }: { report: BulkReport; onDismiss: () => void }) {
  const tone = report.failed.length === 0 ? 'good' : report.succeeded.length === 0 ? 'bad' : 'warn';
  return (
    <div className={`report report-${tone}`} role={report.failed.length ? 'alert' : 'status'} aria-label="Bulk result">
      <div className="report-head">
        <strong>{report.summary}</strong>
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      </div>
      {report.failed.length > 0 && (
        <DataTable
          label="Failed users"
          className="report-table"
          rows={report.failed}
          rowKey={(f) => f.userId}
          columns={[
            { header: 'User', cell: (f) => f.label },
            { header: 'Code', cell: (f) => <code>{f.code}</code> },
            { header: 'Why', className: 'wrap-cell', cell: (f) => f.detail },
          ]}
        />
      )}
    </div>
  );
}

/** A user's own grants (+) and denials (−) on top of their role. */
function PolicyOverrides({ policies }: { policies: readonly string[] }) {
  if (policies.length === 0) return <span className="muted">—</span>;
  return (
    <span className="badges">
      {policies.map((p) => (
        <Badge key={p} tone={p.startsWith('-') ? 'bad' : 'good'}>
          {p.startsWith('-') ? `− ${p.slice(1)}` : `+ ${p}`}
        </Badge>
      ))}
    </span>
  );
}
