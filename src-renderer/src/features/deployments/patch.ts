import type { CloudProvider, Deployment, ReleaseChannel, UpdateDeploymentInput } from '../../../../src-shared/api/deployments';
import { recordFromRows, rowsFromRecord, type KeyValueRow } from './keyValues';

export const FIELD_LABELS: Partial<Record<keyof UpdateDeploymentInput, string>> = {
  name: 'name',
  cloudProvider: 'cloud provider',
  region: 'region',
  releaseChannel: 'release channel',
  releaseChannelVersion: 'version',
  releaseChannelVersionHold: 'version hold',
  template: 'template',
  sqlRunnerDdlEnabled: 'SQL Runner DDL',
  templateVariables: 'template variables',
};

export interface Form {
  name: string;
  cloudProvider: CloudProvider;
  region: string;
  releaseChannel: ReleaseChannel;
  /** '' follows the channel's latest version. */
  releaseChannelVersion: string;
  releaseChannelVersionHold: boolean;
  template: string;
  sqlRunnerDdlEnabled: boolean;
  templateVariables: KeyValueRow[];
}

export const formOf = (d: Deployment): Form => ({
  name: d.name,
  cloudProvider: d.cloudProvider,
  region: d.region,
  releaseChannel: d.releaseChannel,
  releaseChannelVersion: d.releaseChannelVersion ?? '',
  releaseChannelVersionHold: d.releaseChannelVersionHold,
  template: d.template ?? '',
  sqlRunnerDdlEnabled: d.sqlRunnerDdlEnabled,
  templateVariables: rowsFromRecord(d.templateVariables),
});

/** Only what changed: the service merges the rest. Removed template variables are sent as null. */
export function buildPatch(d: Deployment, form: Form): UpdateDeploymentInput {
  const patch: UpdateDeploymentInput = {};
  if (form.name !== d.name) patch.name = form.name;
  if (form.cloudProvider !== d.cloudProvider) patch.cloudProvider = form.cloudProvider;
  if (form.region !== d.region) patch.region = form.region;
  if (form.releaseChannel !== d.releaseChannel) patch.releaseChannel = form.releaseChannel;
  const version = form.releaseChannelVersion || null;
  if (version !== d.releaseChannelVersion) patch.releaseChannelVersion = version;
  if (form.releaseChannelVersionHold !== d.releaseChannelVersionHold) patch.releaseChannelVersionHold = form.releaseChannelVersionHold;
  const template = form.template.trim() || null;
  if (template !== d.template) patch.template = template;
  if (form.sqlRunnerDdlEnabled !== d.sqlRunnerDdlEnabled) patch.sqlRunnerDdlEnabled = form.sqlRunnerDdlEnabled;
  const next = recordFromRows(form.templateVariables);
  const variables: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(next)) if (d.templateVariables[key] !== value) variables[key] = value;
  for (const key of Object.keys(d.templateVariables)) if (!(key in next)) variables[key] = null;
  if (Object.keys(variables).length > 0) patch.templateVariables = variables;
  return patch;
}

/**
 * Whether the form's template variable rows differ from `d`'s in anything typed or added, including
 * what the patch leaves out: a row added and not filled in yet. A version read meanwhile must not
 * take such a row away.
 */
export function rowsChanged(d: Deployment, form: Form): boolean {
  const shown = (rows: KeyValueRow[]) => JSON.stringify(rows.map((row) => [row.key, row.value, row.type]));
  return shown(form.templateVariables) !== shown(rowsFromRecord(d.templateVariables));
}

/** The fields of the form as the "changed elsewhere" dialog names them, in the form's order. */
export const FORM_LABELS: Record<keyof Form, string> = {
  name: 'Name',
  cloudProvider: 'Cloud provider',
  region: 'Region',
  releaseChannel: 'Release channel',
  releaseChannelVersion: 'Version',
  releaseChannelVersionHold: 'Hold the pinned version',
  template: 'Template',
  sqlRunnerDdlEnabled: 'Allow DDL in the SQL Runner',
  templateVariables: 'Template variables',
};

/** A field of the form in a sentence: template variables as `key=value` pairs (row ids left out), the latest version named. */
export function showFormValue(key: keyof Form, value: unknown): string {
  if (key === 'templateVariables') {
    const rows = value as KeyValueRow[];
    return rows.length === 0 ? '(none)' : rows.map((r) => `${r.key}=${r.value}`).join(', ');
  }
  if (key === 'releaseChannelVersion' && value === '') return 'latest';
  if (value === '' || value === null) return '(empty)';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}
