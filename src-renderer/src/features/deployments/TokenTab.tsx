import { useState, type FormEvent } from 'react';
import { createDeploymentToken, DEPLOYMENT_TOKEN_MAX_SECONDS, DEPLOYMENT_TOKEN_MIN_SECONDS, type Deployment } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { errorFor } from '../../lib/errors';
import { OneTimeSecret } from '../../lib/secret';
import { Button, Field, ProblemBanner, Time } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { deploymentTokenLifetime, describeSeconds, type TimeUnit } from './tokens';

/** A bearer token restricted to this deployment, carrying the caller's access; shown once. */
export function TokenTab({ deployment }: { deployment: Deployment }) {
  const [amount, setAmount] = useState('24');
  const [unit, setUnit] = useState<TimeUnit>('hours');
  const [minted, setMinted] = useState<{ token: string; expiresAt: string; seconds: number } | null>(null);
  const { busy, error, setError, run } = useAction('Minting the deployment token');
  const lifetime = deploymentTokenLifetime(amount, unit);
  const localProblem = 'error' in lifetime ? lifetime.error : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ('error' in lifetime) return;
    setMinted(null);
    const seconds = lifetime.seconds;
    const result = await run(() => api.call(createDeploymentToken, { params: { deploymentId: deployment.id }, body: { expiresIn: seconds } }));
    if (result) setMinted({ ...result, seconds });
  };

  return (
    <div className="two-col">
      <div className="detail-stack">
        <form className="panel form" onSubmit={submit} noValidate aria-label="Mint deployment token">
          <h2>Deployment token</h2>
          <p className="muted no-margin">
            A bearer token that opens only <strong>{deployment.name}</strong>, with your own access. Use it for a script or CI job that should touch nothing else.
          </p>
          <ProblemBanner error={error} onDismiss={() => setError(null)} />
          <div className="lifetime-row">
            <Field
              label="Expires in"
              htmlFor="token-expires"
              error={errorFor(error, 'expiresIn') ?? localProblem}
              hint={`${describeSeconds(DEPLOYMENT_TOKEN_MIN_SECONDS)} to ${describeSeconds(DEPLOYMENT_TOKEN_MAX_SECONDS)}; sent as expiresIn = ${'seconds' in lifetime ? lifetime.seconds : '…'} s.`}
            >
              <div className="input-group">
                <input
                  id="token-expires"
                  inputMode="numeric"
                  value={amount}
                  onChange={(e) => {
                    setAmount(e.target.value);
                    setError(null);
                  }}
                />
                <select aria-label="Unit" value={unit} onChange={(e) => setUnit(e.target.value as TimeUnit)}>
                  <option value="seconds">seconds</option>
                  <option value="minutes">minutes</option>
                  <option value="hours">hours</option>
                </select>
              </div>
            </Field>
            <Button type="submit" variant="primary" busy={busy} disabled={localProblem !== null}>
              Mint token
            </Button>
          </div>
        </form>
        {minted && (
          <section className="panel minted" aria-label="Minted deployment token">
            <div className="panel-head">
              <h2>New token for {deployment.name}</h2>
              <button type="button" className="icon-button" aria-label="Dismiss the token" onClick={() => setMinted(null)}>
                ×
              </button>
            </div>
            <OneTimeSecret id="deployment-token" label="Bearer token" value={minted.token}>
              It is not stored and cannot be shown again; mint another if it is lost.
            </OneTimeSecret>
            <dl className="facts section-gap">
              <dt>Valid for</dt>
              <dd>{describeSeconds(minted.seconds)}</dd>
              <dt>Expires</dt>
              <dd>
                <Time value={minted.expiresAt} /> <span className="muted small">({minted.expiresAt})</span>
              </dd>
              <dt>Use as</dt>
              <dd>
                <code>Authorization: Bearer …</code>
              </dd>
            </dl>
          </section>
        )}
      </div>
      <aside className="panel">
        <h2>What it can do</h2>
        <ul className="compact-list muted">
          <li>Everything your role and policies allow, on this deployment only.</li>
          <li>Other deployments refuse it (403), and it cannot mint further deployment tokens.</li>
          <li>It is revoked with its deployment; otherwise it lives until it expires, so keep lifetimes short.</li>
        </ul>
      </aside>
    </div>
  );
}
