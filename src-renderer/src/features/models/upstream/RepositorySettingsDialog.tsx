// Settings of a deployment's connection to the team repository: the background fetch interval, new
// credentials for a URL connection (checked by the service before they replace the stored ones), and
// disconnecting (every branch and commit stays).
import { useEffect, useState } from 'react';
import {
  disconnectDeploymentFromGitHost,
  MIN_FETCH_INTERVAL_SECONDS,
  updateDeploymentGitConnection,
  type GitHostConnection,
} from '../../../../../src-shared/api/git-host';
import { api } from '../../../app/session';
import { ConfirmDialog } from '../../../lib/confirm';
import { errorFor, toShownError, type ShownError } from '../../../lib/errors';
import { Button, Dialog, Field, ProblemBanner, Time } from '../../../lib/ui';

export function RepositorySettingsDialog({ open, connection, onClose, onChanged }: { open: boolean; connection: GitHostConnection; onClose: () => void; onChanged: (message: string) => void }) {
  const [interval, setIntervalText] = useState(String(connection.fetchIntervalSeconds));
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [disconnecting, setDisconnecting] = useState(false);

  useEffect(() => {
    if (!open) return;
    setIntervalText(String(connection.fetchIntervalSeconds));
    setUsername('');
    setSecret('');
    setError(null);
  }, [open, connection.fetchIntervalSeconds]);

  const seconds = Number(interval);
  const intervalOk = Number.isInteger(seconds) && (seconds === 0 || seconds >= MIN_FETCH_INTERVAL_SECONDS);
  const credentials = connection.authentication === 'basic' || connection.authentication === 'token';
  const changed = seconds !== connection.fetchIntervalSeconds || secret.length > 0;

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.call(updateDeploymentGitConnection, {
        params: { deploymentId: connection.deploymentId },
        body: {
          ...(seconds !== connection.fetchIntervalSeconds ? { fetchIntervalSeconds: seconds } : {}),
          ...(secret ? (connection.authentication === 'token' ? { token: secret } : { password: secret }) : {}),
          ...(secret && username.trim() ? { username: username.trim() } : {}),
        },
      });
      onChanged(secret ? 'New credentials work and are kept in the keychain.' : seconds === 0 ? 'Background fetch is off.' : `Background fetch every ${seconds} s.`);
      onClose();
    } catch (failure) {
      setError(toShownError(failure, 'Saving the connection'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Dialog
        title="Team repository"
        open={open}
        onClose={onClose}
        footer={
          <>
            <Button variant="danger" onClick={() => setDisconnecting(true)}>
              Disconnect…
            </Button>
            <span className="dialog-foot-spacer" />
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" busy={busy} disabled={!changed || !intervalOk} onClick={() => void save()}>
              Save
            </Button>
          </>
        }
      >
        <div className="connect-repo">
          <p>
            <strong>{connection.fullName}</strong> {connection.url && <code className="muted">{connection.url}</code>}
          </p>
          <p className="muted">
            The deploy branch tracks <code>{connection.branch}</code>
            {connection.path ? ` (project in ${connection.path}/)` : ''}; authentication: {connection.authentication}. Next background fetch: <Time value={connection.nextFetchAt} />
          </p>
          <ProblemBanner error={error} />
          <Field
            label="Background fetch (seconds)"
            htmlFor="repo-interval"
            hint={`0 turns it off; otherwise at least ${MIN_FETCH_INTERVAL_SECONDS}.`}
            error={!intervalOk ? `0, or at least ${MIN_FETCH_INTERVAL_SECONDS}` : errorFor(error, 'fetchIntervalSeconds')}
          >
            <input id="repo-interval" type="number" min={0} step={30} value={interval} onChange={(e) => setIntervalText(e.target.value)} />
          </Field>
          {credentials && (
            <>
              <Field label="New user (optional)" htmlFor="repo-user">
                <input id="repo-user" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
              </Field>
              <Field label={connection.authentication === 'token' ? 'New token' : 'New password'} htmlFor="repo-secret" hint="Checked against the repository before it replaces the stored one.">
                <input id="repo-secret" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="off" />
              </Field>
            </>
          )}
        </div>
      </Dialog>
      <ConfirmDialog
        open={open && disconnecting}
        title="Disconnect the team repository?"
        confirmLabel="Disconnect"
        action="Disconnecting"
        onClose={() => setDisconnecting(false)}
        onConfirm={async () => {
          await api.call(disconnectDeploymentFromGitHost, { params: { deploymentId: connection.deploymentId } });
          onChanged(`Disconnected from ${connection.fullName}; every branch and commit stays here.`);
          onClose();
        }}
      >
        <p>Drydock forgets {connection.fullName} and its credentials. Every branch and commit stays; branches stop tracking the remote.</p>
      </ConfirmDialog>
    </>
  );
}
