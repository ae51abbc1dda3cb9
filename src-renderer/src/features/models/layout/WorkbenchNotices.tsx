import { ProblemBanner } from '../../../lib/ui';
import { MergeOutcome } from '../MergeCheck';
import { useModels } from '../store';

/**
 * Failures and a merge's build, floating at the bottom right of the work area (as VS Code's
 * notifications): they stay until dismissed or done, and never push the editor down.
 */
export function WorkbenchNotices() {
  const error = useModels((s) => s.error);
  const setError = useModels((s) => s.setError);
  return (
    <div className="wb-notices">
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
      <MergeOutcome />
    </div>
  );
}
