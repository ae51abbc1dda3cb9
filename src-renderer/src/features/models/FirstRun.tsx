import { useState, type MouseEvent } from 'react';
import { navigate } from '../../app/router';
import { useSession } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { showToast } from '../../lib/toast';
import { Button, ProblemBanner } from '../../lib/ui';
import { openSampleProject } from '../tour/sample-project';

/**
 * Models with no deployment yet (a first run): one click makes a deployment holding the sample
 * project (every new deployment starts with it, on local warehouse and lakehouse emulators) and
 * opens it here, where the guided tour starts.
 */
export function FirstRun({ onCreated }: { onCreated: (id: number) => void }) {
  const role = useSession((s) => s.user?.role);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const canCreate = role === undefined || role === 'admin';

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const sample = await openSampleProject();
      for (const problem of sample.problems) showToast({ title: 'Part of the sample is missing', body: problem, tone: 'warn', timeoutMs: 0 });
      onCreated(sample.deploymentId);
    } catch (e) {
      setError(toShownError(e, 'Creating the sample deployment'));
    } finally {
      setBusy(false);
    }
  };

  const toDeployments = (event: MouseEvent) => {
    event.preventDefault();
    navigate('/deployments');
  };

  return (
    <section className="page" aria-label="Welcome">
      <header className="page-head">
        <h1>Welcome to Drydock</h1>
      </header>
      <div className="panel first-run">
        <p>
          Start with the <strong>sample project</strong>: a small web-shop model (cubes, views, joins, access policies) on a local warehouse and a local lakehouse that
          come with sample data, a <strong>Sales overview</strong> dashboard over its views, and a second deployment, <strong>Staging</strong>, to promote it into. A short
          tour then walks you through editing a file, validating, pushing and publishing, and promoting that workbook.
        </p>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        <div className="form-actions">
          {canCreate ? (
            <Button variant="primary" busy={busy} onClick={() => void start()}>
              Open the sample project
            </Button>
          ) : (
            <p className="muted no-margin">Ask an admin to create a deployment; it starts with the sample project.</p>
          )}
          <a href="/deployments" onClick={toDeployments}>
            or create your own deployment
          </a>
        </div>
      </div>
    </section>
  );
}
