// The Review view of Models (issue 26): what the open branch changes against where it left its parent —
// members added, removed, renamed or changed (each at its file and line), what breaks, the queries
// whose numbers move (before → after), and the model tests' outcome. The review runs on the service
// (a stored one answers for the same commit pair); "Review again" reruns the queries on today's data.
import type { ModelChange, QueryDiff, ReviewResult } from '../../../../../src-shared/api/reviews';
import { changeLine, locationOf, rowChangeLines, short, totalLines, verdictLine } from '../../../../../src-shared/model/review/describe';
import { navigate } from '../../../app/router';
import { plural } from '../../../lib/plural';
import { Button, EmptyState, ProblemBanner, Spinner } from '../../../lib/ui';
import { goTo } from '../navigation';
import { currentBranch, useModels } from '../store';
import { useBranchReview, useTestRun } from './jobs';
import { TestOutcome } from './TestOutcome';
import './review.css';

const KINDS: { kind: ModelChange['kind']; title: string }[] = [
  { kind: 'added', title: 'Added' },
  { kind: 'removed', title: 'Removed' },
  { kind: 'renamed', title: 'Renamed' },
  { kind: 'changed', title: 'Changed' },
];

function Changes({ result, onReveal }: { result: ReviewResult; onReveal: (at: { file: string; line: number; column: number }) => void }) {
  if (result.changes.length === 0) return <p className="muted">No member, join or view changed.</p>;
  return (
    <>
      {KINDS.map(({ kind, title }) => {
        const changes = result.changes.filter((c) => c.kind === kind);
        if (changes.length === 0) return null;
        return (
          <div key={kind} className="review-group">
            <h4>
              {title} ({changes.length})
            </h4>
            <ul className="review-list">
              {changes.map((c, i) => {
                const at = locationOf(c);
                return (
                  <li key={i}>
                    <span className={`review-effect review-effect-${c.effect}`}>{c.effect}</span> {changeLine(c)}{' '}
                    {at && (
                      <button type="button" className="link" onClick={() => onReveal(at)}>
                        {at.file}:{at.line}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </>
  );
}

/** What the change reaches through lineage, one line per kind: "Widgets (2): Sales overview › Orders by status, …". */
function Reaches({ result }: { result: ReviewResult }) {
  const { impact } = result;
  const widgets = [...new Set(impact.widgets.map((w) => `${w.workbookName} › ${w.title ?? w.widgetId}${w.status === 'breaks' ? ' (breaks)' : ''}`))];
  const rows: [string, string[]][] = [
    ['Views', impact.views.map((v) => (v.removed ? `${v.name} (removed)` : v.name))],
    ['Dashboard widgets', widgets],
    ['Reports', impact.reports.map((r) => r.name)],
    ['Pushed semantic views', impact.pushedViews.map((p) => `${p.semanticView}${p.status === 'breaks' ? ' (breaks)' : ''}`)],
    ['Published metric views', impact.publishedViews.map((p) => `${p.target}${p.status === 'breaks' ? ' (breaks)' : ''}`)],
    ['Notifications', impact.notifications.map((n) => n.name)],
    ['Scheduled tasks', impact.scheduledTasks.map((t) => t.name)],
  ];
  const reached = rows.filter(([, names]) => names.length > 0);
  if (reached.length === 0) return <p className="muted">Nothing uses what changed.</p>;
  return (
    <ul className="review-list" aria-label="What the change reaches">
      {reached.map(([kind, names]) => (
        <li key={kind}>
          <strong>
            {kind} ({names.length}):
          </strong>{' '}
          {names.join(', ')}
        </li>
      ))}
    </ul>
  );
}

function QueryLines({ q }: { q: QueryDiff }) {
  const lines = [...totalLines(q), ...rowChangeLines(q, 3)];
  return (
    <li>
      <strong>{q.label}</strong>
      {q.truncated ? <span className="muted"> (first rows only)</span> : null}
      {lines.length > 0 && (
        <ul className="review-moves">
          {lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Numbers({ result }: { result: ReviewResult }) {
  const { dataDiff } = result;
  if (!dataDiff.enabled) return <p className="muted">The data diff was not run.</p>;
  const changed = dataDiff.queries.filter((q) => q.status === 'changed');
  const failed = dataDiff.queries.filter((q) => q.status === 'failed' || q.status === 'skipped');
  const same = dataDiff.queries.length - changed.length - failed.length;
  return (
    <>
      <p className="muted">
        {plural(dataDiff.queries.length, 'affected query', 'affected queries')} run on both sides in {Math.round(dataDiff.durationMs).toLocaleString('en-US')} ms: {changed.length} changed, {same} the same
        {failed.length ? `, ${failed.length} not compared` : ''}
        {dataDiff.budgetExhausted ? ' (the time budget ran out)' : ''}.
      </p>
      {changed.length > 0 && (
        <ul className="review-list" aria-label="Queries whose numbers change">
          {changed.map((q) => (
            <QueryLines key={q.id} q={q} />
          ))}
        </ul>
      )}
      {failed.length > 0 && (
        <ul className="review-list" aria-label="Queries not compared">
          {failed.map((q) => (
            <li key={q.id}>
              <strong>{q.label}</strong>: {q.error ? `${q.error.side === 'both' ? 'both sides' : `the ${q.error.side === 'base' ? 'base' : 'branch'}`} — ${q.error.message}` : q.status}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ReviewView({ deploymentId }: { deploymentId: number }) {
  const branch = useModels((s) => currentBranch(s));
  const review = useBranchReview(deploymentId, branch?.branchName, undefined, branch?.headCommit, branch !== undefined);
  const tests = useTestRun(deploymentId, branch?.branchName);
  const reveal = (at: { file: string; line: number; column: number }) => {
    navigate(`/models/${deploymentId}`);
    goTo(at.file, { line: at.line, column: at.column });
  };
  if (!branch) return <Spinner label="Loading the branch…" />;
  const { result } = review;
  const line = result ? verdictLine(result) : null;
  return (
    <section className="review-view" aria-label="Review">
      <header className="review-head">
        <div className="review-title">
          <h3>Review of {branch.branchName}</h3>
          {result && (
            <span className="muted">
              {short(result.head.commit)} against {result.base.ref} ({short(result.base.commit)})
            </span>
          )}
        </div>
        <Button className="btn-small" busy={review.loading} onClick={review.refresh}>
          Review again
        </Button>
      </header>
      <ProblemBanner error={review.error} />
      {review.loading && <Spinner label={`Reviewing ${branch.branchName}… ${review.review ? `${review.review.progress.percentComplete} %` : ''}`} />}
      {result && line && (
        <>
          <p className={`review-verdict review-verdict-${line.tone}`} role="status" aria-label="Review verdict">
            {line.text}
          </p>
          {(['base', 'head'] as const).map((side) => {
            const problems = result.problems[side];
            return problems ? (
              <p key={side} className="notice">
                The {side === 'base' ? 'base' : 'branch'} has {plural(problems.errorCount, 'compile error')}; not reviewed: {problems.entities.join(', ') || 'no cube or view'}.
              </p>
            ) : null;
          })}
          <h3>What changed</h3>
          <Changes result={result} onReveal={reveal} />
          {result.impact.breaking.length > 0 && (
            <>
              <h3>What breaks</h3>
              <ul className="review-list review-breaks">
                {result.impact.breaking.map((b, i) => (
                  <li key={i}>
                    {b.kind} <strong>{b.subject}</strong>: {b.message}
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>What it reaches</h3>
          <Reaches result={result} />
          <h3>Numbers</h3>
          <Numbers result={result} />
        </>
      )}
      {!review.loading && !result && !review.error && <EmptyState title="Nothing to review" />}
      <h3>Model tests</h3>
      <TestOutcome tests={tests} onReveal={reveal} />
    </section>
  );
}
