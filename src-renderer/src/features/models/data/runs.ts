// Runs a query for the data preview: start (202), then poll the run — each poll waits up to a
// second on the service, so progress shows promptly without a busy loop — until it ends or the
// caller cancels (which asks the service to stop the query too).
import { cancelQueryRun, getQueryRun, startQueryRun, type QueryRun } from '../../../../../src-shared/api/queries';
import { api } from '../../../app/session';

export async function runQuery(
  deploymentId: number,
  branch: string | null,
  query: unknown,
  onUpdate: (run: QueryRun) => void,
  signal: AbortSignal,
): Promise<QueryRun> {
  let run = await api.call(startQueryRun, {
    params: { deploymentId },
    body: { query: query as Record<string, unknown>, ...(branch ? { branch } : {}) },
    signal,
  });
  onUpdate(run);
  const cancel = () => void api.call(cancelQueryRun, { params: { deploymentId, runId: run.id } }).catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    while (run.status === 'RUNNING') {
      if (signal.aborted) throw new DOMException('The query was cancelled.', 'AbortError');
      run = await api.call(getQueryRun, { params: { deploymentId, runId: run.id }, query: { waitMs: 1000 }, signal });
      onUpdate(run);
    }
    return run;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
