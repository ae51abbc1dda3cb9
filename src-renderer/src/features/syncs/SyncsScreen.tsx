import { useEffect } from 'react';
import { navigate } from '../../app/router';
import type { ScreenProps } from '../../app/screen-props';
import { TabBar } from '../../lib/tabs';
import { EmptyState, Field, NameOptions, ProblemBanner, Spinner } from '../../lib/ui';
import { useDeploymentList, useDeploymentSettings } from './data';
import { LakehousePanel } from './lakehouse/LakehousePanel';
import { AppLink, idOf, syncsPath, type LakehouseSection, type SyncsTab } from './links';
import { TransformPanel } from './transform/TransformPanel';
import { JobDetail } from './warehouse/JobDetail';
import { WarehousePanel } from './warehouse/WarehousePanel';
import './syncs.css';

const TABS: { id: SyncsTab; title: string; summary: string }[] = [
  { id: 'warehouse', title: 'Warehouse', summary: 'Semantic view push and pull' },
  { id: 'lakehouse', title: 'Lakehouse', summary: 'Metric view publication' },
  { id: 'transform', title: 'Transform', summary: 'Model files from dbt' },
];

const notFound = (detail: string) => <ProblemBanner error={{ title: 'Not found', detail, code: null, status: null, fields: [] }} />;

/**
 * `/syncs/:deploymentId/warehouse[/push|pull/:jobId]` and
 * `/syncs/:deploymentId/lakehouse[/:dataSource[/settings|preview|runs[/:runId]]]`, `/syncs/:deploymentId/transform[/:jobId]`.
 */
export default function SyncsScreen({ subpath }: ScreenProps) {
  const [depText, tabText, ...rest] = subpath;
  const deploymentId = idOf(depText);
  const deployments = useDeploymentList();

  // Without a deployment in the address, open the first one's warehouse jobs.
  useEffect(() => {
    if (depText === undefined && deployments.data && deployments.data.length > 0) navigate(syncsPath(deployments.data[0].id), { replace: true });
  }, [depText, deployments.data]);
  useEffect(() => {
    if (deploymentId !== null && tabText === undefined) navigate(syncsPath(deploymentId), { replace: true });
  }, [deploymentId, tabText]);

  if (depText !== undefined && deploymentId === null) return notFound(`“${subpath.join('/')}” is not a sync address.`);
  const tab = TABS.find((t) => t.id === tabText)?.id ?? 'warehouse';
  if (tabText !== undefined && !TABS.some((t) => t.id === tabText)) return notFound(`“${tabText}” is not a section of Syncs.`);

  return (
    <section className="page sy-page">
      <header className="page-head">
        <div>
          <h1>Syncs</h1>
          <div className="muted sy-page-sub">Push and pull warehouse semantic views; publish lakehouse metric views.</div>
        </div>
        <div className="actions">
          <Field label="Deployment" htmlFor="sy-deployment">
            <select id="sy-deployment" value={deploymentId ?? ''} onChange={(e) => navigate(syncsPath(Number(e.target.value), tab))} disabled={!deployments.data?.length}>
              {deploymentId === null && <option value="">{deployments.loading ? 'Loading…' : 'Choose a deployment'}</option>}
              {deploymentId !== null && !deployments.data?.some((d) => d.id === deploymentId) && <option value={deploymentId}>deployment {deploymentId}</option>}
              <NameOptions items={deployments.data} />
            </select>
          </Field>
        </div>
      </header>
      <ProblemBanner error={deployments.error} />
      {deployments.data && deployments.data.length === 0 ? (
        <EmptyState title="No deployments yet">
          Syncs run per deployment. <AppLink to="/deployments">Create a deployment first.</AppLink>
        </EmptyState>
      ) : deploymentId === null ? (
        <Spinner label="Loading deployments…" />
      ) : (
        <>
          <TabBar
            label="Sync kinds"
            current={tab}
            tabs={TABS.map((t) => ({ id: t.id, title: t.title, href: syncsPath(deploymentId, t.id), extra: <span className="sy-tab-summary">{t.summary}</span> }))}
          />
          <div role="tabpanel" aria-label={TABS.find((t) => t.id === tab)?.title}>
            <DeploymentSyncs key={deploymentId} deploymentId={deploymentId} tab={tab} rest={rest} />
          </div>
        </>
      )}
    </section>
  );
}

function DeploymentSyncs({ deploymentId, tab, rest }: { deploymentId: number; tab: SyncsTab; rest: string[] }) {
  const settings = useDeploymentSettings(deploymentId);
  if (!settings.data) return settings.error ? <ProblemBanner error={settings.error} /> : <Spinner label="Loading the deployment…" />;

  if (tab === 'warehouse') {
    const [direction, jobId] = rest;
    if (direction === undefined) return <WarehousePanel deploymentId={deploymentId} settings={settings.data} />;
    if ((direction !== 'push' && direction !== 'pull') || !jobId) return notFound(`“${rest.join('/')}” is not a sync job address.`);
    return <JobDetail key={jobId} deploymentId={deploymentId} direction={direction} syncJobId={jobId} />;
  }
  if (tab === 'transform') return <TransformPanel deploymentId={deploymentId} deployBranch={settings.data.deployBranch} focus={rest[0] ?? null} />;
  const [dataSource, sectionText, runId] = rest;
  const section: LakehouseSection = sectionText === 'preview' || sectionText === 'runs' ? sectionText : 'settings';
  if (sectionText !== undefined && sectionText !== section) return notFound(`“${sectionText}” is not a lakehouse section.`);
  return <LakehousePanel deploymentId={deploymentId} settings={settings.data} dataSource={dataSource ?? null} section={section} runId={runId ?? null} />;
}
