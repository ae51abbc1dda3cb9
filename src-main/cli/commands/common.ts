// What every API command starts with: the connection, the output, the progress display.
import { connect, type Connection, type ConnectionOptions } from '../api/connection';
import type { JobInfo, JobRef } from '../api/jobs';
import { resolveDeployment } from '../api/resolve';
import type { WaitOutcome } from '../api/wait';
import { createOutput, type Output } from '../output';
import { createProgress, type Progress } from '../progress';
import type { Deployment } from '../../../src-shared/api/deployments';

export interface CommandContext {
  conn: Connection;
  out: Output;
  progress: Progress;
}

export async function setup(options: ConnectionOptions): Promise<CommandContext> {
  const json = Boolean(options.json);
  const out = createOutput(json);
  const conn = await connect(options);
  return { conn, out, progress: await createProgress(json) };
}

export async function withDeployment(options: ConnectionOptions): Promise<CommandContext & { deployment: Deployment }> {
  const ctx = await setup(options);
  ctx.progress.update('Finding the deployment…');
  try {
    return { ...ctx, deployment: await resolveDeployment(ctx.conn, options.deployment) };
  } finally {
    ctx.progress.stop();
  }
}

/**
 * After a start request: with --no-wait, prints the job and returns null; otherwise waits (with
 * progress; Ctrl-C cancels) and returns the outcome, throwing unless the job completed.
 */
export async function followJob(
  ctx: CommandContext,
  ref: JobRef,
  options: { wait: boolean; allowPartial?: boolean },
): Promise<WaitOutcome | null> {
  // Loaded here: the job vocabulary reads every job area's contract, which most commands never need.
  const [{ getJob }, { assertCompleted, describeJob, waitForJob }] = await Promise.all([import('../api/jobs'), import('../api/wait')]);
  const job = await getJob(ctx.conn, ref);
  if (!options.wait) {
    ctx.out.result({ job });
    ctx.out.line(`Started ${describeJob(job)} (${job.status}). Follow it with: drydock jobs wait ${job.id} -d ${job.deploymentId}`);
    return null;
  }
  const outcome = await waitForJob(ctx.conn, job, ctx.progress, ctx.out.note, ctx.out.json ? undefined : `Started ${describeJob(job)}.`);
  assertCompleted(outcome, { allowPartial: options.allowPartial });
  return outcome;
}

export const jobLine = (job: JobInfo) =>
  `${job.kind} job ${job.id}: ${job.status}${job.error ? ` (${job.error.code}: ${job.error.message})` : ''}`;
