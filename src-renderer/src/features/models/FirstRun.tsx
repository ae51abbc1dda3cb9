import { useState, type MouseEvent } from 'react';
import { createDeployment } from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import { api, useSession } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { Button, ProblemBanner } from '../../lib/ui';

/** The name of the deployment the first run creates for the sample project. */
export const SAMPLE_DEPLOYMENT_NAME = 'Sample project';

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
      const created = await api.call(createDeployment, {
        body: { name: SAMPLE_DEPLOYMENT_NAME, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
      });
      onCreated(created.id);
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
          come with sample data. A short tour then walks you through editing a file, validating, pushing and publishing, and promoting a workbook.
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
