import type { RemoteTransfer } from '../../../../src-shared/api/remote-transfers';
import type { ShownError } from '../../lib/errors';
import { ProblemBanner, Spinner } from '../../lib/ui';
import { isFinished } from './remote';
import { StatusBadge, TransferOutcome } from './RemoteTransferHistory';

/** A transfer being followed: its stage and percentage while it runs, then how it ended. */
export function TransferProgress({ transfer, error }: { transfer: RemoteTransfer | null; error: ShownError | null }) {
  if (!transfer) return error ? <ProblemBanner error={error} /> : <Spinner label="Starting…" />;
  const done = isFinished(transfer);
  const tone = transfer.status === 'COMPLETED' ? 'good' : done ? 'bad' : 'info';
  return (
    <section className={`panel transfer-progress transfer-${tone}`} role="status" aria-label="Transfer status">
      <div className="transfer-head">
        <StatusBadge status={transfer.status} />
        <strong>
          {transfer.kind === 'workbook-promotion' ? 'Promotion' : 'Publish'} to {transfer.profileName}
        </strong>
        {!done && <span className="muted">{transfer.progress.stage}</span>}
      </div>
      {!done && (
        <progress max={100} value={transfer.progress.percentComplete} aria-label="Progress">
          {transfer.progress.percentComplete}%
        </progress>
      )}
      {done && (
        <p>
          <TransferOutcome transfer={transfer} />
        </p>
      )}
      <ProblemBanner error={error} />
    </section>
  );
}
