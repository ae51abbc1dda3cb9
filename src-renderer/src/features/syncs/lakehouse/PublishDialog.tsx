import { useMemo } from 'react';
import { placeDevTarget } from '../../../../../src-shared/api/dev-targets';
import { startLakehouseMetricViewSync, type LakehouseSettings, type RunStatus } from '../../../../../src-shared/api/lakehouse';
import { api } from '../../../app/session';
import { errorFor } from '../../../lib/errors';
import { Badge, Field } from '../../../lib/ui';
import { newIdempotencyKey, useBranches, useDevTarget, useDialogBranch, type Settings } from '../data';
import { BranchSelect } from '../warehouse/BranchSelect';
import { StartDialog, useStartForm } from '../StartDialog';
import { TargetNames } from '../TargetNames';

/**
 * "Publish now": the branch to publish (the user's own dev branch when in dev mode, else the
 * deploy branch) and, before anything runs, where the metric views go — for a dev branch the
 * owner's per-user schema or name prefix, never the production metric views.
 */
export function PublishDialog({
  deploymentId,
  dataSource,
  settings,
  saved,
  onClose,
  onStarted,
}: {
  deploymentId: number;
  dataSource: string;
  settings: Settings;
  saved: LakehouseSettings;
  onClose: () => void;
  onStarted: (started: { runId: string; status: RunStatus }) => void;
}) {
  const branches = useBranches(deploymentId);
  // Only the deploy branch and personal dev branches publish (others would replace production).
  const publishable = useMemo(() => branches.data?.filter((b) => b.isDeployBranch || b.kind === 'personal') ?? null, [branches.data]);
  const [branch, setBranch] = useDialogBranch(settings.deployBranch, publishable);
  const form = useStartForm('Starting the publication run');
  const error = form.error;
  const idempotencyKey = useMemo(newIdempotencyKey, [branch]);
  const configuration = saved.configuration;

  const submit = () =>
    form.submit(true, async () => {
      const started = await api.call(startLakehouseMetricViewSync, {
        params: { deploymentId, dataSourceName: dataSource },
        body: { configurationVersion: saved.configurationVersion, idempotencyKey, ...(branch !== settings.deployBranch ? { branchName: branch } : {}) },
      });
      onStarted(started);
    });

  return (
    <StartDialog
      formId="lakehouse-publish-form"
      title="Publish metric views"
      formLabel="Publish metric views"
      startLabel="Publish"
      form={form}
      onStart={submit}
      onClose={onClose}
      intro={
        <>
          Publishes the views in scope of <code>{dataSource}</code> with the saved settings (version {saved.configurationVersion}).
        </>
      }
    >
      <Field
        label="Branch"
        htmlFor="publish-branch"
        error={errorFor(error, 'branchName')}
        hint="The deploy branch publishes its deployed build; your dev branch publishes its head to your own target."
      >
        <BranchSelect id="publish-branch" value={branch} onChange={setBranch} branches={publishable} deployBranch={settings.deployBranch} />
      </Field>
      <PublishTarget
        deploymentId={deploymentId}
        branch={branch}
        catalog={configuration.targetCatalog}
        schema={configuration.targetSchema}
        prefix={configuration.targetNamePrefix ?? ''}
        viewNames={configuration.selectionMode === 'selected' ? configuration.selectedViews : []}
      />
    </StartDialog>
  );
}

/** Where a run from `branch` writes: `catalog.schema.name` per view, per-user for a dev branch. */
export function PublishTarget({
  deploymentId,
  branch,
  catalog,
  schema,
  prefix,
  viewNames,
}: {
  deploymentId: number;
  branch: string;
  catalog: string;
  schema: string;
  prefix: string;
  viewNames: string[];
}) {
  const target = useDevTarget(deploymentId, branch);
  if (!target.data || target.data.branchName !== branch) return null;
  const dev = target.data.isDevBranch && target.data.userTag ? target.data : null;
  const placed = dev ? placeDevTarget(dev.rule, dev.userTag!, { schema, prefix }, true) : { schema, prefix };
  const names = viewNames.map((view) => `${catalog}.${placed.schema}.${placed.prefix}${view}`.toLowerCase());
  return (
    <div className={`notice sy-push-target${dev ? ' sy-push-target-dev' : ''}`} role="region" aria-label="Publication target">
      {dev ? (
        <p>
          <Badge tone="info">dev · {dev.userTag}</Badge> <strong>Dev branch</strong>: the metric views go to your own{' '}
          {dev.rule.mode === 'schema-suffix' ? (
            <>
              schema <code>{`${catalog}.${placed.schema}`}</code> (created if missing)
            </>
          ) : (
            <>
              names prefixed <code>{placed.prefix}</code> in <code>{`${catalog}.${placed.schema}`}</code>
            </>
          )}
          , never over the production metric views in <code>{`${catalog}.${schema}`}</code>.
        </p>
      ) : (
        <p>
          Production: the metric views go to <code>{`${catalog}.${schema}`}</code>
          {prefix ? (
            <>
              {' '}
              named <code>{prefix}</code>&lt;view&gt;
            </>
          ) : null}
          .
        </p>
      )}
      {names.length > 0 ? (
        <TargetNames verb="Will write" names={names} />
      ) : (
        <p className="muted">
          Each view in scope is written as <code>{`${catalog}.${placed.schema}.${placed.prefix}`.toLowerCase()}&lt;view&gt;</code> (target-name overrides keep their name
          {dev?.rule.mode === 'name-prefix' ? ' after your prefix' : ''}).
        </p>
      )}
    </div>
  );
}
