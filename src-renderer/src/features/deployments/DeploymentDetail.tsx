import { lazy, Suspense, useEffect, type MouseEvent } from 'react';
import { getDeployment, getDeploymentSettings, type Deployment } from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { RouteTabs } from '../../lib/tabs';
import { Badge, ProblemBanner, Spinner } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { BuildStatusTab } from './BuildStatusTab';
import { EnvironmentsTab } from './EnvironmentsTab';
import { EnvVarsTab } from './EnvVarsTab';
import { GeneralTab } from './GeneralTab';
import { LogsTab } from './LogsTab';
import { PodsTab } from './PodsTab';
import { ReleaseTab } from './ReleaseTab';
import { ScheduledTasksTab } from './ScheduledTasksTab';
import { SetupTab } from './SetupTab';
import { TokenTab } from './TokenTab';
import { DevTargetsTab } from './DevTargetsTab';
import './deployments.css';
import { CLOUD_LABELS, labelOf } from './labels';
import { useDeployments } from './store';
import { stringify } from 'yaml';

const CodeEditor = lazy(() => import('../../lib/editor/CodeEditor'));

const TABS = [
  { id: 'general', title: 'General', path: '' },
  { id: 'env', title: 'Environment variables', path: '/env' },
  { id: 'environments', title: 'Environments', path: '/environments' },
  { id: 'logs', title: 'Logs', path: '/logs' },
  { id: 'pods', title: 'Pods', path: '/pods' },
  { id: 'build', title: 'Build status', path: '/build' },
  { id: 'release', title: 'Release', path: '/release' },
  { id: 'tasks', title: 'Tasks', path: '/tasks' },
  { id: 'setup', title: 'Setup', path: '/setup' },
  { id: 'token', title: 'Token', path: '/token' },
  { id: 'dev-targets', title: 'Dev targets', path: '/dev-targets' },
  { id: 'settings', title: 'Settings document', path: '/settings' },
] as const;

export function DeploymentDetail({ id, tab, rest = [] }: { id: number; tab: string; rest?: string[] }) {
  const cached = useDeployments((s) => s.items.find((d) => d.id === id));
  const put = useDeployments((s) => s.put);
  const query = useQuery((signal) => api.call(getDeployment, { params: { deploymentId: id }, signal }), [id], 'Loading the deployment');

  useEffect(() => {
    if (query.data) put(query.data);
  }, [query.data, put]);

  // The store holds the latest copy (edits update it); the query only seeds it.
  const deployment: Deployment | undefined = cached ?? query.data ?? undefined;
  const go = (event: MouseEvent, to: string) => {
    if (event.metaKey || event.ctrlKey) return;
    event.preventDefault();
    navigate(to);
  };
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];

  return (
    <section className="page">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href="/deployments" onClick={(e) => go(e, '/deployments')}>
          Deployments
        </a>
        <span aria-hidden="true">/</span>
        <span>{deployment?.name ?? `#${id}`}</span>
      </nav>
      <ProblemBanner error={query.error} />
      {!deployment ? (
        query.loading && <Spinner label="Loading the deployment…" />
      ) : (
        <>
          <header className="page-head">
            <h1>
              {deployment.name} <span className="count">#{deployment.id}</span>
            </h1>
            <div className="head-facts">
              <Badge>{labelOf(CLOUD_LABELS, deployment.cloudProvider)}</Badge>
              <Badge>{deployment.region}</Badge>
              <Badge tone="info">v{deployment.currentVersion}</Badge>
              {deployment.creationStep.completed ? <Badge tone="good">setup complete</Badge> : <Badge tone="warn">
                  setup step {deployment.creationStep.index + 1} of {deployment.creationStep.steps.length}
                </Badge>}
            </div>
          </header>
          <RouteTabs base={`/deployments/${id}`} tabs={TABS} current={current.id} label="Deployment sections" />
          <div role="tabpanel" aria-label={current.title}>
            {current.id === 'general' && <GeneralTab deployment={deployment} />}
            {current.id === 'env' && <EnvVarsTab deploymentId={deployment.id} />}
            {current.id === 'environments' && <EnvironmentsTab deploymentId={deployment.id} ddlEnabled={deployment.sqlRunnerDdlEnabled} />}
            {current.id === 'logs' && <LogsTab deploymentId={deployment.id} />}
            {current.id === 'pods' && <PodsTab deploymentId={deployment.id} />}
            {current.id === 'build' && <BuildStatusTab deployment={deployment} />}
            {current.id === 'release' && <ReleaseTab deployment={deployment} />}
            {current.id === 'tasks' && <ScheduledTasksTab deploymentId={deployment.id} focus={rest[0]} />}
            {current.id === 'setup' && <SetupTab deployment={deployment} />}
            {current.id === 'token' && <TokenTab deployment={deployment} />}
            {current.id === 'dev-targets' && <DevTargetsTab deploymentId={deployment.id} />}
            {current.id === 'settings' && <SettingsDocument deploymentId={deployment.id} version={deployment.updatedAt} />}
          </div>
        </>
      )}
    </section>
  );
}

/** Every setting of the deployment (secrets excluded, as the service returns them), read-only. */
function SettingsDocument({ deploymentId, version }: { deploymentId: number; version: string }) {
  const settings = useQuery((signal) => api.call(getDeploymentSettings, { params: { deploymentId }, signal }), [deploymentId, version], 'Loading settings');
  return (
    <div className="panel">
      <div className="panel-head">
        <span className="muted">GET /api/v1/deployments/{deploymentId}/settings — secret values are never included.</span>
        <button type="button" className="btn btn-default btn-small" onClick={settings.reload}>
          Reload
        </button>
      </div>
      <ProblemBanner error={settings.error} />
      {settings.data ? (
        <Suspense fallback={<Spinner label="Loading the editor…" />}>
          <CodeEditor value={stringify(settings.data)} language="yaml" path={`deployments/${deploymentId}/settings.yaml`} readOnly height={520} ariaLabel="Deployment settings" />
        </Suspense>
      ) : (
        settings.loading && <Spinner />
      )}
    </div>
  );
}
