import './plain.css';
import { plainFailure } from './problems';

/**
 * A job's failure where a list has room for a line (job and transfer history): the plain words,
 * the fix unless `compact`, and the code with the job's own message behind "details". Clicking
 * "details" does not open the row it sits in.
 */
export function FailureSummary({ error, compact = false }: { error: { code?: string | null; message?: string | null } | null | undefined; compact?: boolean }) {
  const plain = plainFailure(error);
  const hidden = plain.code || (plain.message && plain.message !== plain.said);
  return (
    <span className="failure-summary">
      <span className="failure-said">{plain.said}</span>
      {!compact && plain.fix && <span className="failure-fix"> {plain.fix}</span>}
      {hidden && (
        <details className="failure-details" onClick={(e) => e.stopPropagation()}>
          <summary>details</summary>
          {plain.code && <code className="problem-code">{plain.code}</code>}
          {plain.message && plain.message !== plain.said && <span className="failure-message"> {plain.message}</span>}
        </details>
      )}
    </span>
  );
}
