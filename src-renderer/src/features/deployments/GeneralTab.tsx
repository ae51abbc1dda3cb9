import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  CLOUD_PROVIDERS,
  RELEASE_CHANNELS,
  getDeployment,
  listDeploymentVersions,
  updateDeployment,
  type Deployment,
  type ReleaseChannel,
  type UpdateDeploymentInput,
} from '../../../../src-shared/api/deployments';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { errorFor, inOneLine, toShownError, withoutField, type ShownError } from '../../lib/errors';
import { Badge, Button, Dialog, Field, ProblemBanner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { KeyValueEditor } from './KeyValueEditor';
import { buildPatch, FIELD_LABELS, FORM_LABELS, formOf, rowsChanged, showFormValue, type Form } from './patch';
import { SettingsConflictDialog } from '../../lib/SettingsConflictDialog';
import { useVersionedForm } from '../../lib/useVersionedForm';
import { CLOUD_LABELS, CREATION_METHOD_LABELS, DEPLOY_MODE_LABELS, RELEASE_CHANNEL_LABELS, STORAGE_LABELS, labelOf } from './labels';
import { useRegions } from './regions';
import { RegionField } from './RegionField';
import { useDeployments } from './store';
import { EnumSelect } from '../../lib/EnumSelect';

export function GeneralTab({ deployment }: { deployment: Deployment }) {
  const put = useDeployments((s) => s.put);
  const [saved, setSaved] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  // Saves carry the version of the deployment the form was opened on: a save over a change made
  // meanwhile (another window, a script) is refused and shown field by field, never written over it.
  const versioned = useVersionedForm<Deployment, Form>({
    what: `The settings of “${deployment.name}”`,
    action: 'Saving the deployment',
    formOf,
    labels: FORM_LABELS,
    show: showFormValue,
    save: (base, mine, ifMatch) => api.callVersioned(updateDeployment, { params: { deploymentId: base.id }, body: buildPatch(base, mine), ...(ifMatch ? { ifMatch } : {}) }),
    onSaved: (result, base, mine) => {
      put(result);
      const fields = Object.keys(buildPatch(base, mine)).map((key) => FIELD_LABELS[key as keyof UpdateDeploymentInput] ?? key);
      setSaved(fields.length > 0 ? `Saved: ${fields.join(', ')}.` : 'Saved.');
    },
  });
  const { load, setForm, error, setError, busy } = versioned;
  const base = versioned.current ?? deployment;
  const form = versioned.form ?? formOf(deployment);
  const regions = useRegions(form.cloudProvider);
  const versions = useQuery(
    (signal) => api.call(listDeploymentVersions, { params: { deploymentId: deployment.id }, signal }),
    [deployment.id],
    'Loading versions',
  );
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setSaved(null);
    setForm((f) => ({ ...(f ?? formOf(deployment)), [key]: value }));
    setError(withoutField(error, key));
  };

  const patch = useMemo(() => {
    try {
      return { value: buildPatch(base, form), problem: null };
    } catch (failure) {
      return { value: null, problem: failure instanceof Error ? failure.message : String(failure) };
    }
  }, [base, form]);
  const dirty = patch.value === null || Object.keys(patch.value).length > 0;
  // What a new version may not replace: unsaved changes, and a template variable row added but not
  // filled in yet, which the patch leaves out.
  const edited = dirty || rowsChanged(base, form);
  const editedRef = useRef(edited);
  editedRef.current = edited;

  // The form is based on a versioned read, taken again whenever the deployment moves (a save here or
  // in another tab, a refresh). Without unsaved changes the form shows the new version at once; with
  // some, the typed values stay and the next save compares both.
  const [movedElsewhere, setMovedElsewhere] = useState(false);
  const latest = useQuery(
    (signal) => api.callVersioned(getDeployment, { params: { deploymentId: deployment.id }, signal }),
    [deployment.id, deployment.updatedAt],
    'Loading the deployment',
  );
  const versionRef = useRef(versioned.version);
  versionRef.current = versioned.version;
  const formRef = useRef(versioned.form);
  formRef.current = versioned.form;
  useEffect(() => {
    if (!latest.data || latest.data.version === versionRef.current) return;
    if (editedRef.current && versionRef.current !== null) {
      setMovedElsewhere(true);
      return;
    }
    // Typed before the first versioned read came back: the typing stays.
    const typed = editedRef.current ? formRef.current : null;
    load(latest.data.data, latest.data.version);
    if (typed) setForm(typed);
    setMovedElsewhere(false);
  }, [latest.data, load, setForm]);
  useEffect(() => {
    if (!edited) setMovedElsewhere(false);
  }, [edited]);

  const channelVersions = versions.data?.channels.find((c) => c.releaseChannel === form.releaseChannel);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    if (patch.value !== null && Object.keys(patch.value).length === 0) return;
    void versioned.submit().then((result) => result && setMovedElsewhere(false));
  };

  return (
    <div className="two-col">
      <form className="panel form" onSubmit={submit} noValidate aria-label="Deployment settings">
        <div className="panel-head">
          <h2>Settings</h2>
          {saved && <span className="saved">{saved}</span>}
        </div>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        {movedElsewhere && (
          <div className="report report-warn" role="status" data-testid="deployment-remote-change">
            This deployment was changed elsewhere meanwhile. Your unsaved changes are kept; saving shows both versions to choose from.
          </div>
        )}
        <Field label="Name" htmlFor="edit-name" error={errorFor(error, 'name')}>
          <input id="edit-name" value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={255} />
        </Field>
        <div className="form-row">
          <Field label="Cloud provider" htmlFor="edit-cloud" error={errorFor(error, 'cloudProvider')}>
            <EnumSelect id="edit-cloud" value={form.cloudProvider} options={CLOUD_PROVIDERS} labels={CLOUD_LABELS} onChange={(v) => set('cloudProvider', v)} />
          </Field>
          <RegionField id="edit-region" value={form.region} onChange={(region) => set('region', region)} regions={regions} error={errorFor(error, 'region')} whileLoading="keep-value" />
        </div>
        <div className="form-row">
          <Field label="Release channel" htmlFor="edit-channel" error={errorFor(error, 'releaseChannel')}>
            <select
              id="edit-channel"
              value={form.releaseChannel}
              onChange={(e) => {
                set('releaseChannel', e.target.value as ReleaseChannel);
                set('releaseChannelVersion', '');
              }}
            >
              {RELEASE_CHANNELS.map((v) => (
                <option key={v} value={v}>
                  {RELEASE_CHANNEL_LABELS[v]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Version" htmlFor="edit-version" error={errorFor(error, 'releaseChannelVersion') ?? (versions.error ? inOneLine(versions.error) : null)}>
            <select id="edit-version" value={form.releaseChannelVersion} onChange={(e) => set('releaseChannelVersion', e.target.value)}>
              <option value="">Latest{channelVersions ? ` (${channelVersions.latestVersion})` : ''}</option>
              {form.releaseChannelVersion && !channelVersions?.versions.some((v) => v.version === form.releaseChannelVersion) && (
                <option value={form.releaseChannelVersion}>{form.releaseChannelVersion}</option>
              )}
              {(channelVersions?.versions ?? []).map((v) => (
                <option key={v.version} value={v.version}>
                  {v.version}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="checks">
          <label className="check">
            <input type="checkbox" checked={form.releaseChannelVersionHold} onChange={(e) => set('releaseChannelVersionHold', e.target.checked)} />
            Hold the pinned version
          </label>
          <label className="check">
            <input type="checkbox" checked={form.sqlRunnerDdlEnabled} onChange={(e) => set('sqlRunnerDdlEnabled', e.target.checked)} />
            Allow DDL in the SQL Runner
          </label>
        </div>
        <Field label="Template" htmlFor="edit-template" error={errorFor(error, 'template')} hint="Name of the project template; leave empty for none.">
          <input id="edit-template" value={form.template} onChange={(e) => set('template', e.target.value)} spellCheck={false} />
        </Field>
        <div className={`field ${errorFor(error, 'templateVariables') || patch.problem ? 'field-invalid' : ''}`}>
          <label>Template variables</label>
          <KeyValueEditor rows={form.templateVariables} onChange={(rows) => set('templateVariables', rows)} idPrefix="tv" addLabel="Add variable" />
          {(errorFor(error, 'templateVariables') || patch.problem) && <div className="field-error">{errorFor(error, 'templateVariables') ?? patch.problem}</div>}
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={!dirty}>
            Save changes
          </Button>
          <Button onClick={() => (latest.data ? load(latest.data.data, latest.data.version) : setForm(formOf(base)))} disabled={!dirty || busy}>
            Discard
          </Button>
        </div>
      </form>

      <aside className="side">
        <div className="panel">
          <h2>Overview</h2>
          <dl className="facts">
            <dt>Created via</dt>
            <dd>{labelOf(CREATION_METHOD_LABELS, deployment.creationMethod)}</dd>
            <dt>Deploy mode</dt>
            <dd>{labelOf(DEPLOY_MODE_LABELS, deployment.deployMode)}</dd>
            <dt>Deploy branch</dt>
            <dd>
              <code>{deployment.deployBranch}</code>
            </dd>
            <dt>Version</dt>
            <dd>
              <code>{deployment.currentVersion}</code> {deployment.releaseChannelVersion ? <Badge tone="warn">pinned</Badge> : <Badge>latest</Badge>}
            </dd>
            <dt>Storage</dt>
            <dd>
              {labelOf(STORAGE_LABELS, deployment.storageProvider.type)}
              {deployment.storageProvider.bucket && (
                <>
                  {' '}
                  <code>{deployment.storageProvider.bucket}</code>
                </>
              )}
              {deployment.storageProvider.credentialsConfigured && <Badge tone="good">credentials set</Badge>}
            </dd>
            <dt>Created</dt>
            <dd>
              <Time value={deployment.createdAt} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <Time value={deployment.updatedAt} />
            </dd>
          </dl>
        </div>
        <div className="panel">
          <h2>Setup</h2>
          <ol className="steps">
            {deployment.creationStep.steps.map((step) => (
              <li key={step.id} className={`step step-${step.status}`}>
                <span className="step-dot" aria-hidden="true" />
                {step.title}
                <span className="sr-only"> ({step.status})</span>
              </li>
            ))}
          </ol>
        </div>
        <div className="panel danger">
          <h2>Delete</h2>
          <p className="muted">Removes the deployment with its environments, env variables (secrets included), logs and tokens.</p>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete deployment…
          </Button>
        </div>
      </aside>
      <DeleteDialog deployment={deployment} open={deleting} onClose={() => setDeleting(false)} />
      <SettingsConflictDialog {...versioned.dialog} />
    </div>
  );
}

function DeleteDialog({ deployment, open, onClose }: { deployment: Deployment; open: boolean; onClose: () => void }) {
  const remove = useDeployments((s) => s.remove);
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  useEffect(() => {
    if (open) {
      setConfirm('');
      setError(null);
    }
  }, [open]);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await remove(deployment.id);
      onClose();
      navigate('/deployments');
    } catch (failure) {
      setError(toShownError(failure, 'Deleting the deployment'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Delete ${deployment.name}?`}
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={busy} disabled={confirm !== deployment.name} onClick={() => void submit()}>
            Delete
          </Button>
        </>
      }
    >
      <ProblemBanner error={error} />
      <p>This cannot be undone. Type the deployment’s name to confirm.</p>
      <input aria-label="Deployment name to confirm" value={confirm} onChange={(e) => setConfirm(e.target.value)} placeholder={deployment.name} />
    </Dialog>
  );
}
