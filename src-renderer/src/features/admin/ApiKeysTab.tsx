import { useEffect, useState } from 'react';
import { createApiKey, deleteApiKey, listApiKeys, type User } from '../../../../src-shared/api/identity';
import type { ResponseOf } from '../../../../src-shared/api/contract';
import { api, useSession } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { CursorPager, DataTable, ListState } from '../../lib/DataTable';
import { errorFor, withoutField } from '../../lib/errors';
import { OneTimeSecret } from '../../lib/secret';
import { Button, Dialog, EmptyState, Field, Notice, ProblemBanner, Time } from '../../lib/ui';
import { FormDialog } from '../../lib/FormDialog';
import { useAction } from '../../lib/useAction';
import { useCursorPages } from '../../lib/useCursorPages';
import { byId, useAllUsers } from './data';

type ApiKey = ResponseOf<typeof listApiKeys>['items'][number];
type CreatedKey = ResponseOf<typeof createApiKey>;

export function ApiKeysTab() {
  const keys = useCursorPages((after, signal) => api.call(listApiKeys, { query: { first: 50, ...(after ? { after } : {}) }, signal }), [], 'Loading API keys');
  const users = useAllUsers();
  const usersById = byId(users.data);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <section aria-label="API keys">
      <div className="toolbar">
        <span className="muted toolbar-note">
          Keys authenticate scripts and CI as <code>Authorization: Api-Key …</code>. Only a SHA-256 hash is stored; the key is shown once, when it is created.
        </span>
        <Button onClick={keys.reload} busy={keys.loading && keys.items !== null}>
          Refresh
        </Button>
        <Button variant="primary" onClick={() => setCreating(true)}>
          New API key
        </Button>
      </div>
      <Notice text={notice} />
      <ProblemBanner error={keys.error} />
      <ProblemBanner error={users.error} />
      <ListState rows={keys.items} loading={keys.loading} loadingLabel="Loading API keys…" empty={!keys.hasPrevious && <EmptyState title="No API keys">Create one for a script or a CI job.</EmptyState>}>
        {(rows) => (
          <DataTable
            label="API keys"
            rows={rows}
            rowKey={(k) => k.id}
            columns={[
              { header: 'Name', cell: (k) => k.name, cellClassName: 'strong' },
              { header: 'Key', cell: (k) => <code className="key-prefix">{k.prefix}…</code> },
              { header: 'Owner', cell: (k) => usersById.get(k.userId)?.email ?? <span className="muted">user {k.userId}</span> },
              { header: 'Created', priority: 2, cell: (k) => <Time value={k.createdAt} /> },
              { header: 'Last used', priority: 1, cell: (k) => (k.lastUsedAt ? <Time value={k.lastUsedAt} /> : <span className="muted">never</span>) },
            ]}
            actions={[{ label: 'Revoke', ariaLabel: (k) => `Revoke ${k.name}`, onClick: setRevoking, danger: true }]}
          />
        )}
      </ListState>
      {(keys.hasNext || keys.hasPrevious) && <CursorPager pages={keys} />}
      <CreateKeyDialog
        open={creating}
        users={users.data ?? []}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setNotice(`API key “${key.name}” created.`);
          keys.reload();
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        action="Revoking the key"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await api.call(deleteApiKey, { params: { id: revoking.id } });
          setNotice(`API key “${revoking.name}” revoked; it no longer authenticates.`);
          keys.reload();
        }}
      >
        <p>
          Anything using the key <code>{revoking?.prefix}…</code> stops authenticating at once. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** Two steps in one dialog: name and owner, then the key itself, shown this once. */
function CreateKeyDialog({ open, users, onClose, onCreated }: { open: boolean; users: User[]; onClose: () => void; onCreated: (key: CreatedKey) => void }) {
  const me = useSession((s) => s.user);
  const [name, setName] = useState('');
  const [owner, setOwner] = useState<number | ''>('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const { busy, error, setError, run } = useAction('Creating the API key');

  useEffect(() => {
    if (!open) {
      // Forget the key the moment the dialog closes: it must not linger in the page.
      setCreated(null);
      return;
    }
    setName('');
    setOwner(me?.id ?? '');
    setError(null);
  }, [open, me, setError]);

  const submit = async () => {
    const key = await run(() => api.call(createApiKey, { body: { name: name.trim(), ...(owner !== '' ? { userId: owner } : {}) } }));
    if (key) {
      setCreated(key);
      onCreated(key);
    }
  };

  if (created) {
    return (
      <Dialog
        title={`API key “${created.name}”`}
        open={open}
        onClose={onClose}
        footer={
          <Button variant="primary" onClick={onClose}>
            I have copied it
          </Button>
        }
      >
        <OneTimeSecret id="new-api-key" label="API key" value={created.token}>
          Drydock keeps only a SHA-256 hash of it; from now on the list shows just its prefix <code>{created.prefix}…</code>. If it is lost, revoke it and create another.
        </OneTimeSecret>
        <p className="muted reveal-usage">
          Use it as <code>Authorization: Api-Key {created.prefix}…</code>. It acts as {users.find((u) => u.id === created.userId)?.email ?? `user ${created.userId}`}.
        </p>
      </Dialog>
    );
  }

  return (
    <FormDialog
      title="New API key"
      open={open}
      onClose={onClose}
      formId="api-key-form"
      formLabel="New API key"
      submitLabel="Create key"
      busy={busy}
      onSubmit={submit}
      error={error}
    >
      <Field label="Name" htmlFor="key-name" error={errorFor(error, 'name')} hint="What uses it, e.g. “nightly CI”.">
        <input
          id="key-name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(withoutField(error, 'name'));
          }}
          maxLength={255}
          autoFocus
          autoComplete="off"
        />
      </Field>
      <Field label="Owner" htmlFor="key-owner" error={errorFor(error, 'userId')} hint="The key acts with this user’s role and policies.">
        <select id="key-owner" value={owner} onChange={(e) => setOwner(e.target.value === '' ? '' : Number(e.target.value))}>
          {me === null && <option value="">The calling credential’s user</option>}
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} — {u.email} ({u.role}){u.active ? '' : ', inactive'}
            </option>
          ))}
        </select>
      </Field>
    </FormDialog>
  );
}
