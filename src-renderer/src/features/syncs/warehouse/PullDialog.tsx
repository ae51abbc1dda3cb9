import { useMemo, useState } from 'react';
import { startWarehouseSemanticViewPull, type StartPullInput, type SyncJob } from '../../../../../src-shared/api/warehouse-sync';
import { api } from '../../../app/session';
import { errorFor, withoutField } from '../../../lib/errors';
import { SchemaPicker } from '../../../lib/SchemaPicker';
import { Field } from '../../../lib/ui';
import { newIdempotencyKey, useBranches, useDataSourceSchemas, useDefaultSchema, useDialogBranch, type Settings } from '../data';
import { StartDialog, useStartForm } from '../StartDialog';
import { BranchSelect } from './BranchSelect';
import { outputPathProblem, parseViewPatterns } from './format';

type Started = Pick<SyncJob, 'syncJobId' | 'direction' | 'status'>;

/** Start a pull: semantic views of a warehouse schema → model files committed to a branch. */
export function PullDialog({ deploymentId, settings, onClose, onStarted }: { deploymentId: number; settings: Settings; onClose: () => void; onStarted: (job: Started) => void }) {
  const warehouses = settings.dataSources.filter((d) => d.kind === 'warehouse');
  const [dataSourceName, setDataSourceName] = useState(warehouses.find((d) => d.name === 'default')?.name ?? warehouses[0]?.name ?? 'default');
  const schemas = useDataSourceSchemas(deploymentId, dataSourceName);
  const existing = schemas.data?.dataSource === dataSourceName ? schemas.data.schemas : null;
  const [schema, setSchema] = useDefaultSchema(existing);
  const [patterns, setPatterns] = useState('');
  const [outputPath, setOutputPath] = useState('model/pulled');
  const form = useStartForm('Starting the pull');
  const { error, setError, touched } = form;
  const idempotencyKey = useMemo(newIdempotencyKey, []);
  const branches = useBranches(deploymentId);
  // In dev mode the files go to the user's own dev branch by default, never straight to the deploy branch.
  const [branch, setBranch] = useDialogBranch(settings.deployBranch, branches.data);
  const viewNames = parseViewPatterns(patterns);
  const pathProblem = outputPathProblem(outputPath);
  const schemaProblem = schema.trim() === '' ? 'Name the warehouse schema to read semantic views from.' : null;

  const submit = () =>
    form.submit(!pathProblem && !schemaProblem, async () => {
      const body: StartPullInput = {
        schema: schema.trim(),
        outputPath: outputPath.trim().replace(/\/+$/, ''),
        branchName: branch,
        dataSourceName,
        idempotencyKey,
        ...(viewNames.length > 0 ? { viewNames } : {}),
      };
      const started = await api.call(startWarehouseSemanticViewPull, { params: { deploymentId }, body });
      onStarted({ syncJobId: started.syncJobId, direction: 'pull', status: 'QUEUED' });
    });

  return (
    <StartDialog
      formId="sync-pull-form"
      title="Pull semantic views into model files"
      formLabel="Pull views"
      startLabel="Start pull"
      form={form}
      onStart={submit}
      onClose={onClose}
      intro="Reads semantic views from the warehouse, writes one model file per view and commits the files to the branch."
    >
      <div className="form-row">
        <Field label="Data source" htmlFor="pull-ds" error={errorFor(error, 'dataSourceName')}>
          <select id="pull-ds" value={dataSourceName} onChange={(e) => (setDataSourceName(e.target.value), setSchema(''))}>
            {warehouses.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
                {d.database ? ` · ${d.database}` : ''}
                {d.connector === 'emulator' ? ' (emulator)' : ''}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Schema" htmlFor="pull-schema" error={(touched && schemaProblem) || errorFor(error, 'schema')}>
          <SchemaPicker
            id="pull-schema"
            value={schema}
            onChange={(value) => (setSchema(value), setError((x) => withoutField(x, 'schema')))}
            schemas={schemas}
            placeholder={schemas.loading && !existing ? 'Reading schemas…' : 'Choose a schema'}
            unlistedWarning="there is nothing to pull from it"
          />
        </Field>
      </div>
      <Field
        label="Semantic views"
        htmlFor="pull-views"
        error={errorFor(error, 'viewNames')}
        hint={
          <>
            Names or patterns with <code>*</code>, separated by commas or spaces. Leave empty to pull every semantic view in the schema.
          </>
        }
      >
        <input
          id="pull-views"
          value={patterns}
          onChange={(e) => (setPatterns(e.target.value), setError((x) => withoutField(x, 'viewNames')))}
          placeholder="e.g. ORDERS_OVERVIEW, SALES_*"
          spellCheck={false}
          autoComplete="off"
        />
      </Field>
      {viewNames.length > 0 && (
        <div className="sy-chips" aria-label="Views to pull">
          {viewNames.map((n) => (
            <code key={n} className={n.includes('*') ? 'sy-chip sy-chip-pattern' : 'sy-chip'}>
              {n}
            </code>
          ))}
        </div>
      )}
      <div className="form-row">
        <Field label="Output folder" htmlFor="pull-output" error={(touched && pathProblem) || errorFor(error, 'outputPath')} hint="Repository folder for the generated files.">
          <input id="pull-output" value={outputPath} onChange={(e) => (setOutputPath(e.target.value), setError((x) => withoutField(x, 'outputPath')))} spellCheck={false} autoComplete="off" />
        </Field>
        <Field label="Branch" htmlFor="pull-branch" hint="The generated files are committed to this branch." error={errorFor(error, 'branchName')}>
          <BranchSelect id="pull-branch" value={branch} onChange={setBranch} branches={branches.data} deployBranch={settings.deployBranch} />
        </Field>
      </div>
    </StartDialog>
  );
}
