import { useState, type FormEvent } from 'react';
import { useSession, type LoginFailure } from './session';
import { Button, Field, ProblemBanner } from '../lib/ui';
import { toShownError, type ShownError } from '../lib/errors';
import { Icon } from './icons';

/** Browser sign-in: a login link from `drydock serve` signs in by itself; otherwise paste an API key. */
export function SignIn() {
  const notice = useSession((s) => s.notice);
  const failure = useSession((s) => s.loginFailure);
  const signIn = useSession((s) => s.signInWithApiKey);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(key);
    } catch (failure) {
      setError(toShownError(failure, 'Sign-in'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="signin">
      <form className="signin-card" onSubmit={submit}>
        <div className="signin-brand">
          <Icon name="logo" size={28} />
          <span>Drydock</span>
        </div>
        {failure ? (
          <LoginLinkFailed failure={failure} />
        ) : (
          <p className="muted">Open the one-time login link the service printed when it started, or sign in with an API key.</p>
        )}
        {notice && <div className="notice">{notice}</div>}
        <ProblemBanner error={error} />
        <Field label="API key" htmlFor="api-key" hint="Sent as “Authorization: Api-Key …”; kept for this tab only.">
          <input
            id="api-key"
            name="api-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="dd_…"
            autoFocus
          />
        </Field>
        <Button type="submit" variant="primary" busy={busy} disabled={!key.trim()}>
          Sign in
        </Button>
      </form>
    </main>
  );
}

/** Why the login link did not open a session, and the command (or menu) that gives a new one for this service. */
function LoginLinkFailed({ failure }: { failure: LoginFailure }) {
  const [copied, setCopied] = useState(false);
  const copy = (text: string) =>
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  return (
    <div className="notice signin-link-failed" role="alert">
      <strong>{failure.reason === 'used' ? 'This login link was already used.' : failure.reason === 'expired' ? 'This login link has expired.' : 'This login link did not work.'}</strong>
      <p>{failure.reason === 'used' ? 'A login link opens one session, once.' : failure.reason === 'expired' ? 'A login link lasts ten minutes.' : failure.detail}</p>
      {failure.command ? (
        <>
          <p>Where the service runs, this prints a new link for it:</p>
          <div className="signin-command">
            <code aria-label="Command for a new login link">{failure.command}</code>
            <button type="button" className="btn btn-small" onClick={() => copy(failure.command!)}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </>
      ) : failure.hint ? (
        <p>For a new link, {failure.hint}</p>
      ) : (
        <p>Ask whoever started the service for a new link.</p>
      )}
      <p className="no-margin">Or sign in with an API key below.</p>
    </div>
  );
}
