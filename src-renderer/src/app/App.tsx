import { Component, Suspense, useEffect, useState, type ErrorInfo, type MouseEvent, type ReactNode } from 'react';
import { Icon } from './icons';
import { navigate, subpathOf, useRouter } from './router';
import { HOME_PATH, screenFor, screens, type Screen } from './screens';
import { useSession } from './session';
import { SignIn } from './SignIn';
import { missingOperations } from './capabilities';
import { useProfile } from './profile';
import { startLiveEvents } from './live';
import { NotServed, ProfileSwitcher } from './ProfileSwitcher';
import { NAV_RAIL_KEY, useNavRail, useNavRailFor } from './navRail';
import { ProblemBanner, Spinner } from '../lib/ui';
import { toShownError, type ShownError } from '../lib/errors';
import { GuidedTour, useTourUserKey } from '../features/tour/GuidedTour';
import { useTour } from '../features/tour/tour';

export function App() {
  const status = useSession((s) => s.status);
  const start = useSession((s) => s.start);
  const [startError, setStartError] = useState<ShownError | null>(null);

  useEffect(() => {
    start().catch((error: unknown) => setStartError(toShownError(error, 'Connecting to the service')));
  }, [start]);

  if (startError) {
    return (
      <main className="signin">
        <div className="signin-card">
          <ProblemBanner error={startError} />
          <button type="button" className="btn btn-default" onClick={() => window.location.reload()}>
            Retry
          </button>
        </div>
      </main>
    );
  }
  if (status === 'starting') return <Spinner label="Connecting to Drydock…" />;
  if (status === 'signed-out') return <SignIn />;
  return <Shell />;
}

function Shell() {
  const path = useRouter((s) => s.path);
  const screen = screenFor(path);

  useEffect(() => {
    if (path === '/' || !screen) navigate(HOME_PATH, { replace: true });
  }, [path, screen]);

  useEffect(() => {
    document.title = screen ? `${screen.title} · Drydock` : 'Drydock';
  }, [screen]);

  // One live-events stream while signed in: screens refresh from it without a reload.
  useEffect(() => startLiveEvents(), []);

  const active = useProfile((s) => s.active);
  const check = useProfile((s) => s.check);
  const missing = screen && !screen.localOnly ? missingOperations(screen.requires ?? [], check) : [];
  // A workbench screen that is served shows the service in its own context bar.
  const workbench = screen?.workbench === true && missing.length === 0;
  const rail = useNavRailFor();

  return (
    <div className={rail ? 'shell shell-rail' : 'shell'}>
      <Sidebar current={screen} />
      <div className="main">
        {!workbench && <ProfileSwitcher />}
        <main className={workbench ? 'content content-workbench' : 'content'} aria-label={screen?.title}>
          {screen &&
            (missing.length > 0 ? (
              <NotServed screen={screen.title} missing={missing} />
            ) : (
              // Keyed by the service too: switching profiles remounts the screen, which fetches anew.
              <ScreenBoundary key={`${screen.id}@${screen.localOnly ? 'local' : active}`}>
                <Suspense fallback={<Spinner />}>
                  <screen.component subpath={subpathOf(path, screen.path) ?? []} />
                </Suspense>
              </ScreenBoundary>
            ))}
        </main>
      </div>
      <GuidedTour />
    </div>
  );
}

function Sidebar({ current }: { current: Screen | undefined }) {
  const sections = [...new Set(screens.map((s) => s.section))];
  const user = useSession((s) => s.user);
  const mode = useSession((s) => s.mode);
  const signOut = useSession((s) => s.signOut);
  const check = useProfile((s) => s.check);
  const active = useProfile((s) => s.active);
  const rail = useNavRail((s) => s.rail);
  const go = (event: MouseEvent, to: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <Icon name="logo" size={20} />
        <span className="nav-label">Drydock</span>
        <RailToggle />
      </div>
      {sections.map((section) => (
        <div className="nav-section" key={section}>
          <div className="nav-section-title">{section}</div>
          {screens
            .filter((s) => s.section === section)
            .map((s) => {
              const missing = s.localOnly ? [] : missingOperations(s.requires ?? [], check);
              const reason = missing.length > 0 ? `Not served by ${active}: it lacks ${missing.join(', ')}` : undefined;
              return (
                <a
                  key={s.id}
                  href={s.path}
                  className={`nav-item ${current?.id === s.id ? 'active' : ''} ${reason ? 'nav-item-disabled' : ''}`}
                  aria-current={current?.id === s.id ? 'page' : undefined}
                  aria-disabled={reason ? true : undefined}
                  title={reason ?? (rail ? s.title : undefined)}
                  data-tour={`nav-${s.id}`}
                  onClick={(e) => go(e, s.path)}
                >
                  <Icon name={s.icon} />
                  <span className="nav-label">{s.title}</span>
                </a>
              );
            })}
        </div>
      ))}
      <HelpButton />
      <div className="sidebar-foot">
        {user ? (
          <div className="who" title={user.email}>
            <div className="who-name">{user.name}</div>
            <div className="who-meta">{user.role}</div>
          </div>
        ) : (
          <div className="who-meta">{mode === 'desktop' ? 'Desktop session' : 'Signed in'}</div>
        )}
        {mode === 'browser' && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => signOut()}>
            Sign out
          </button>
        )}
      </div>
    </nav>
  );
}

/** Narrows the navigation to its icons (and back). */
function RailToggle() {
  const rail = useNavRail((s) => s.rail);
  const toggle = useNavRail((s) => s.toggle);
  const title = `${rail ? 'Show the navigation’s labels' : 'Collapse the navigation to icons'} (${NAV_RAIL_KEY})`;
  return (
    <button type="button" className="nav-rail-toggle" aria-pressed={rail} title={title} onClick={toggle}>
      <span aria-hidden="true">{rail ? '»' : '«'}</span>
      <span className="sr-only">Collapse the navigation</span>
    </button>
  );
}

/** Help: (re)opens the guided tour, on Models where its first steps point. */
function HelpButton() {
  const start = useTour((s) => s.start);
  const userKey = useTourUserKey();
  if (!userKey) return null;
  return (
    <button
      type="button"
      className="nav-item nav-help"
      aria-label="Help: take the guided tour"
      title="A short tour of edit, validate, push and publish, promote"
      onClick={() => {
        if (!window.location.pathname.startsWith('/models')) navigate('/models');
        start();
      }}
    >
      <span className="nav-help-mark" aria-hidden="true">
        ?
      </span>
      <span className="nav-label">Guided tour</span>
    </button>
  );
}

/** A screen that throws shows its error in place; the rest of the app keeps working. */
class ScreenBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Screen failed', error, info.componentStack);
  }
  override render() {
    if (this.state.error) return <ProblemBanner error={toShownError(this.state.error, 'This screen')} onDismiss={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
