import { useEffect, useMemo, useState } from 'react';
import { ApiProblem } from '../../../../../src-shared/api/client';
import { getLakehouseMetricViewIntegration, LakehouseErrorCodes, putLakehouseMetricViewIntegration, type LakehouseSettings, type RunStatus } from '../../../../../src-shared/api/lakehouse';
import { getDeploymentBuildStatus } from '../../../../../src-shared/api/deployments';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';
import { TabBar } from '../../../lib/tabs';
import { Badge, Button, EmptyState, ProblemBanner, Spinner } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { shortCommit, useModelViews, type Settings } from '../data';
import { lakehousePath, type LakehouseSection } from '../links';
import { useGroupActive, useTick } from '../tracker';
import { changedFields, configurationOf, formErrors, formOf, type SettingsForm } from './form';
import { PreviewSection } from './PreviewSection';
import { PublishDialog } from './PublishDialog';
import { runsGroup, trackRun } from './runs';
import { RunsSection } from './RunsSection';
import type { Conflict } from './SettingsConflict';
import { SettingsSection } from './SettingsSection';
import { liveBuildOf } from '../../../lib/live';

const SECTIONS: { id: LakehouseSection; title: string }[] = [
  { id: 'settings', title: 'Settings' },
  { id: 'preview', title: 'Preview' },
  { id: 'runs', title: 'Runs' },
];

/** What the user was doing per data source, kept while the app runs (switching tabs loses nothing). */
interface Draft {
  form: SettingsForm;
  /** The saved settings the form started from (null: not saved yet). */
  base: LakehouseSettings | null;
  conflict: Conflict | null;
  previewId: string | null;
}
const drafts = new Map<string, Draft>();

export function LakehousePanel({
  deploymentId,
  settings,
  dataSource,
  section,
  runId,
}: {
  deploymentId: number;
  settings: Settings;
  dataSource: string | null;
  section: LakehouseSection;
  runId: string | null;
}) {
  const lakehouses = settings.dataSources.filter((d) => d.kind === 'lakehouse');

  useEffect(() => {
    if (dataSource === null && lakehouses.length > 0) navigate(lakehousePath(deploymentId, lakehouses[0].name, 'settings'), { replace: true });
  }, [dataSource, deploymentId, lakehouses]);

  if (lakehouses.length === 0) {
    return (
      <EmptyState title="No lakehouse data source">
        Metric views are published to a lakehouse (Databricks) data source. Add one in the deployment’s env variables (<code>CUBEJS_DS_&lt;NAME&gt;_DB_TYPE=databricks-jdbc</code>).
      </EmptyState>
    );
  }
  if (dataSource === null) return <Spinner />;
  return <DataSourcePanel key={dataSource} deploymentId={deploymentId} settings={settings} dataSource={dataSource} section={section} runId={runId} />;
}

function DataSourcePanel({ deploymentId, settings, dataSource, section, runId }: { deploymentId: number; settings: Settings; dataSource: string; section: LakehouseSection; runId: string | null }) {
  const draftKey = `${deploymentId}/${dataSource}`;
  const info = settings.dataSources.find((d) => d.name === dataSource);
  const lakehouses = settings.dataSources.filter((d) => d.kind === 'lakehouse');
  const [draft, setDraftState] = useState<Draft | null>(() => drafts.get(draftKey) ?? null);
  const setDraft = (update: (d: Draft) => Draft) =>
    setDraftState((current) => {
      if (!current) return current;
      const next = update(current);
      drafts.set(draftKey, next);
      return next;
    });
  const [saveError, setSaveError] = useState<ShownError | null>(null);
  const [saving, setSaving] = useState(false);
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const runActive = useGroupActive(runsGroup(deploymentId, dataSource));
  const views = useModelViews(deploymentId, settings.deployBranch);
  const runsTick = useTick(runsGroup(deploymentId, dataSource));
  // Publication reads the latest successful build of the deploy branch: show which one that is.
  const build = useQuery((signal) => api.call(getDeploymentBuildStatus, { params: { deploymentId }, signal }), [deploymentId, section, runsTick], 'Loading the build status', liveBuildOf(deploymentId));

  const saved = useQuery(
    async (signal) => {
      try {
        return await api.call(getLakehouseMetricViewIntegration, { params: { deploymentId, dataSourceName: dataSource }, signal });
      } catch (error) {
        if (error instanceof ApiProblem && error.code === LakehouseErrorCodes.SETTINGS_NOT_FOUND) return null;
        throw error;
      }
    },
    [deploymentId, dataSource],
    'Loading the publication settings',
  );

  // The first load seeds the form (unless a draft from earlier in this session is kept).
  // A kept draft without edits follows newer saved settings (someone saved while the user was away).
  useEffect(() => {
    if (saved.loading || saved.error) return;
    if (draft) {
      const untouched = !draft.conflict && draft.base !== null && changedFields(draft.base.configuration, draft.form).length === 0;
      if (!untouched || !saved.data || saved.data.configurationVersion <= (draft.base?.configurationVersion ?? 0)) return;
    }
    const next: Draft = {
      form: formOf(saved.data?.configuration ?? null, { catalog: info?.catalog ?? null }),
      base: saved.data,
      conflict: null,
      previewId: draft?.previewId ?? null,
    };
    drafts.set(draftKey, next);
    setDraftState(next);
  }, [saved.loading, saved.error, saved.data, draft, draftKey, info?.catalog]);

  const dirty = useMemo(() => (draft ? changedFields(draft.base?.configuration ?? null, draft.form) : []), [draft]);
  const base = draft?.base ?? null;

  const save = async () => {
    if (!draft) return;
    if (Object.keys(formErrors(draft.form)).length > 0) {
      setSaveError({ title: 'Check the form', detail: 'Some fields need attention before the settings can be saved.', code: null, status: null, fields: [] });
      return;
    }
    setSaving(true);
    setSaveError(null);
    setSavedNote(null);
    const configuration = configurationOf(draft.form);
    try {
      const result = await api.call(putLakehouseMetricViewIntegration, {
        params: { deploymentId, dataSourceName: dataSource },
        body: { expectedConfigurationVersion: draft.base?.configurationVersion ?? 0, configuration },
      });
      setDraft((d) => ({ ...d, base: result, form: formOf(result.configuration, { catalog: null }), conflict: null }));
      setSavedNote(`Saved as version ${result.configurationVersion}.`);
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 409 && error.code === LakehouseErrorCodes.CONFIGURATION_VERSION_CONFLICT) {
        // Someone saved meanwhile: fetch their version so the user sees both, keeping the form as is.
        try {
          const latest = await api.call(getLakehouseMetricViewIntegration, { params: { deploymentId, dataSourceName: dataSource } });
          setDraft((d) => ({ ...d, conflict: { attempted: configuration, latest, problem: toShownError(error, 'Saving the settings') } }));
        } catch (reload) {
          setSaveError(toShownError(reload, 'Reloading the settings after a conflict'));
        }
      } else {
        setSaveError(toShownError(error, 'Saving the settings'));
      }
    } finally {
      setSaving(false);
    }
  };

  const published = (started: { runId: string; status: RunStatus }) => {
    setPublishing(false);
    trackRun(deploymentId, dataSource, started.runId, started.status);
    navigate(lakehousePath(deploymentId, dataSource, 'runs', started.runId));
  };

  return (
    <div className="sy-panel">
      <div className="sy-lh-head">
        <div className="sy-lh-source">
          <label htmlFor="lh-ds" className="sr-only">
            Lakehouse data source
          </label>
          <select id="lh-ds" value={dataSource} onChange={(e) => navigate(lakehousePath(deploymentId, e.target.value, section))} aria-label="Lakehouse data source">
            {!info && <option value={dataSource}>{dataSource}</option>}
            {lakehouses.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
          {info && (
            <span className="sy-lh-facts">
              <Badge tone={info.connector === 'emulator' ? 'neutral' : 'info'}>{info.connector === 'emulator' ? 'local emulator' : (info.host ?? 'remote')}</Badge>
              {info.catalog && (
                <span className="muted">
                  catalog <code>{info.catalog}</code>
                </span>
              )}
            </span>
          )}
          {base ? (
            <span className="sy-lh-facts">
              <Badge tone={base.configuration.enabled ? 'good' : 'warn'}>{base.configuration.enabled ? 'publishing enabled' : 'publishing disabled'}</Badge>
              <span className="muted">
                → <code>{`${base.configuration.targetCatalog}.${base.configuration.targetSchema}`}</code> · v{base.configurationVersion}
              </span>
            </span>
          ) : (
            saved.data === null && <Badge tone="warn">not set up</Badge>
          )}
        </div>
        <div className="actions">
          {build.data && (
            <span className="sy-lh-facts" title={build.data.detail ?? undefined}>
              <span className="muted">
                deploy branch <code>{build.data.branch}</code> build
              </span>
              {build.data.commit && <code title={build.data.commit}>{shortCommit(build.data.commit)}</code>}
              <Badge tone={build.data.buildStatus === 'succeeded' ? 'good' : build.data.buildStatus === 'failed' ? 'bad' : build.data.buildStatus === 'idle' ? 'neutral' : 'info'}>
                {build.data.buildStatus}
              </Badge>
            </span>
          )}
          {dirty.length > 0 && base && <span className="sy-unsaved">Unsaved changes</span>}
          <Button
            variant="primary"
            onClick={() => setPublishing(true)}
            disabled={!base || runActive}
            title={!base ? 'Save the settings first.' : runActive ? 'A run is in progress.' : dirty.length > 0 ? `Runs use the saved settings (version ${base.configurationVersion}); save to include your changes.` : undefined}
          >
            {runActive ? 'Publishing…' : 'Publish now'}
          </Button>
        </div>
      </div>
      {publishing && base && (
        <PublishDialog deploymentId={deploymentId} dataSource={dataSource} settings={settings} saved={base} onClose={() => setPublishing(false)} onStarted={published} />
      )}
      <TabBar className="sy-subtabs" label="Publication" current={section} tabs={SECTIONS.map((s) => ({ id: s.id, title: s.title, href: lakehousePath(deploymentId, dataSource, s.id) }))} />
      <ProblemBanner error={saved.error} />
      {!draft ? (
        saved.loading && <Spinner label="Loading the publication settings…" />
      ) : section === 'settings' ? (
        <SettingsSection
          deploymentId={deploymentId}
          dataSource={dataSource}
          form={draft.form}
          onChange={(form) => (setDraft((d) => ({ ...d, form })), setSavedNote(null))}
          base={draft.base}
          dirty={dirty}
          views={views.data?.views ?? []}
          viewsLoading={views.loading}
          viewsError={views.error}
          saving={saving}
          saveError={saveError}
          onDismissError={() => setSaveError(null)}
          savedNote={savedNote}
          onSave={() => void save()}
          onDiscard={() => (setDraft((d) => ({ ...d, form: formOf(d.base?.configuration ?? null, { catalog: info?.catalog ?? null }), conflict: null })), setSaveError(null))}
          conflict={draft.conflict}
          onRebase={() => setDraft((d) => (d.conflict ? { ...d, base: d.conflict.latest, conflict: null } : d))}
          onTakeTheirs={() => setDraft((d) => (d.conflict ? { ...d, base: d.conflict.latest, form: formOf(d.conflict.latest.configuration, { catalog: null }), conflict: null } : d))}
        />
      ) : section === 'preview' ? (
        <PreviewSection
          deploymentId={deploymentId}
          dataSource={dataSource}
          deployBranch={settings.deployBranch}
          form={draft.form}
          dirty={dirty.length > 0}
          previewId={draft.previewId}
          onPreviewStarted={(previewId) => setDraft((d) => ({ ...d, previewId }))}
        />
      ) : (
        <RunsSection deploymentId={deploymentId} dataSource={dataSource} runId={runId} canPublish={!!base} currentVersion={base?.configurationVersion ?? null} />
      )}
    </div>
  );
}
