import { useState } from 'react';
import { advanceCreationStep, resetCreationStep, type Deployment } from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { Badge, Button, ProblemBanner } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { useDeployments } from './store';

/** The setup wizard's progress: mark the current step done, or start over. */
export function SetupTab({ deployment }: { deployment: Deployment }) {
  const put = useDeployments((s) => s.put);
  const { busy, error, setError, run } = useAction('Advancing the setup');
  const [resetting, setResetting] = useState(false);
  const state = deployment.creationStep;
  const current = state.steps.find((s) => s.status === 'current') ?? null;

  const advance = async () => {
    if (!state.currentStep) return;
    // `from` makes a double click advance once: the second call names a step that is no longer current.
    const next = await run(() => api.call(advanceCreationStep, { params: { deploymentId: deployment.id }, body: { from: state.currentStep! } }));
    if (next) put({ ...deployment, creationStep: next });
  };

  return (
    <div className="two-col">
      <section className="panel" aria-label="Setup steps">
        <div className="panel-head">
          <h2>Setup</h2>
          {state.completed ? <Badge tone="good">complete</Badge> : <Badge tone="warn">{state.index} of {state.steps.length} done</Badge>}
        </div>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        <ol className="wizard">
          {state.steps.map((step, i) => (
            <li key={step.id} className={`wizard-step wizard-${step.status}`}>
              <span className="wizard-marker" aria-hidden="true">
                {step.status === 'done' ? '✓' : i + 1}
              </span>
              <div>
                <div className="wizard-title">{step.title}</div>
                <div className="muted small">
                  <code>{step.id}</code> · {step.status === 'done' ? 'done' : step.status === 'current' ? 'to do next' : 'later'}
                </div>
              </div>
            </li>
          ))}
        </ol>
        <div className="form-actions">
          {current && (
            <Button variant="primary" busy={busy} onClick={() => void advance()}>
              Mark “{current.title}” done
            </Button>
          )}
          <Button onClick={() => setResetting(true)} disabled={busy || state.index === 0}>
            Restart setup…
          </Button>
        </div>
      </section>
      <aside className="panel">
        <h2>About setup</h2>
        <p className="muted">
          The wizard records how far the deployment’s setup has come. Marking a step done moves to the next; restarting goes back to the first step and changes nothing else.
        </p>
        <h2>The data model</h2>
        <p className="no-margin">
          The deployment already holds a model (the sample project, until you replace it).{' '}
          <a
            href={`/models/${deployment.id}`}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey) return;
              event.preventDefault();
              navigate(`/models/${deployment.id}`);
            }}
          >
            Open it in Models
          </a>{' '}
          to edit, validate, push and publish it.
        </p>
      </aside>
      <ConfirmDialog
        open={resetting}
        title="Restart setup?"
        confirmLabel="Restart setup"
        tone="primary"
        action="Restarting the setup"
        onClose={() => setResetting(false)}
        onConfirm={async () => {
          const next = await api.call(resetCreationStep, { params: { deploymentId: deployment.id } });
          put({ ...deployment, creationStep: next });
        }}
      >
        <p>The wizard goes back to “{state.steps[0]?.title}”. The deployment’s settings, environments and variables are kept.</p>
      </ConfirmDialog>
    </div>
  );
}
