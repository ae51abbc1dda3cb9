import { useState, type FormEvent } from 'react';
import { useSession } from './session';
import { Button, Field, ProblemBanner } from '../lib/ui';
import { toShownError, type ShownError } from '../lib/errors';
import { Icon } from './icons';

/** Browser sign-in: a login link from `drydock serve` signs in by itself; otherwise paste an API key. */
export function SignIn() {
  const notice = useSession((s) => s.notice);
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
        <p className="muted">
          Open the one-time login link that <code>drydock serve</code> printed, or sign in with an API key.
        </p>
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
