import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../../src-shared/api/deployments';
import { buildPatch, formOf, rowsChanged } from '../../../src-renderer/src/features/deployments/patch';
import { newRow, recordFromRows, rowsFromRecord } from '../../../src-renderer/src/features/deployments/keyValues';
import { errorFor, fieldPath, toShownError, withoutField } from '../../../src-renderer/src/lib/errors';
import { ApiProblem } from '../../../src-shared/api/client';

const deployment: Deployment = {
  id: 4,
  name: 'analytics',
  cloudProvider: 'aws',
  region: 'us-east-1',
  creationMethod: 'upload',
  deployMode: 'git',
  releaseChannel: 'stable',
  releaseChannelVersion: null,
  releaseChannelVersionHold: false,
  currentVersion: '1.3.18',
  template: null,
  templateVariables: { warehouse: 'WH', threads: 4, cache: true },
  defaultLaunchpadViewGroup: null,
  launchpadTabs: null,
  storageProvider: { type: 'local', bucket: null, region: null, prefix: null, credentialsConfigured: false },
  deployBranch: 'main',
  sqlRunnerDdlEnabled: true,
  creationStep: { currentStep: 'repository', index: 0, completed: false, steps: [] },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

describe('deployment edit form: partial update (PUT merges what is sent)', () => {
  it('sends nothing when nothing changed', () => {
    expect(buildPatch(deployment, formOf(deployment))).toEqual({});
  });

  it('sends only the fields that changed', () => {
    const form = { ...formOf(deployment), name: 'analytics-2', sqlRunnerDdlEnabled: false };
    expect(buildPatch(deployment, form)).toEqual({ name: 'analytics-2', sqlRunnerDdlEnabled: false });
  });

  it('sends changed and added template variables key by key, with their types, and removed ones as null', () => {
    const form = formOf(deployment);
    form.templateVariables = form.templateVariables
      .filter((row) => row.key !== 'cache')
      .map((row) => (row.key === 'threads' ? { ...row, value: '8' } : row));
    form.templateVariables.push(newRow('region', 'eu', 'string'));
    expect(buildPatch(deployment, form)).toEqual({ templateVariables: { threads: 8, region: 'eu', cache: null } });
  });

  it('unpins the version with null and clears an emptied template with null', () => {
    const pinned = { ...deployment, releaseChannelVersion: '1.3.17', template: 'starter' };
    const form = { ...formOf(pinned), releaseChannelVersion: '', template: '  ' };
    expect(buildPatch(pinned, form)).toEqual({ releaseChannelVersion: null, template: null });
  });

  it('refuses duplicate names, values without a name and non-numbers in number rows', () => {
    expect(() => recordFromRows([newRow('a', '1'), newRow('a', '2')])).toThrow(/appears twice/);
    expect(() => recordFromRows([newRow('', 'orphan')])).toThrow(/needs a name/);
    expect(() => recordFromRows([newRow('n', 'ten', 'number')])).toThrow(/needs a number/);
    expect(recordFromRows([newRow('', '')])).toEqual({});
  });

  it('counts a template variable row added and not filled in as a change of the form, though the patch leaves it out', () => {
    const form = formOf(deployment);
    expect(rowsChanged(deployment, form)).toBe(false);
    const added = { ...form, templateVariables: [...form.templateVariables, newRow('', '')] };
    expect(buildPatch(deployment, added)).toEqual({});
    expect(rowsChanged(deployment, added)).toBe(true);
    const typeChanged = { ...form, templateVariables: form.templateVariables.map((row, i) => (i === 0 ? { ...row, type: 'number' as const } : row)) };
    expect(rowsChanged(deployment, typeChanged)).toBe(true);
  });

  it('round-trips typed records through rows', () => {
    expect(recordFromRows(rowsFromRecord(deployment.templateVariables))).toEqual(deployment.templateVariables);
  });
});

describe('errors shown to the user', () => {
  const problem = new ApiProblem({
    status: 400,
    code: 'VALIDATION_FAILED',
    title: 'Bad Request',
    detail: 'The request is invalid.',
    errors: [
      { pointer: '/body/name', detail: 'must not be empty' },
      { pointer: '/body/storageProvider/bucket', detail: 'is required for s3' },
    ],
    operationId: 'createDeployment',
  });

  it('say it in plain words and keep the service’s status, code, detail and field errors for Details', () => {
    const shown = toShownError(problem, 'Creating the deployment');
    expect(shown).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, detail: 'Correct the fields marked below, then try again.' });
    expect(shown.title).toBe('Creating the deployment failed: 2 values are not accepted');
    expect(shown.fields.map((f) => f.detail)).toEqual(['Name must not be empty.', 'Bucket is required for s3.']);
    expect(shown.technical).toMatchObject({ title: 'Bad Request', detail: 'The request is invalid.', fields: problem.errors });
  });

  it('map JSON pointers to form fields, nested ones included', () => {
    const shown = toShownError(problem);
    expect(fieldPath('/body/storageProvider/bucket')).toBe('storageProvider.bucket');
    expect(errorFor(shown, 'name')).toBe('Name must not be empty.');
    expect(errorFor(shown, 'storageProvider')).toBe('Bucket is required for s3.');
    expect(errorFor(shown, 'region')).toBeNull();
  });

  it('drop a field’s complaint once that field is edited, keeping the rest', () => {
    const shown = withoutField(toShownError(problem), 'name');
    expect(errorFor(shown, 'name')).toBeNull();
    expect(errorFor(shown, 'storageProvider.bucket')).toBe('Bucket is required for s3.');
  });

  it('show non-API failures with their message', () => {
    expect(toShownError(new Error('Paste an API key.'), 'Sign-in')).toMatchObject({ title: 'Sign-in failed', detail: 'Paste an API key.', code: null });
  });
});
