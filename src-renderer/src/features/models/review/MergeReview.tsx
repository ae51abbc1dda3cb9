// The merge dialog's review line (issue 26): beside validation, what the merge does to the numbers, in
// one line ("2 dashboard widgets change: Sales overview › Orders by status, returned: total_amount
// 12,345 → 0"), with a link to the branch's Review view for the rest.
import { verdictLine } from '../../../../../src-shared/model/review/describe';
import { ProblemBanner, Spinner } from '../../../lib/ui';
import { ModelsIcon } from '../icons';
import type { ReviewState } from './jobs';

const STAGES: Record<string, string> = {
  queued: 'Waiting to review',
  'reading-uses': 'Finding what uses the model',
  compiling: 'Comparing the models',
  querying: 'Running the affected queries on both sides',
  comparing: 'Comparing the numbers',
};

export function MergeReview({ review, onOpen }: { review: ReviewState; onOpen: () => void }) {
  const { result, error, loading } = review;
  if (error) return <ProblemBanner error={error} />;
  if (loading || !result) {
    const stage = review.review?.progress.stage;
    return <Spinner label={`${(stage && STAGES[stage]) ?? 'Reviewing the change'}…`} />;
  }
  const line = verdictLine(result);
  return (
    <div className={`merge-check merge-review merge-review-${line.tone}`} role="status" aria-label="Review">
      {line.tone === 'same' ? <ModelsIcon name="check" /> : null} <strong>Review:</strong> {line.text}{' '}
      <button type="button" className="link" onClick={onOpen}>
        Open the review
      </button>
    </div>
  );
}
