// "Run tests" and what came of it (issue 26): the model tests of the branch (`tests/*.yml`) run on the
// service; the outcome is one line, then each failing test at its file and line.
import type { TestRun } from '../../../../../src-shared/api/model-tests';
import { plural } from '../../../lib/plural';
import { Button, ProblemBanner, Spinner } from '../../../lib/ui';
import { ModelsIcon } from '../icons';
import type { useTestRun } from './jobs';
import './review.css';

const SHOWN = 5;

/** The outcome in one line: "12 tests passed in 340 ms", "2 of 12 tests failed", "No model tests". */
export function testOutcomeLine(run: TestRun): string {
  const s = run.summary;
  const problems = run.diagnostics?.filter((d) => d.severity === 'error').length ?? 0;
  const fileProblems = problems ? `; the test files have ${plural(problems, 'problem')}` : '';
  if (run.status === 'FAILED' || run.status === 'CANCELLED') return `The test run ${run.status === 'FAILED' ? 'failed' : 'was cancelled'}${run.error ? `: ${run.error.message}` : '.'}`;
  if (!s || run.outcome === 'none') return `No model tests on ${run.branchName}: add tests/*.yml to the repository${fileProblems}.`;
  const time = `${Math.round(s.durationMs).toLocaleString('en-US')} ms`;
  const bad = s.failed + s.errors;
  if (bad === 0) return `${plural(s.passed, 'test')} passed in ${time}${s.skipped ? `, ${s.skipped} skipped` : ''}${fileProblems}.`;
  const couldNot = s.errors ? ` (${plural(s.errors, 'test')} could not run)` : '';
  return `${bad} of ${plural(s.total, 'test')} ${bad === 1 ? 'fails' : 'fail'}${couldNot}${fileProblems}.`;
}

export function TestOutcome({ tests, onReveal }: { tests: ReturnType<typeof useTestRun>; onReveal: (at: { file: string; line: number; column: number }) => void }) {
  const { run, error, running, start } = tests;
  const done = run && !running ? run : null;
  const failing = done?.results?.filter((r) => r.status === 'failed' || r.status === 'error') ?? [];
  const passed = done?.outcome === 'passed';
  return (
    <div className={`test-outcome ${done ? (passed ? 'test-outcome-good' : done.outcome === 'none' ? '' : 'test-outcome-bad') : ''}`} role="status" aria-label="Model tests">
      <div className="test-outcome-head">
        <Button className="btn-small" busy={running} onClick={() => void start()}>
          {done ? 'Run tests again' : 'Run tests'}
        </Button>
        {running && <Spinner label={run ? `Running the model tests… ${run.progress.percentComplete} %` : 'Starting the model tests…'} />}
        {done && passed && <ModelsIcon name="check" />}
        {done && <span className="test-outcome-line">{testOutcomeLine(done)}</span>}
        {!run && !running && !error && <span className="muted">Runs the branch’s tests/*.yml on their fixture tables.</span>}
      </div>
      <ProblemBanner error={error} />
      {failing.length > 0 && (
        <ul className="test-outcome-list">
          {failing.slice(0, SHOWN).map((r) => {
            const first = r.failures[0];
            const at = { file: r.file, line: first?.line ?? r.line, column: first?.column ?? r.column };
            return (
              <li key={`${r.file}:${r.line}:${r.name}`}>
                <button type="button" className="link" onClick={() => onReveal(at)} title={`Open ${at.file}:${at.line}`}>
                  {at.file}:{at.line}
                </button>{' '}
                <strong>{r.name}</strong>: {first?.message ?? r.message ?? r.status}
              </li>
            );
          })}
          {failing.length > SHOWN && <li className="muted">…and {plural(failing.length - SHOWN, 'more failing test')}</li>}
        </ul>
      )}
    </div>
  );
}
