import { useEffect, type ReactNode } from 'react';
import { listDeployments } from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import { ProfileSwitcher } from '../../app/ProfileSwitcher';
import type { ScreenProps } from '../../app/screen-props';
import { api } from '../../app/session';
import { fetchAllPages } from '../../lib/paging';
import { ProblemBanner, Spinner } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { FirstRun } from './FirstRun';
import { Workbench } from './layout/Workbench';
import './models.css';

const LAST_DEPLOYMENT = 'drydock.models.deployment';

/** `/models` picks a deployment (the last one used, else the first); `/models/:deploymentId` shows its model. */
export default function ModelsScreen({ subpath }: ScreenProps) {
  const [idText] = subpath;
  const requested = idText !== undefined && /^\d+$/.test(idText) ? Number(idText) : null;
  const deployments = useQuery((signal) => fetchAllPages((after) => api.call(listDeployments, { query: { first: 100, ...(after ? { after } : {}) }, signal }), 500), [], 'Loading deployments');

  useEffect(() => {
    if (requested !== null || !deployments.data || deployments.data.length === 0) return;
    const last = Number(window.localStorage.getItem(LAST_DEPLOYMENT));
    const pick = deployments.data.find((d) => d.id === last) ?? deployments.data[0];
    navigate(`/models/${pick.id}`, { replace: true });
  }, [requested, deployments.data]);

  useEffect(() => {
    if (requested !== null) window.localStorage.setItem(LAST_DEPLOYMENT, String(requested));
  }, [requested]);

  // A deployment made elsewhere (the CLI, a script, another window) sends no live event: while there
  // is none, look again every two seconds, so the first-run screen moves on to it by itself.
  const none = deployments.data?.length === 0;
  const reloadDeployments = deployments.reload;
  useEffect(() => {
    if (!none) return;
    const timer = window.setInterval(reloadDeployments, 2_000);
    return () => window.clearInterval(timer);
  }, [none, reloadDeployments]);

  if (idText !== undefined && requested === null) {
    return <Framed><ProblemBanner error={{ title: 'Not found', detail: `“${idText}” is not a deployment id.`, code: null, status: null, fields: [] }} /></Framed>;
  }
  if (deployments.error && !deployments.data) return <Framed><ProblemBanner error={deployments.error} /></Framed>;
  if (!deployments.data) return <Framed><Spinner label="Loading deployments…" /></Framed>;
  if (deployments.data.length === 0) return <Framed><FirstRun onCreated={(id) => (deployments.reload(), navigate(`/models/${id}`))} /></Framed>;
  if (requested === null) return <Framed><Spinner /></Framed>;
  const view = subpath[1] === 'data' ? 'data' : subpath[1] === 'lineage' ? 'lineage' : subpath[1] === 'review' ? 'review' : 'files';
  return <Workbench deploymentId={requested} view={view} lineageOf={view === 'lineage' ? subpath[2] : undefined} deployments={deployments.data.map((d) => ({ id: d.id, name: d.name }))} />;
}

/** Before the workbench is up (loading, the first run, a bad id): the app's usual header and padding. */
function Framed({ children }: { children: ReactNode }) {
  return (
    <div className="models-framed">
      <ProfileSwitcher />
      <div className="models-framed-body">{children}</div>
    </div>
  );
}
