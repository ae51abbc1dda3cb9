import { useMemo, useState } from 'react';
import { startWarehouseSemanticViewSync, type StartPushInput, type SyncJob } from '../../../../../src-shared/api/warehouse-sync';
import { api } from '../../../app/session';
import { errorFor, inOneLine, withoutField } from '../../../lib/errors';
import { isListed, SchemaPicker } from '../../../lib/SchemaPicker';
import { Field } from '../../../lib/ui';
import { newIdempotencyKey, useBranches, useDataSourceSchemas, useDefaultSchema, useDevTarget, useDialogBranch, useModelViews, type Settings } from '../data';
import { PushTarget } from './PushTarget';
import { ViewPicker } from '../parts';
import { StartDialog, useStartForm } from '../StartDialog';
import { BranchSelect } from './BranchSelect';
import { plural } from '../../../lib/plural';

type Started = Pick<SyncJob, 'syncJobId' | 'direction' | 'status'>;

/** Start a push: model views of a branch → semantic views `<prefix><view>` in a warehouse schema. */
export function PushDialog({ deploymentId, settings, onClose, onStarted }: { deploymentId: number; settings: Settings; onClose: () => void; onStarted: (job: Started) => void }) {
  const [viewNames, setViewNames] = useState<string[]>([]);
  const [prefix, setPrefix] = useState('');
  const [helperViewSchema, setHelperViewSchema] = useState('');
  const [showAdvanced, setShowAdvanced] = useState(false);
  const form = useStartForm('Starting the push');
  const { error, setError, touched } = form;
  // One key per dialog: a double submit (or a retry after a lost answer) returns the same job.
  const idempotencyKey = useMemo(newIdempotencyKey, []);
  const branches = useBranches(deploymentId);
  // In dev mode the push reads the user's own dev branch by default (and writes to their per-user target).
  const [branch, setBranch] = useDialogBranch(settings.deployBranch, branches.data);
  const views = useModelViews(deploymentId, branch);
  const warehouse = settings.dataSources.find((d) => d.name === 'default' && d.kind === 'warehouse') ?? settings.dataSources.find((d) => d.kind === 'warehouse');
  const schemas = useDataSourceSchemas(deploymentId, warehouse?.name ?? null);
  const existing = schemas.data?.schemas ?? null;
  const [schema, setSchema] = useDefaultSchema(existing);
  // A push from a dev branch with per-user schemas creates its own schema, named after the one chosen here.
  const devTarget = useDevTarget(deploymentId, branch).data;
  const devSchemaCreated = devTarget?.branchName === branch && devTarget.isDevBranch && devTarget.userTag && devTarget.rule.mode === 'schema-suffix';

  const clientErrors = {
    viewNames: viewNames.length === 0 ? 'Choose at least one view.' : null,
    schema: schema.trim() === '' ? 'Name the warehouse schema to create the semantic views in.' : null,
  };
  // A view on a lakehouse (or other) data source is published there, never pushed to a warehouse.
  const pushViews = useMemo(() => {
    const warehouses = new Set(settings.dataSources.filter((d) => d.kind === 'warehouse').map((d) => d.name.toLowerCase()));
    return (views.data?.views ?? []).map((v) => {
      const others = v.dataSources.filter((ds) => !warehouses.has(ds.toLowerCase()));
      return others.length === 0 ? v : { ...v, pushable: false, pushIssues: [...v.pushIssues, `Its cubes use data source ${others.join(', ')}, which is not a warehouse.`] };
    });
  }, [views.data, settings.dataSources]);
  const notPushable = pushViews.filter((v) => viewNames.includes(v.name) && !v.pushable);
  // Access policies a semantic view cannot hold: each such view's push ends with a warning (issue 24).
  const droppingPolicies = pushViews.filter((v) => viewNames.includes(v.name) && v.pushable && v.droppedPolicies.length > 0);

  const submit = () =>
    form.submit(!clientErrors.viewNames && !clientErrors.schema, async () => {
      const body: StartPushInput = {
        schema: schema.trim(),
        prefix,
        viewNames,
        branchName: branch,
        idempotencyKey,
        ...(helperViewSchema.trim() ? { helperViewSchema: helperViewSchema.trim() } : {}),
      };
      const started = await api.call(startWarehouseSemanticViewSync, { params: { deploymentId }, body });
      onStarted({ syncJobId: started.syncJobId, direction: 'push', status: 'QUEUED' });
    });

  const example = viewNames[0] ?? pushViews.find((v) => v.pushable)?.name ?? 'orders';

  return (
    <StartDialog
      formId="sync-push-form"
      title="Push views to the warehouse"
      formLabel="Push views"
      startLabel="Start push"
      form={form}
      onStart={submit}
      onClose={onClose}
      footNote={
        <span className="sy-foot-note muted">
          {viewNames.length > 0 ? `${plural(viewNames.length, 'view')} selected` : ''}
          {droppingPolicies.length > 0 ? ` · ${plural(droppingPolicies.length, 'warning')} expected` : ''}
        </span>
      }
      intro={
        <>
          Each model view becomes a semantic view, created through the SQL Runner in{' '}
          {warehouse ? (
            <>
              <code>{warehouse.database ?? 'the database'}</code> of data source <code>{warehouse.name}</code>
              {warehouse.connector === 'emulator' ? ' (local warehouse emulator)' : ''}
            </>
          ) : (
            'the warehouse of the views’ data source'
          )}
          .
        </>
      }
    >
      <div className="form-row">
        <Field label="Branch" htmlFor="push-branch" hint="The views are read from this branch as of now." error={errorFor(error, 'branchName')}>
          <BranchSelect id="push-branch" value={branch} onChange={setBranch} branches={branches.data} deployBranch={settings.deployBranch} />
        </Field>
        <Field label="Schema" htmlFor="push-schema" error={(touched && clientErrors.schema) || errorFor(error, 'schema')} hint="Warehouse schema for the semantic views.">
          <SchemaPicker
            id="push-schema"
            value={schema}
            onChange={(value) => (setSchema(value), setError((x) => withoutField(x, 'schema')))}
            schemas={schemas}
            placeholder={schemas.loading && !existing ? 'Reading schemas…' : 'Choose a schema'}
            {...(devSchemaCreated
              ? { created: 'Your dev branch pushes to your own schema named after it, which the push creates.' }
              : { unlistedWarning: 'the push would fail (create it in the warehouse first)' })}
          />
        </Field>
      </div>
      <Field
        label="Prefix"
        htmlFor="push-prefix"
        error={errorFor(error, 'prefix')}
        hint={
          <>
            Optional. Semantic views are named prefix + view name, e.g. <code>{`${prefix}${example}`}</code>.
          </>
        }
      >
        <input id="push-prefix" value={prefix} onChange={(e) => setPrefix(e.target.value)} spellCheck={false} autoComplete="off" placeholder="e.g. SV_" />
      </Field>
      <PushTarget deploymentId={deploymentId} branch={branch} database={warehouse?.database ?? null} schema={schema.trim()} prefix={prefix} viewNames={viewNames} />
      <div className={`field ${(touched && clientErrors.viewNames) || errorFor(error, 'viewNames') ? 'field-invalid' : ''}`}>
        <label id="push-views-label" htmlFor="push-views">
          Views
        </label>
        <ViewPicker
          id="push-views"
          views={pushViews}
          loading={views.loading}
          selected={viewNames}
          onChange={(names) => (setViewNames(names), setError((x) => withoutField(x, 'viewNames')))}
          mode="push"
        />
        {views.error ? (
          <div className="field-error">{inOneLine(views.error)}</div>
        ) : (touched && clientErrors.viewNames) || errorFor(error, 'viewNames') ? (
          <div className="field-error">{(touched && clientErrors.viewNames) || errorFor(error, 'viewNames')}</div>
        ) : notPushable.length > 0 ? (
          <div className="field-error">{notPushable.map((v) => v.name).join(', ')} cannot be pushed; the service will refuse the push. Hover a view to see why.</div>
        ) : views.data && views.data.errorCount > 0 ? (
          <div className="field-hint">The model on this branch has {plural(views.data.errorCount, 'compile error')}; some views may be missing.</div>
        ) : null}
        {droppingPolicies.length > 0 && (
          <div className="notice sy-policy-warning" role="note" aria-label="Access policies not pushed">
            <strong>{plural(droppingPolicies.length, 'warning')}: access policies are not pushed.</strong> A semantic view cannot hold them, so whoever may select from{' '}
            {droppingPolicies.map((v, i) => (
              <span key={v.name}>
                {i > 0 && ', '}
                <code>{`${prefix}${v.name}`}</code> (policies of {v.droppedPolicies.join(', ')})
              </span>
            ))}{' '}
            sees every row and member. Grant those semantic views only to warehouse roles that may see them all.
          </div>
        )}
      </div>
      <button type="button" className="link sy-advanced" onClick={() => setShowAdvanced((s) => !s)} aria-expanded={showAdvanced}>
        {showAdvanced ? '▾' : '▸'} Advanced
      </button>
      {showAdvanced && (
        <Field
          label="Helper view schema"
          htmlFor="push-helper-schema"
          error={errorFor(error, 'helperViewSchema')}
          hint={
            <>
              Where <code>MODEL_SV_SRC_&lt;ENTITY&gt;</code> helper views go for entities defined by SQL. Empty: <code>PUBLIC</code>.
            </>
          }
        >
          <SchemaPicker
            id="push-helper-schema"
            value={helperViewSchema}
            onChange={setHelperViewSchema}
            schemas={schemas}
            // The default names PUBLIC only where the warehouse has it; elsewhere a schema must be chosen.
            placeholder={!existing || isListed(existing, 'PUBLIC') ? 'PUBLIC (the default)' : 'Choose a schema (this database has no PUBLIC)'}
            {...(devSchemaCreated
              ? { created: 'Your dev branch pushes helper views to your own schema named after it, which the push creates.' }
              : { unlistedWarning: 'a push with helper views would fail' })}
          />
        </Field>
      )}
    </StartDialog>
  );
}
