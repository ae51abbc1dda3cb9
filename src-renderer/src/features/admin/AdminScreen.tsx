import { getHealth } from '../../../../src-shared/api/system';
import type { ScreenProps } from '../../app/screen-props';
import { api, useSession } from '../../app/session';
import { RouteTabs } from '../../lib/tabs';
import { Badge, ProblemBanner } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { ApiKeysTab } from './ApiKeysTab';
import { EmbedTab } from './EmbedTab';
import { GroupsTab } from './GroupsTab';
import { OAuthTab } from './OAuthTab';
import { TenantTab } from './TenantTab';
import { ThemeTab } from './ThemeTab';
import { UsersTab } from './UsersTab';
import './admin.css';

const TABS = [
  { id: 'users', title: 'Users', path: '' },
  { id: 'api-keys', title: 'API keys', path: '/api-keys' },
  { id: 'groups', title: 'Groups & policies', path: '/groups' },
  { id: 'tenant', title: 'Tenant settings', path: '/tenant' },
  { id: 'theme', title: 'App theme', path: '/theme' },
  { id: 'embed', title: 'Embed tenants', path: '/embed' },
  { id: 'oauth', title: 'OAuth', path: '/oauth' },
] as const;

/** `/admin[/tab]`: users, keys, access, tenant-wide settings. Every call needs the admin role. */
export default function AdminScreen({ subpath }: ScreenProps) {
  const user = useSession((s) => s.user);
  const health = useQuery((signal) => api.call(getHealth, { signal }), [], 'Loading service health');
  const tab = TABS.find((t) => t.id === subpath[0]) ?? TABS[0];
  const unknownTab = subpath[0] !== undefined && !TABS.some((t) => t.id === subpath[0]);

  return (
    <section className="page admin">
      <header className="page-head">
        <h1>Admin</h1>
        <div className="head-facts">
          {health.data ? (
            <Badge tone={health.data.status === 'ok' ? 'good' : 'warn'}>
              service {health.data.status} · v{health.data.version}
            </Badge>
          ) : health.error ? (
            <Badge tone="bad">service unreachable</Badge>
          ) : null}
          {user && (
            <span className="muted small">
              Signed in as <strong>{user.email}</strong> ({user.role}, via {user.via})
            </span>
          )}
        </div>
      </header>
      {user && user.role !== 'admin' && (
        <div className="notice notice-block">You are signed in as a {user.role}. The service answers these pages for admins only; expect “Forbidden” below.</div>
      )}
      <RouteTabs base="/admin" tabs={TABS} current={tab.id} label="Admin sections" />
      {unknownTab && <ProblemBanner error={{ title: 'Not found', detail: `There is no admin section “${subpath[0]}”; showing Users.`, code: null, status: null, fields: [] }} />}
      <div role="tabpanel" aria-label={tab.title}>
        {tab.id === 'users' && <UsersTab />}
        {tab.id === 'api-keys' && <ApiKeysTab />}
        {tab.id === 'groups' && <GroupsTab />}
        {tab.id === 'tenant' && <TenantTab />}
        {tab.id === 'theme' && <ThemeTab />}
        {tab.id === 'embed' && <EmbedTab />}
        {tab.id === 'oauth' && <OAuthTab />}
      </div>
    </section>
  );
}
