import { useEffect, useState, type FormEvent } from 'react';
import type { LiveEvent } from '../../../../../src-shared/api/events';
import { DEFAULT_MANIFEST_PATH, listTransformSyncs, startTransformSync, TRANSFORM_OUTPUTS, type StartTransformSyncInput, type TransformSyncJob } from '../../../../../src-shared/api/transform-sync';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { DataTable, ListState } from '../../../lib/DataTable';
import { errorFor } from '../../../lib/errors';
import { newIdempotencyKey } from '../../../lib/retry';
import { RetryControl } from '../../../lib/RetryControl';
import { Button, EmptyState, Field, ProblemBanner, Time } from '../../../lib/ui';
import { useAction } from '../../../lib/useAction';
import { useQuery } from '../../../lib/useQuery';
import { useBranches } from '../data';
import { shortId } from '../format';
import { StatusBadge } from '../parts';
import { transformPath } from '../paths';
import { offersRetry, transformReplay } from '../retry';
import { BranchSelect } from '../warehouse/BranchSelect';

const liveTransformOf = (deploymentId: number) => (e: LiveEvent) => e.type === 'job' && e.deploymentId === deploymentId && e.job.kind === 'transform-sync';

const sourceText = (job: TransformSyncJob) =>
  job.source === 'manifest' ? 'manifest sent with the request' : `${job.manifestPath ?? DEFAULT_MANIFEST_PATH} @ ${job.ref ?? job.branchName}`;

/**
 * Syncs › Transform: model files generated from a dbt manifest, newest first. A sync reading the
 * manifest from the repository starts here; a failed one can be retried. `focus` marks a sync.
 */
export function TransformPanel({ deploymentId, deployBranch, focus }: { deploymentId: number; deployBranch: string; focus: string | null }) {
  const syncs = useQuery(
    async (signal) => (await api.call(listTransformSyncs, { params: { deploymentId }, query: { first: 50 }, signal })).items,
    [deploymentId],
    'Loading transform syncs',
    liveTransformOf(deploymentId),
  );
  const branches = useBranches(deploymentId);
  const branchExists = (name: string) => (branches.data ? branches.data.some((b) => b.branchName === name) : undefined);
  const [starting, setStarting] = useState(false);
  const open = (syncJobId: string) => {
    navigate(transformPath(deploymentId, syncJobId));
    syncs.reload();
  };
  useEffect(() => {
    if (focus) document.getElementById(`transform-${focus}`)?.scrollIntoView({ block: 'nearest' });
  }, [focus, syncs.data]);

  return (
    <section className="panel" aria-label="Transform syncs">
      <div className="panel-head">
        <h2>Transform syncs {syncs.data && <span className="count">{syncs.data.length}</span>}</h2>
        <Button className="btn-small" onClick={() => setStarting((s) => !s)} aria-expanded={starting}>
          Sync from dbt manifest…
        </Button>
      </div>
      <p className="muted">Cubes generated from a dbt project’s manifest, committed to a branch or held for download.</p>
      <ProblemBanner error={syncs.error} />
      {starting && (
        <StartForm
          deploymentId={deploymentId}
          deployBranch={deployBranch}
          branches={branches.data}
          onStarted={(id) => {
            setStarting(false);
            open(id);
          }}
          onCancel={() => setStarting(false)}
        />
      )}
      <ListState rows={syncs.data} loading={syncs.loading} empty={<EmptyState title="No transform syncs yet" />}>
        {(rows) => (
          <DataTable
            label="Transform syncs"
            rows={rows}
            rowKey={(j) => j.syncJobId}
            rowClassName={(j) => (j.syncJobId === focus ? 'selected' : undefined)}
            columns={[
              { header: 'Started', cell: (j) => <span id={`transform-${j.syncJobId}`}><Time value={j.createdAt} /></span> },
              { header: 'Manifest', cell: (j) => <code>{sourceText(j)}</code>, cellClassName: 'wrap-cell' },
              { header: 'Into', priority: 1, cell: (j) => (j.output === 'files' ? 'files to download' : <>branch <code>{j.branchName}</code></>) },
              { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
              {
                header: 'Outcome',
                cellClassName: 'wrap-cell',
                cell: (j) =>
                  j.error ? (
                    <span className="transfer-error">
                      <code>{j.error.code}</code> {j.error.message}
                    </span>
                  ) : (
                    <span className="muted">{j.progress.stage}</span>
                  ),
              },
              {
                header: '',
                label: 'Retry',
                cell: (j) =>
                  offersRetry(j.status) && (
                    <RetryControl
                      replayWith={(key) => transformReplay(j, branchExists, key)}
                      start={async (body) => {
                        const started = await api.call(startTransformSync, { params: { deploymentId }, body });
                        open(started.syncJobId);
                      }}
                      compact
                      label="Retry sync"
                      ariaLabel={`Retry transform sync ${shortId(j.syncJobId)}`}
                      title="Run the same sync again as a new job"
                      doing="Retrying the transform sync"
                      buttonClassName="btn-small"
                    />
                  ),
              },
            ]}
          />
        )}
      </ListState>
    </section>
  );
}

function StartForm({
  deploymentId,
  deployBranch,
  branches,
  onStarted,
  onCancel,
}: {
  deploymentId: number;
  deployBranch: string;
  branches: Parameters<typeof BranchSelect>[0]['branches'];
  onStarted: (syncJobId: string) => void;
  onCancel: () => void;
}) {
  const [branch, setBranch] = useState(deployBranch);
  const [manifestPath, setManifestPath] = useState(DEFAULT_MANIFEST_PATH);
  const [ref, setRef] = useState('');
  const [output, setOutput] = useState<StartTransformSyncInput['output']>('branch');
  const [idempotencyKey] = useState(newIdempotencyKey);
  const start = useAction('Starting the transform sync');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void start.run(async () => {
      const started = await api.call(startTransformSync, {
        params: { deploymentId },
        body: { source: 'git', branchName: branch, manifestPath: manifestPath.trim(), ...(ref.trim() ? { ref: ref.trim() } : {}), output, idempotencyKey },
      });
      onStarted(started.syncJobId);
    });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Start a transform sync">
      <ProblemBanner error={start.error} />
      <div className="form-row">
        <Field label="Branch" htmlFor="transform-branch" hint="The generated files are committed here." error={errorFor(start.error, 'branchName')}>
          <BranchSelect id="transform-branch" value={branch} onChange={setBranch} branches={branches} deployBranch={deployBranch} />
        </Field>
        <Field label="Output" htmlFor="transform-output">
          <select id="transform-output" value={output} onChange={(e) => setOutput(e.target.value as StartTransformSyncInput['output'])}>
            {TRANSFORM_OUTPUTS.map((o) => (
              <option key={o} value={o}>
                {o === 'branch' ? 'Commit to the branch' : 'Files to download (commits nothing)'}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="form-row">
        <Field label="Manifest path" htmlFor="transform-manifest" hint="Where dbt wrote manifest.json in the repository." error={errorFor(start.error, 'manifestPath')}>
          <input id="transform-manifest" value={manifestPath} onChange={(e) => setManifestPath(e.target.value)} spellCheck={false} required />
        </Field>
        <Field label="Read at (branch or commit)" htmlFor="transform-ref" hint="Empty: the branch above." error={errorFor(start.error, 'ref')}>
          <input id="transform-ref" value={ref} onChange={(e) => setRef(e.target.value)} spellCheck={false} />
        </Field>
      </div>
      <div className="form-actions">
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={start.busy} disabled={!manifestPath.trim()}>
          Start sync
        </Button>
      </div>
    </form>
  );
}
