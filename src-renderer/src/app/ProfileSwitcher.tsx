import { useEffect, type MouseEvent } from 'react';
import { showToast } from '../lib/toast';
import { LOCAL_PROFILE } from '../../../src-shared/api/profiles';
import { Badge, Button, EmptyState, ProblemBanner } from '../lib/ui';
import { leaveWarnings } from './endpoint';
import { useProfile } from './profile';
import { navigate } from './router';
import './topbar.css';

/** The inline picker's last entry: opens the Profiles screen instead of switching. */
const MANAGE = '\u0000manage';

/**
 * The app header: which service every screen talks to. The local service is the default; a remote
 * profile is reached through the local service's proxy (its credential never comes to the page).
 * `inline` is the compact form a workbench screen puts in its own context bar (issue 24): the picker
 * and whether it is remote, its failures as toasts.
 */
export function ProfileSwitcher({ variant = 'bar' }: { variant?: 'bar' | 'inline' }) {
  const { active, profiles, loaded, connecting, check, remoteUser, error, load, select, dismissError } = useProfile();

  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);

  useEffect(() => {
    if (variant !== 'inline' || !error) return;
    showToast({ title: error.title, body: error.detail || undefined, tone: 'bad', timeoutMs: 0, details: { code: error.code, message: error.technical?.detail ?? '' } });
    dismissError();
  }, [variant, error, dismissError]);

  const current = profiles.find((p) => p.name === active);
  const change = (name: string) => {
    const warnings = leaveWarnings();
    if (warnings.length > 0 && !window.confirm(`Switch to ${name === LOCAL_PROFILE ? 'the local service' : name}? ${warnings.join(' ')}`)) return;
    void select(name);
  };
  const manage = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate('/profiles');
  };

  if (variant === 'inline') {
    return (
      <span className={`service-inline ${active !== LOCAL_PROFILE ? 'service-remote' : ''}`} title={current ? `${current.name} — ${current.baseUrl}` : 'The local service on this computer'}>
        <select
          aria-label="Service profile"
          value={connecting ?? active}
          onChange={(e) => (e.target.value === MANAGE ? navigate('/profiles') : change(e.target.value))}
          onFocus={() => void load()}
          disabled={connecting !== null}
        >
          <option value={LOCAL_PROFILE}>Local</option>
          {profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
          <option value={MANAGE}>Profiles…</option>
        </select>
        {connecting !== null ? (
          <span className="spinner" role="status" aria-label={`Connecting to ${connecting}`} />
        ) : (
          active !== LOCAL_PROFILE && (
            <span role="status" aria-label="Connected profile" className="service-inline-remote">
              <Badge tone="info">remote</Badge>
              <span className="sr-only">
                {current?.baseUrl}
                {check?.specVersion ? ` · API ${check.specVersion}` : ''}
                {remoteUser ? ` · as ${remoteUser}` : ''}
              </span>
            </span>
          )
        )}
      </span>
    );
  }

  return (
    <header className={`topbar ${active !== LOCAL_PROFILE ? 'topbar-remote' : ''}`} aria-label="Service">
      <label className="topbar-label" htmlFor="profile-switcher">
        Service
      </label>
      <select
        id="profile-switcher"
        aria-label="Service profile"
        value={connecting ?? active}
        onChange={(e) => change(e.target.value)}
        // Profiles may have been added elsewhere (the Profiles screen, `drydock login`): refresh on focus.
        onFocus={() => void load()}
        disabled={connecting !== null}
      >
        <option value={LOCAL_PROFILE}>This computer (local)</option>
        {profiles.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name} — {p.baseUrl}
          </option>
        ))}
      </select>
      {connecting !== null ? (
        <span className="muted topbar-status" role="status">
          <span className="spinner" aria-hidden="true" /> Connecting to {connecting}…
        </span>
      ) : active === LOCAL_PROFILE ? (
        <span className="muted topbar-status">Local service</span>
      ) : (
        <span className="topbar-status" role="status" aria-label="Connected profile">
          <Badge tone="info">remote</Badge> <span title={current?.baseUrl}>{current?.baseUrl}</span>
          {check?.specVersion && <span className="muted"> · API {check.specVersion}</span>}
          {remoteUser && <span className="muted"> · as {remoteUser}</span>}
        </span>
      )}
      <a href="/profiles" className="btn btn-ghost btn-small topbar-manage" onClick={manage}>
        Manage profiles
      </a>
      {error && (
        <div className="topbar-error">
          <ProblemBanner error={error} onDismiss={dismissError} />
        </div>
      )}
    </header>
  );
}

/** In place of a screen whose operations the active remote does not serve. */
export function NotServed({ screen, missing }: { screen: string; missing: string[] }) {
  const { active, check, select } = useProfile();
  return (
    <section className="page" aria-label={`${screen} not available`}>
      <EmptyState title={`${screen} is not available on ${active}`}>
        <p>
          The service of profile <strong>{active}</strong>
          {check?.specVersion ? ` (interface version ${check.specVersion})` : ''} does not serve {missing.length === 1 ? 'the operation' : 'the operations'}{' '}
          {missing.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <code>{id}</code>
            </span>
          ))}
          , which this screen needs.
        </p>
        <Button onClick={() => void select(LOCAL_PROFILE)}>Switch to the local service</Button>
      </EmptyState>
    </section>
  );
}
