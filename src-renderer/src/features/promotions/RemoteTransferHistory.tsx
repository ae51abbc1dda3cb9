import type { Deployment } from '../../../../src-shared/api/deployments';
import { cancelRemoteTransfer, type RemoteTransfer } from '../../../../src-shared/api/remote-transfers';
import { localApi } from '../../app/session';
import { controlsColumn, DataTable } from '../../lib/DataTable';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { deploymentLabel } from '../workbooks/data';
import { isFinished, useTransferHistory } from './remote';
import { plural } from '../../lib/plural';
import { FailureSummary } from '../../lib/plain/FailureSummary';

const STATUS_TONE: Record<RemoteTransfer['status'], 'good' | 'bad' | 'warn' | 'info' | 'neutral'> = {
  QUEUED: 'neutral',
  RUNNING: 'info',
  CANCELLING: 'warn',
  COMPLETED: 'good',
  FAILED: 'bad',
  CANCELLED: 'warn',
};

export const StatusBadge = ({ status }: { status: RemoteTransfer['status'] }) => <Badge tone={STATUS_TONE[status]}>{status.toLowerCase()}</Badge>;

/** What a transfer sent, in words: `Revenue` or `branch feature-a @ 1a2b3c4`. */
const sourceText = (t: RemoteTransfer, deployments: Deployment[] | null) =>
  `${t.kind === 'workbook-promotion' ? (t.source.name ?? `workbook ${t.source.workbookId}`) : `branch ${t.source.branchName} @ ${t.source.version?.slice(0, 7) ?? '?'}`} (${deploymentLabel(deployments, t.source.deploymentId)})`;

const targetText = (t: RemoteTransfer) =>
  `${t.profileName} · deployment ${t.target.deploymentId} · ${
    t.kind === 'workbook-promotion'
      ? t.target.workbookId !== null
        ? `workbook #${t.target.workbookId}${t.target.slug ? ` (${t.target.slug})` : ''}`
        : `new “${t.target.slug ?? t.source.slug}”`
      : `branch ${t.target.branchName ?? '(deploy branch)'}`
  }`;

/** The outcome of one transfer in a sentence: provenance, undo, or why it failed. */
export function TransferOutcome({ transfer: t }: { transfer: RemoteTransfer }) {
  if (t.status === 'COMPLETED') {
    const provenance =
      t.remoteProvenance === 'RECORDED'
        ? 'The remote recorded where it came from.'
        : t.remoteProvenance === 'IN_COMMIT_MESSAGE'
          ? 'The remote commit names where it came from.'
          : t.remoteProvenance === 'NOT_RECORDED'
            ? 'The remote refused to record where it came from; this history keeps it.'
            : t.remoteProvenance === 'NOT_SUPPORTED'
              ? 'The remote cannot record where it came from; this history keeps it.'
              : 'Nothing needed to change on the remote.';
    return (
      <span>
        {t.kind === 'model-publish' && t.target.versionAfter ? (
          <>
            commit <code>{t.target.versionAfter.slice(0, 12)}</code>
            {t.fileChanges.length > 0 ? ` (${plural(t.fileChanges.length, 'file')})` : ''}.{' '}
          </>
        ) : null}
        {provenance}
      </span>
    );
  }
  if (!isFinished(t)) return <span className="muted">{t.progress.stage}…</span>;
  return (
    <span className="transfer-error">
      <FailureSummary error={t.error} />
    </span>
  );
}

/** Promotions and publishes to other profiles, newest first; running ones can be cancelled. */
export function RemoteTransferHistory({
  kind,
  deploymentId,
  deployments,
  version,
  highlightId,
  onChanged,
}: {
  kind?: RemoteTransfer['kind'];
  deploymentId?: number;
  deployments: Deployment[] | null;
  version: number;
  highlightId: string | null;
  onChanged: () => void;
}) {
  const history = useTransferHistory({ kind, deploymentId }, version);
  const cancel = useAction('Cancelling');
  return (
    <section className="panel" aria-label="History with other profiles">
      <div className="panel-head">
        <h2>History</h2>
        <Button className="btn-small" onClick={history.reload} busy={history.loading && history.data !== null}>
          Refresh
        </Button>
      </div>
      <ProblemBanner error={history.error} />
      <ProblemBanner error={cancel.error} onDismiss={() => cancel.setError(null)} />
      {!history.data ? (
        history.loading && <Spinner label="Loading the history…" />
      ) : history.data.length === 0 ? (
        <EmptyState title="Nothing sent to other profiles yet" />
      ) : (
        <DataTable
          label="Transfers to other profiles"
          rows={history.data}
          rowKey={(t) => t.id}
          rowClassName={(t) => (t.id === highlightId ? 'row-selected' : undefined)}
          columns={[
            { header: 'When', cell: (t) => <Time value={t.createdAt} /> },
            {
              header: 'What',
              cell: (t) => (
                <>
                  <Badge>{t.kind === 'workbook-promotion' ? 'workbook' : 'model'}</Badge> {sourceText(t, deployments)}
                </>
              ),
            },
            { header: 'To', priority: 1, cell: (t) => targetText(t) },
            {
              header: 'Status',
              cell: (t) => (
                <>
                  <StatusBadge status={t.status} />
                  {t.rolledBack !== null && <div className="muted">{t.rolledBack ? 'undone on the remote' : 'NOT undone on the remote'}</div>}
                </>
              ),
            },
            { header: 'Outcome', cell: (t) => <TransferOutcome transfer={t} /> },
            controlsColumn<RemoteTransfer>(
              (t) =>
                !isFinished(t) && (
                  <Button
                    variant="ghost"
                    className="btn-small danger-text"
                    busy={cancel.busy}
                    onClick={() =>
                      void cancel.run(async () => {
                        await localApi.call(cancelRemoteTransfer, { params: { transferId: t.id } });
                        onChanged();
                      })
                    }
                  >
                    Cancel
                  </Button>
                ),
            ),
          ]}
        />
      )}
    </section>
  );
}
