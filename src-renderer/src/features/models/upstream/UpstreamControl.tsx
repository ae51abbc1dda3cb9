// The Models screen's view of the team's repository, in its context bar (issue 24): a button with how
// far the shown branch is ahead/behind its remote branch (as of the last fetch) that opens the details
// and Fetch / Pull / Push. A pull conflict opens the conflict view; a deployment without a connection
// offers to connect one.
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Branch } from '../../../../../src-shared/api/data-model';
import { fetchFromUpstream, getDeploymentGitConnection, pullFromUpstream, pushToUpstream, type FetchReport } from '../../../../../src-shared/api/git-host';
import { api } from '../../../app/session';
import { toShownError } from '../../../lib/errors';
import { Badge, Button, Spinner, Time } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { plural, verb } from '../../../lib/plural';
import { ModelsIcon } from '../icons';
import { useDismiss } from '../layout/useDismiss';
import { currentBranch, useModels } from '../store';
import { ConnectRepositoryDialog } from './ConnectRepositoryDialog';
import { RepositorySettingsDialog } from './RepositorySettingsDialog';
import { conflictOf, pushLine, type PullConflict } from './conflict';
import { FailureSummary } from '../../../lib/plain/FailureSummary';

const ConflictDialog = lazy(() => import('./ConflictDialog'));

/** The control lives in the one-line context bar; its dialogs are rendered outside it, so they inherit none of its styles. */
const Outside = ({ children }: { children: ReactNode }) => createPortal(children, document.body);

/** How often the bar asks whether the background fetch ran (a cheap read of the connection). */
const BACKGROUND_CHECK_MS = 30_000;

/** After a fetch the bar did not start: new branch heads and ahead/behind; the shown branch's files only if it moved. */
async function showFetched(): Promise<void> {
  const state = useModels.getState();
  const shown = currentBranch(state);
  const branches = await state.loadBranches();
  const now = branches.find((b) => b.branchName === shown?.branchName);
  if (shown && now && now.headCommit !== shown.headCommit) await useModels.getState().openBranch(shown.branchName);
}

function describeFetch(report: FetchReport): string {
  const moved = report.branches.filter((b) => b.outcome === 'fast-forward' || b.outcome === 'created');
  const waiting = report.branches.filter((b) => b.outcome === 'diverged' || b.outcome === 'behind');
  const parts = [moved.length ? `${plural(moved.length, 'branch', 'branches')} updated (${moved.map((b) => b.branchName).join(', ')})` : 'no branch moved'];
  if (waiting.length) parts.push(`${waiting.map((b) => b.branchName).join(', ')} ${verb(waiting.length, 'needs', 'need')} a pull`);
  return `Fetched: ${parts.join('; ')}.`;
}

function aheadBehindText(branch: Branch): string {
  if (branch.ahead === null || branch.behind === null) return 'not on the remote yet';
  if (branch.ahead === 0 && branch.behind === 0) return 'up to date';
  return [branch.ahead ? `${branch.ahead} to push` : '', branch.behind ? `${branch.behind} to pull` : ''].filter(Boolean).join(', ');
}

/** `↑1 ↓2` for the button: what the branch has to push and to pull; `✓` when even, `↑?` when not on the remote. */
function countsText(branch: Branch | undefined): string {
  if (!branch?.upstream) return '';
  if (branch.ahead === null || branch.behind === null) return '↑?';
  if (branch.ahead === 0 && branch.behind === 0) return '✓';
  return [branch.ahead ? `↑${branch.ahead}` : '', branch.behind ? `↓${branch.behind}` : ''].filter(Boolean).join(' ');
}

export function UpstreamControl({ deploymentId, branch }: { deploymentId: number; branch: Branch | undefined }) {
  const refresh = useModels((s) => s.refresh);
  const setNotice = useModels((s) => s.setNotice);
  const setError = useModels((s) => s.setError);
  const connection = useQuery((signal) => api.call(getDeploymentGitConnection, { params: { deploymentId }, signal }), [deploymentId], 'Loading the repository connection', (e) =>
    (e.type === 'upstream' || e.type === 'branch') && e.deploymentId === deploymentId);
  const [busy, setBusy] = useState<'fetch' | 'pull' | 'push' | null>(null);
  const [open, setOpen] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [settings, setSettings] = useState(false);
  const [conflict, setConflict] = useState<PullConflict | null>(null);
  const root = useRef<HTMLSpanElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  // The background fetch runs on the service: look for its outcome now and then, and when it fetched,
  // show the branches' new heads and ahead/behind (the shown branch's files too if it moved).
  const remoteId = connection.data?.connection?.deploymentId;
  const interval = connection.data?.connection?.fetchIntervalSeconds ?? 0;
  const reloadConnection = connection.reload;
  useEffect(() => {
    if (remoteId === undefined || interval === 0) return;
    const timer = window.setInterval(reloadConnection, BACKGROUND_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [remoteId, interval, reloadConnection]);
  const lastFetchAt = connection.data?.connection?.lastFetchAt;
  const seenFetch = useRef(lastFetchAt);
  useEffect(() => {
    const before = seenFetch.current;
    seenFetch.current = lastFetchAt;
    if (before === undefined || lastFetchAt === before || busy !== null) return;
    void showFetched();
  }, [lastFetchAt, busy]);

  if (!connection.data) return null;
  const { connected, connection: remote } = connection.data;

  if (!connected || !remote) {
    return (
      <span className="upstream" role="group" aria-label="Team repository">
        <button type="button" className="ctx-button" onClick={() => setConnecting(true)} title="Not connected to a team repository. Connect one to fetch, pull and push the model’s branches.">
          <ModelsIcon name="server" size={13} />
          <span className="ctx-long">Connect repository…</span>
          <span className="ctx-short" aria-hidden="true">
            Connect…
          </span>
        </button>
        {connecting && (
          <Outside>
            <ConnectRepositoryDialog
              open
              deploymentId={deploymentId}
              onClose={() => setConnecting(false)}
              onConnected={(message) => {
                setNotice(message);
                connection.reload();
                void refresh();
              }}
            />
          </Outside>
        )}
      </span>
    );
  }

  const run = async (kind: 'fetch' | 'pull' | 'push', action: () => Promise<string>) => {
    setBusy(kind);
    setError(null);
    try {
      setNotice(await action());
    } catch (failure) {
      const found = kind === 'pull' ? conflictOf(failure) : null;
      if (found) setConflict(found);
      else setError(toShownError(failure, { fetch: 'Fetch', pull: 'Pull', push: 'Push' }[kind]));
    } finally {
      setBusy(null);
      connection.reload();
      await refresh();
    }
  };

  const fetchNow = () => run('fetch', async () => describeFetch(await api.call(fetchFromUpstream, { params: { deploymentId }, body: {} })));
  const pull = (name: string) =>
    run('pull', async () => {
      const result = await api.call(pullFromUpstream, { params: { deploymentId }, body: { branchName: name } });
      if (result.outcome === 'up-to-date') return `${name} is up to date with ${result.upstream}.`;
      const pushed = result.push ? ` ${pushLine(result.push.status, result.upstream)}` : '';
      return `Pulled ${result.upstream} into ${name} (${result.outcome}, ${plural(result.changes.length, 'file')}).${pushed}`;
    });
  const push = (name: string) =>
    run('push', async () => {
      const result = await api.call(pushToUpstream, { params: { deploymentId }, body: { branchName: name } });
      return result.pushed ? `Pushed ${name} to ${result.upstream} (${result.commit.slice(0, 7)}).` : `${result.upstream} already has ${name}’s commits.`;
    });

  const tracking = branch?.upstream ?? null;
  const where = remote.url || remote.fullName;
  const counts = countsText(branch);
  const summary = branch ? (tracking ? `${branch.branchName} tracks ${tracking}: ${aheadBehindText(branch)}` : `${branch.branchName} is local only`) : '';
  return (
    <span className="upstream" role="group" aria-label="Team repository" ref={root}>
      <button
        type="button"
        className={`ctx-button upstream-trigger ${remote.lastFetchError ? 'upstream-failing' : ''}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        title={`Team repository ${remote.fullName}${summary ? ` · ${summary}` : ''}${remote.lastFetchError ? ' · the last fetch failed' : ''}`}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : <ModelsIcon name="server" size={13} />}
        <span className="upstream-name">{remote.fullName}</span>
        {counts && <span className="upstream-count">{counts}</span>}
        <ModelsIcon name="caret" size={11} />
      </button>
      {open && (
        <div className="popover upstream-popover" role="dialog" aria-label="Team repository details">
          <div className="upstream-row">
            <ModelsIcon name="server" />
            <span className="upstream-remote" title={where}>
              {remote.fullName}
            </span>
          </div>
          {branch &&
            (tracking ? (
              <div className="upstream-row upstream-track">
                <ModelsIcon name="branch" size={12} /> {branch.branchName} tracks <code>{tracking}</code>
                <span className="upstream-counts" aria-label="Ahead and behind">
                  {branch.ahead !== null && branch.behind !== null ? (
                    <>
                      <Badge tone={branch.ahead ? 'info' : 'neutral'}>↑ {branch.ahead} ahead</Badge>
                      <Badge tone={branch.behind ? 'warn' : 'neutral'}>↓ {branch.behind} behind</Badge>
                    </>
                  ) : (
                    <Badge tone="warn">not on the remote</Badge>
                  )}
                </span>
              </div>
            ) : (
              <div className="upstream-row muted">{branch.branchName} is local only (Push publishes it).</div>
            ))}
          <div className="upstream-row muted upstream-fetched">
            {remote.lastFetchError ? (
              <span className="upstream-fetch-error">
                last fetch failed: <FailureSummary error={remote.lastFetchError} compact />
              </span>
            ) : (
              <>
                fetched <Time value={remote.lastFetchAt} />
              </>
            )}
          </div>
          <div className="upstream-actions">
            <Button className="btn-small" busy={busy === 'fetch'} disabled={busy !== null} onClick={() => void fetchNow()} title="Fetch every branch of the team repository now">
              Fetch
            </Button>
            {branch && tracking && (
              <Button className="btn-small" busy={busy === 'pull'} disabled={busy !== null} onClick={() => void pull(branch.branchName)} title={`Fetch, then bring ${tracking}’s new commits into ${branch.branchName}`}>
                Pull
              </Button>
            )}
            {branch && (
              <Button className="btn-small" busy={busy === 'push'} disabled={busy !== null} onClick={() => void push(branch.branchName)} title={tracking ? `Push ${branch.branchName} to ${tracking} (fast-forward only)` : `Publish ${branch.branchName} to the team repository`}>
                Push
              </Button>
            )}
            <Button className="btn-small" variant="ghost" disabled={busy !== null} onClick={() => (setOpen(false), setSettings(true))} title="Background fetch, credentials, disconnect">
              Settings…
            </Button>
          </div>
        </div>
      )}
      {settings && (
        <Outside>
          <RepositorySettingsDialog
            open
            connection={remote}
            onClose={() => setSettings(false)}
            onChanged={(message) => {
              setNotice(message);
              connection.reload();
              void refresh();
            }}
          />
        </Outside>
      )}
      {conflict && (
        <Outside>
          <Suspense fallback={<Spinner label="Loading the conflict view…" />}>
            <ConflictDialog
              deploymentId={deploymentId}
              conflict={conflict}
              onClose={() => setConflict(null)}
              onResolved={(message) => {
                setConflict(null);
                setNotice(message);
                connection.reload();
                void refresh();
              }}
            />
          </Suspense>
        </Outside>
      )}
    </span>
  );
}
