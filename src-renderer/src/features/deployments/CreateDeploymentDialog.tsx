import { useEffect, useState } from 'react';
import {
  CLOUD_PROVIDERS,
  CREATION_METHODS,
  DEPLOY_MODES,
  RELEASE_CHANNELS,
  STORAGE_PROVIDER_TYPES,
  type CloudProvider,
  type CreateDeploymentInput,
  type CreationMethod,
  type Deployment,
  type DeployMode,
  type ReleaseChannel,
  type StorageProviderType,
} from '../../../../src-shared/api/deployments';
import { Field } from '../../lib/ui';
import { FormDialog } from '../../lib/FormDialog';
import { errorFor, toShownError, withoutField, type ShownError } from '../../lib/errors';
import { KeyValueEditor, recordFromRows, type KeyValueRow } from './KeyValueEditor';
import { CLOUD_LABELS, CREATION_METHOD_LABELS, DEPLOY_MODE_LABELS, RELEASE_CHANNEL_LABELS, STORAGE_LABELS } from './labels';
import { useRegions } from './regions';
import { RegionField } from './RegionField';
import { useDeployments } from './store';
import { EnumSelect } from '../../lib/EnumSelect';

interface Form {
  name: string;
  cloudProvider: CloudProvider;
  region: string;
  creationMethod: CreationMethod;
  deployMode: DeployMode;
  releaseChannel: ReleaseChannel;
  storageType: StorageProviderType;
  bucket: string;
  storageRegion: string;
  prefix: string;
  credentials: KeyValueRow[];
}

const initialForm = (): Form => ({
  name: '',
  cloudProvider: CLOUD_PROVIDERS[0],
  region: '',
  creationMethod: CREATION_METHODS[0],
  deployMode: DEPLOY_MODES[0],
  releaseChannel: RELEASE_CHANNELS[0],
  storageType: STORAGE_PROVIDER_TYPES[0],
  bucket: '',
  storageRegion: '',
  prefix: '',
  credentials: [],
});

function toInput(form: Form): CreateDeploymentInput {
  const credentials = recordFromRows(form.credentials) as Record<string, string>;
  const storageProvider: CreateDeploymentInput['storageProvider'] =
    form.storageType === 'local'
      ? { type: 'local' }
      : {
          type: form.storageType,
          ...(form.bucket.trim() ? { bucket: form.bucket.trim() } : {}),
          ...(form.storageRegion.trim() ? { region: form.storageRegion.trim() } : {}),
          ...(form.prefix.trim() ? { prefix: form.prefix.trim() } : {}),
          ...(Object.keys(credentials).length ? { credentials } : {}),
        };
  return {
    name: form.name,
    cloudProvider: form.cloudProvider,
    creationMethod: form.creationMethod,
    deployMode: form.deployMode,
    releaseChannel: form.releaseChannel,
    storageProvider,
    ...(form.region ? { region: form.region } : {}),
  };
}

export function CreateDeploymentDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (d: Deployment) => void }) {
  const create = useDeployments((s) => s.create);
  const [form, setForm] = useState<Form>(initialForm);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const regions = useRegions(form.cloudProvider);
  const FIELD_OF: Partial<Record<keyof Form, string>> = { storageType: 'storageProvider.type', bucket: 'storageProvider.bucket', storageRegion: 'storageProvider.region', prefix: 'storageProvider.prefix', credentials: 'storageProvider.credentials' };
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    // A field the user changed no longer shows the service's complaint about its old value.
    setError((e) => withoutField(e, FIELD_OF[key] ?? key));
  };

  useEffect(() => {
    if (open) {
      setForm(initialForm());
      setError(null);
    }
  }, [open]);

  // The provider's default region, until the user picks one of that provider's regions.
  useEffect(() => {
    const list = regions.data ?? [];
    if (list.length === 0) return;
    setForm((f) => (list.some((r) => r.code === f.region) ? f : { ...f, region: (list.find((r) => r.isDefault) ?? list[0]).code }));
  }, [regions.data]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      onCreated(await create(toInput(form)));
    } catch (failure) {
      setError(toShownError(failure, 'Creating the deployment'));
    } finally {
      setBusy(false);
    }
  };

  const cloud = form.storageType !== 'local';
  return (
    <FormDialog
      title="New deployment"
      open={open}
      onClose={onClose}
      formId="create-deployment"
      submitLabel="Create deployment"
      busy={busy}
      onSubmit={submit}
      error={error}
    >
      <Field label="Name" htmlFor="dep-name" error={errorFor(error, 'name')}>
        <input id="dep-name" value={form.name} onChange={(e) => set('name', e.target.value)} required maxLength={255} autoFocus placeholder="e.g. analytics-prod" />
      </Field>
      <div className="form-row">
        <Field label="Cloud provider" htmlFor="dep-cloud" error={errorFor(error, 'cloudProvider')}>
          <EnumSelect id="dep-cloud" value={form.cloudProvider} options={CLOUD_PROVIDERS} labels={CLOUD_LABELS} onChange={(v) => set('cloudProvider', v)} />
        </Field>
        <RegionField id="dep-region" value={form.region} onChange={(region) => set('region', region)} regions={regions} error={errorFor(error, 'region')} whileLoading="wait" />
      </div>
      <div className="form-row">
        <Field label="Creation method" htmlFor="dep-method" error={errorFor(error, 'creationMethod')}>
          <EnumSelect id="dep-method" value={form.creationMethod} options={CREATION_METHODS} labels={CREATION_METHOD_LABELS} onChange={(v) => set('creationMethod', v)} />
        </Field>
        <Field label="Deploy mode" htmlFor="dep-mode" error={errorFor(error, 'deployMode')}>
          <EnumSelect id="dep-mode" value={form.deployMode} options={DEPLOY_MODES} labels={DEPLOY_MODE_LABELS} onChange={(v) => set('deployMode', v)} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Release channel" htmlFor="dep-channel" error={errorFor(error, 'releaseChannel')}>
          <EnumSelect id="dep-channel" value={form.releaseChannel} options={RELEASE_CHANNELS} labels={RELEASE_CHANNEL_LABELS} onChange={(v) => set('releaseChannel', v)} />
        </Field>
        <Field label="Artifact storage" htmlFor="dep-storage" error={errorFor(error, 'storageProvider.type')}>
          <EnumSelect id="dep-storage" value={form.storageType} options={STORAGE_PROVIDER_TYPES} labels={STORAGE_LABELS} onChange={(v) => set('storageType', v)} />
        </Field>
      </div>
      {cloud && (
        <fieldset className="subform">
          <legend>{STORAGE_LABELS[form.storageType]}</legend>
          <div className="form-row">
            <Field label={form.storageType === 'azure-blob' ? 'Container' : 'Bucket'} htmlFor="dep-bucket" error={errorFor(error, 'storageProvider.bucket')}>
              <input id="dep-bucket" value={form.bucket} onChange={(e) => set('bucket', e.target.value)} spellCheck={false} />
            </Field>
            <Field label="Bucket region" htmlFor="dep-bucket-region" error={errorFor(error, 'storageProvider.region')}>
              <input id="dep-bucket-region" value={form.storageRegion} onChange={(e) => set('storageRegion', e.target.value)} spellCheck={false} />
            </Field>
          </div>
          <Field label="Key prefix" htmlFor="dep-prefix" error={errorFor(error, 'storageProvider.prefix')} hint="Optional folder inside the bucket.">
            <input id="dep-prefix" value={form.prefix} onChange={(e) => set('prefix', e.target.value)} spellCheck={false} />
          </Field>
          <div className="field">
            <label>Credentials</label>
            <KeyValueEditor rows={form.credentials} onChange={(rows) => set('credentials', rows)} idPrefix="dep-cred" typed={false} secret keyPlaceholder="accessKeyId" addLabel="Add credential" />
            <div className={errorFor(error, 'storageProvider.credentials') ? 'field-error' : 'field-hint'}>
              {errorFor(error, 'storageProvider.credentials') ?? 'Stored in the OS keychain; never shown again.'}
            </div>
          </div>
        </fieldset>
      )}
    </FormDialog>
  );
}
