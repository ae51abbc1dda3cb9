// Connect a deployment to the team's git repository by URL (any smart-HTTP(S) git server): the
// credentials go to the service's keychain; connecting fetches the remote's branches.
import { useEffect, useState, type FormEvent } from 'react';
import { connectDeploymentToGitHost, type ConnectGitHostInput, type ConnectGitHostResult } from '../../../../../src-shared/api/git-host';
import { api } from '../../../app/session';
import { errorFor, toShownError, type ShownError } from '../../../lib/errors';
import { Button, Dialog, Field, ProblemBanner } from '../../../lib/ui';
import { plural } from '../../../lib/plural';

type Auth = 'basic' | 'token' | 'none';

function describeConnect(result: ConnectGitHostResult): string {
  const created = result.branches.filter((b) => b.outcome === 'created').length;
  const kept = result.branches.filter((b) => b.keptAs).map((b) => b.keptAs);
  return (
    `Connected to ${result.fullName}: ${result.branch} is the deploy branch’s upstream` +
    (created ? `, ${plural(created, 'remote branch', 'remote branches')} added` : '') +
    (kept.length ? `; local commits kept on ${kept.join(', ')}` : '') +
    '.'
  );
}

export function ConnectRepositoryDialog({ open, deploymentId, onClose, onConnected }: { open: boolean; deploymentId: number; onClose: () => void; onConnected: (message: string) => void }) {
  const [url, setUrl] = useState('');
  const [auth, setAuth] = useState<Auth>('basic');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [branch, setBranch] = useState('');
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);

  useEffect(() => {
    if (open) return;
    // Nothing secret outlives the dialog.
    setSecret('');
    setError(null);
  }, [open]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    const body: ConnectGitHostInput = {
      url: url.trim(),
      ...(auth === 'basic' ? { username: username.trim(), password: secret } : auth === 'token' ? { token: secret, ...(username.trim() ? { username: username.trim() } : {}) } : {}),
      ...(branch.trim() ? { branch: branch.trim() } : {}),
      ...(path.trim() ? { path: path.trim() } : {}),
    };
    try {
      const result = await api.call(connectDeploymentToGitHost, { params: { deploymentId }, body });
      onConnected(describeConnect(result));
      onClose();
    } catch (failure) {
      setError(toShownError(failure, 'Connect'));
    } finally {
      setBusy(false);
    }
  };

  const ready = url.trim().length >= 8 && (auth === 'none' || (secret.length > 0 && (auth === 'token' || username.trim().length > 0)));
  return (
    <Dialog
      title="Connect the team repository"
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={!ready} onClick={() => void submit()}>
            Connect and fetch
          </Button>
        </>
      }
    >
      <form className="connect-repo" onSubmit={(e) => void submit(e)}>
        <p className="muted">
          Any git server over HTTP(S). Connecting fetches every branch (same commit ids); commits and merges on tracking branches are pushed, fast-forward only. Credentials are kept in the
          keychain.
        </p>
        <ProblemBanner error={error} />
        <Field label="Repository URL" htmlFor="connect-url" error={errorFor(error, 'url')}>
          <input id="connect-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://git.example.com/team/model.git" autoComplete="off" required />
        </Field>
        <Field label="Authentication" htmlFor="connect-auth">
          <select id="connect-auth" value={auth} onChange={(e) => setAuth(e.target.value as Auth)}>
            <option value="basic">User and password</option>
            <option value="token">Access token</option>
            <option value="none">None (public repository)</option>
          </select>
        </Field>
        {auth !== 'none' && (
          <>
            <Field label={auth === 'token' ? 'User (optional)' : 'User'} htmlFor="connect-user">
              <input id="connect-user" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
            </Field>
            <Field label={auth === 'token' ? 'Token' : 'Password'} htmlFor="connect-secret">
              <input id="connect-secret" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="off" />
            </Field>
          </>
        )}
        <Field label="Branch (optional)" htmlFor="connect-branch" hint="The remote branch the deploy branch tracks; default the repository’s default branch." error={errorFor(error, 'branch')}>
          <input id="connect-branch" value={branch} onChange={(e) => setBranch(e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Project folder (optional)" htmlFor="connect-path" error={errorFor(error, 'path')}>
          <input id="connect-path" value={path} onChange={(e) => setPath(e.target.value)} autoComplete="off" placeholder="the repository root" />
        </Field>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
