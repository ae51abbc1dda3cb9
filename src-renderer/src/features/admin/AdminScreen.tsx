import { getHealth } from '../../../../src-shared/api/system';
import { listApiKeys, listUsers } from '../../../../src-shared/api/identity';
import { api, useSession } from '../../app/session';
import { Badge, EmptyState, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';

export default function AdminScreen() {
  const user = useSession((s) => s.user);
  const mode = useSession((s) => s.mode);
  const health = useQuery((signal) => api.call(getHealth, { signal }), [], 'Loading service health');
  const users = useQuery((signal) => api.call(listUsers, { query: { first: 100 }, signal }), [], 'Loading users');
  const keys = useQuery((signal) => api.call(listApiKeys, { query: { first: 100 }, signal }), [], 'Loading API keys');

  return (
    <section className="page">
      <header className="page-head">
        <h1>Admin</h1>
      </header>
      <div className="cards">
        <div className="card">
          <h2>Service</h2>
          <ProblemBanner error={health.error} />
          <dl className="facts">
            <dt>Status</dt>
            <dd>{health.data ? <Badge tone="good">{health.data.status}</Badge> : health.loading ? '…' : <Badge tone="bad">unknown</Badge>}</dd>
            <dt>Version</dt>
            <dd>{health.data?.version ?? '—'}</dd>
            <dt>Address</dt>
            <dd>
              <code>{window.location.origin}</code>
            </dd>
            <dt>Client</dt>
            <dd>{mode === 'desktop' ? 'Desktop app' : 'Browser'}</dd>
          </dl>
        </div>
        <div className="card">
          <h2>Signed in as</h2>
          {user ? (
            <dl className="facts">
              <dt>Name</dt>
              <dd>{user.name}</dd>
              <dt>Email</dt>
              <dd>{user.email}</dd>
              <dt>Role</dt>
              <dd>
                <Badge tone="info">{user.role}</Badge>
              </dd>
              <dt>Credential</dt>
              <dd>{user.via}</dd>
            </dl>
          ) : (
            <p className="muted">The service did not say who you are.</p>
          )}
        </div>
      </div>

      <h2 className="section-title">Users</h2>
      <ProblemBanner error={users.error} />
      {users.loading && !users.data ? (
        <Spinner />
      ) : users.data && users.data.items.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Policies</th>
              <th>Status</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {users.data.items.map((u) => (
              <tr key={u.id}>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{u.role}</td>
                <td>{u.userPolicies.length ? u.userPolicies.join(', ') : <span className="muted">—</span>}</td>
                <td>{u.active ? <Badge tone="good">active</Badge> : <Badge>inactive</Badge>}</td>
                <td>
                  <Time value={u.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        !users.error && <EmptyState title="No users" />
      )}

      <h2 className="section-title">API keys</h2>
      <ProblemBanner error={keys.error} />
      {keys.loading && !keys.data ? (
        <Spinner />
      ) : keys.data && keys.data.items.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Prefix</th>
              <th>Owner</th>
              <th>Created</th>
              <th>Last used</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.items.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{users.data?.items.find((u) => u.id === k.userId)?.email ?? `user ${k.userId}`}</td>
                <td>
                  <Time value={k.createdAt} />
                </td>
                <td>
                  <Time value={k.lastUsedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        !keys.error && <EmptyState title="No API keys" />
      )}
    </section>
  );
}
