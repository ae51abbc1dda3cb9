// Waiting for a job with a progress display. Ctrl-C (or SIGTERM from a CI runner) while waiting
// asks the service to cancel the job and keeps waiting until it has stopped, so the command ends
// with the job's real final state; a second Ctrl-C stops waiting at once (the cancel stays requested).
import { CliError, ExitCodes } from '../output';
import type { Progress } from '../progress';
import type { Connection } from './connection';
import { cancelJob, getJob, isTerminal, type JobInfo } from './jobs';

const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 2_000;

export interface WaitOutcome {
  job: JobInfo;
  /** The user interrupted the wait and the job was asked to cancel. */
  interrupted: boolean;
}

export const describeJob = (job: JobInfo) => `${job.kind} job ${job.id}`;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Waits for `start` to end. `announce` is noted once Ctrl-C cancels the job, never before: a user
 * (or a script) who stops the command right after reading it would otherwise leave the job running.
 */
export async function waitForJob(conn: Connection, start: JobInfo, progress: Progress, note: (text: string) => void, announce?: string): Promise<WaitOutcome> {
  let job = start;
  let interrupted = false;
  const giveUp = new AbortController();
  const onSignal = () => {
    if (interrupted) {
      giveUp.abort();
      return;
    }
    interrupted = true;
    progress.stop();
    note(`Cancelling ${describeJob(job)}… (press Ctrl-C again to stop waiting; the cancellation stays requested)`);
    cancelJob(conn, job)
      .then((cancelled) => (job = cancelled))
      .catch((error: Error) => note(`Could not request the cancellation: ${error.message}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (announce !== undefined) note(announce);
  try {
    let delay = FIRST_POLL_MS;
    while (!isTerminal(job.status)) {
      if (!interrupted) progress.update(`${describeJob(job)}: ${job.status.toLowerCase()}, ${job.stage} (${job.percentComplete}%)`);
      await sleep(delay, giveUp.signal);
      if (giveUp.signal.aborted) break;
      delay = Math.min(Math.round(delay * 1.5), MAX_POLL_MS);
      try {
        job = await getJob(conn, job, giveUp.signal);
      } catch (error) {
        if (giveUp.signal.aborted) break;
        throw error;
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    progress.stop();
  }
  if (giveUp.signal.aborted) {
    throw new CliError('INTERRUPTED', `Stopped waiting for ${describeJob(job)}; its cancellation was requested (\`drydock jobs show ${job.id}\`).`, ExitCodes.INTERRUPTED);
  }
  return { job, interrupted };
}

/** Throws unless the job COMPLETED (PARTIAL is left to the caller, which may show what did succeed). */
export function assertCompleted(outcome: WaitOutcome, { allowPartial = false } = {}): void {
  const { job, interrupted } = outcome;
  if (job.status === 'COMPLETED' || (allowPartial && job.status === 'PARTIAL')) return;
  if (job.status === 'CANCELLED') {
    throw new CliError('JOB_CANCELLED', `${describeJob(job)} was cancelled${interrupted ? ' at your request' : ''}.`, interrupted ? ExitCodes.INTERRUPTED : ExitCodes.FAILURE);
  }
  if (job.status === 'PARTIAL') throw new CliError('JOB_PARTIAL', `${describeJob(job)} completed only in part.`);
  const error = job.error ?? { code: 'JOB_FAILED', message: `${describeJob(job)} ended ${job.status}.` };
  throw new CliError(error.code, error.message, ExitCodes.FAILURE, { job });
}
