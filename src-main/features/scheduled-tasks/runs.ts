import { randomUUID } from 'node:crypto';
import { RUNS_LISTED, ScheduledTaskErrorCodes as Codes, type ScheduledTaskRun, type ScheduledTaskRunStatus } from '../../../src-shared/api/scheduled-tasks';
import { AgentError } from '../../connectors/agent';
import type { ServiceContext } from '../../context';
import {
  getJobRunner,
  isTerminal,
  JobFailure,
  RetryableJobError,
  type Job,
  type JobContext,
  type JobErrorInfo,
} from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { getBranchHead, getDeployBranch, modelRepositoryDir } from '../data-model';
import { agentFor } from './agent';
import { getTaskRow, type TaskRow } from './tasks';

export const RUN_KIND = 'scheduled-task-run';

export interface RunJobInputs {
  runId: string;
}
export interface RunJobResult {
  runId: string;
  threadId: string | null;
}

export interface RunRow {
  seq: number;
  id: string;
  task_id: string;
  deployment_id: number;
  trigger: 'scheduled' | 'manual';
  scheduled_for: string | null;
  status: ScheduledTaskRunStatus;
  job_id: string | null;
  thread_id: string | null;
  output: string | null;
  error: string | null;
  created_by: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const getRun = (ctx: ServiceContext, runId: string) => ctx.db.prepare('SELECT * FROM scheduled_task_runs WHERE id = ?').get(runId) as RunRow | undefined;

/**
 * Queues a run of the task: a run row plus its job. A scheduled run is unique per task and
 * scheduled time (the row's UNIQUE key and the job's idempotency key): null when it exists already.
 * Call inside a transaction.
 */
export function enqueueRun(
  ctx: ServiceContext,
  task: TaskRow,
  trigger: 'scheduled' | 'manual',
  scheduledFor: string | null,
  createdBy: number | null,
): RunRow | null {
  const now = ctx.clock.now().toISOString();
  const inserted = ctx.db
    .prepare(
      `INSERT INTO scheduled_task_runs (id, task_id, deployment_id, trigger, scheduled_for, status, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, 'QUEUED', ?, ?) ON CONFLICT (task_id, scheduled_for) DO NOTHING RETURNING *`,
    )
    .get(randomUUID(), task.id, task.deployment_id, trigger, scheduledFor, createdBy, now) as RunRow | undefined;
  if (!inserted) return null;
  // A run now, scheduled or manual, is the task's last run (the scheduler also moves next_run_at).
  ctx.db.prepare('UPDATE scheduled_tasks SET last_run_at = ? WHERE id = ?').run(now, task.id);
  const job = getJobRunner(ctx).enqueue<RunJobInputs>({
    kind: RUN_KIND,
    deploymentId: task.deployment_id,
    inputs: { runId: inserted.id },
    idempotencyKey: scheduledFor === null ? null : `${task.id}@${scheduledFor}`,
    idempotencyInputs: { taskId: task.id, scheduledFor },
    createdBy,
  });
  // Keep the most recent runs (the list shows 50); the chat threads of older runs stay.
  ctx.db
    .prepare(
      `DELETE FROM scheduled_task_runs WHERE task_id = ? AND status IN ('COMPLETED', 'FAILED', 'CANCELLED')
         AND seq NOT IN (SELECT seq FROM scheduled_task_runs WHERE task_id = ? ORDER BY seq DESC LIMIT ?)`,
    )
    .run(task.id, task.id, RUNS_LISTED);
  return ctx.db.prepare('UPDATE scheduled_task_runs SET job_id = ? WHERE id = ? RETURNING *').get(job.id, inserted.id) as RunRow;
}

const parseError = (text: string | null): { code: string; message: string } | null => {
  if (text === null) return null;
  const info = JSON.parse(text) as JobErrorInfo;
  return { code: info.code, message: info.message };
};

/** The run as the API shows it; a run whose job ended without the handler recording it takes the job's ending. */
export function toRun(ctx: ServiceContext, row: RunRow): ScheduledTaskRun {
  let status = row.status;
  let error = parseError(row.error);
  let startedAt = row.started_at;
  let finishedAt = row.finished_at;
  if ((status === 'QUEUED' || status === 'RUNNING') && row.job_id !== null) {
    const job = getJobRunner(ctx).get(row.job_id);
    if (!job) {
      status = 'FAILED';
      error = { code: 'JOB_LOST', message: `The job of run ${row.id} no longer exists.` };
    } else if (isTerminal(job.status)) {
      status = job.status === 'CANCELLED' ? 'CANCELLED' : 'FAILED';
      error = job.error ? { code: job.error.code, message: job.error.message } : error;
      finishedAt = job.finishedAt;
    } else if (job.status !== 'QUEUED') {
      status = 'RUNNING';
    }
    startedAt ??= job?.startedAt ?? null;
  }
  return {
    id: row.id,
    taskId: row.task_id,
    deploymentId: row.deployment_id,
    trigger: row.trigger,
    status,
    scheduledFor: row.scheduled_for,
    jobId: row.job_id,
    threadId: row.thread_id,
    output: row.output,
    agent: agentOf(ctx, row.thread_id),
    error,
    createdBy: row.created_by,
    createdAt: row.created_at,
    startedAt,
    finishedAt,
  };
}

function agentOf(ctx: ServiceContext, threadId: string | null): string | null {
  if (threadId === null) return null;
  const row = ctx.db
    .prepare("SELECT metadata FROM chat_messages WHERE thread_id = ? AND role = 'assistant' ORDER BY id DESC LIMIT 1")
    .get(threadId) as { metadata: string | null } | undefined;
  const metadata = row?.metadata ? (JSON.parse(row.metadata) as { agent?: string }) : null;
  return metadata?.agent ?? null;
}

export function listRuns(ctx: ServiceContext, taskId: string): ScheduledTaskRun[] {
  const rows = ctx.db.prepare('SELECT * FROM scheduled_task_runs WHERE task_id = ? ORDER BY seq DESC LIMIT ?').all(taskId, RUNS_LISTED) as RunRow[];
  return rows.map((row) => toRun(ctx, row));
}

/** Cancels the queued and running runs of a task (before it is deleted). */
export function cancelActiveRuns(ctx: ServiceContext, taskId: string): void {
  const rows = ctx.db
    .prepare("SELECT job_id FROM scheduled_task_runs WHERE task_id = ? AND status IN ('QUEUED', 'RUNNING') AND job_id IS NOT NULL")
    .all(taskId) as { job_id: string }[];
  for (const { job_id } of rows) getJobRunner(ctx).requestCancel(job_id);
}

function finishRun(ctx: ServiceContext, runId: string, status: 'FAILED' | 'CANCELLED', error: { code: string; message: string } | null): void {
  ctx.db
    .prepare(
      `UPDATE scheduled_task_runs SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status IN ('QUEUED', 'RUNNING')`,
    )
    .run(status, error ? JSON.stringify(error) : null, ctx.clock.now().toISOString(), runId);
}

/** Writes the run's chat thread (prompt and answer) and completes the run, atomically; null when the run is gone. */
function writeThread(
  ctx: ServiceContext,
  run: RunRow,
  task: TaskRow,
  reply: { content: string; agent: string; references: unknown; usage: unknown },
): string | null {
  return ctx.db.transaction(() => {
    if (!getRun(ctx, run.id)) return null;
    const now = ctx.clock.now().toISOString();
    const threadId = randomUUID();
    const when = (run.scheduled_for ?? run.created_at).slice(0, 16).replace('T', ' ');
    ctx.db
      .prepare(
        `INSERT INTO chat_threads (id, deployment_id, user_id, title, origin, scheduled_task_id, scheduled_task_run_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'scheduled-task', ?, ?, ?, ?)`,
      )
      .run(threadId, task.deployment_id, task.user_id, `${task.name} · ${when} UTC`, task.id, run.id, now, now);
    const message = ctx.db.prepare('INSERT INTO chat_messages (thread_id, role, content, metadata, created_at) VALUES (?, ?, ?, ?, ?)');
    message.run(threadId, 'user', task.prompt, JSON.stringify({ scheduledTaskId: task.id, trigger: run.trigger }), now);
    message.run(threadId, 'assistant', reply.content, JSON.stringify({ agent: reply.agent, references: reply.references, usage: reply.usage }), now);
    ctx.db
      .prepare("UPDATE scheduled_task_runs SET status = 'COMPLETED', thread_id = ?, output = ?, error = NULL, finished_at = ? WHERE id = ?")
      .run(threadId, reply.content, now, run.id);
    return threadId;
  })();
}

/** The job: read the deploy branch's model, ask the agent, write the thread. */
export async function runTaskJob(ctx: ServiceContext, job: Job<RunJobInputs>, jobCtx: JobContext): Promise<RunJobResult> {
  const runId = job.inputs.runId;
  const run = getRun(ctx, runId);
  // The task (and with it the run) was deleted, or an earlier attempt wrote the thread already.
  if (!run) throw new JobFailure(Codes.SCHEDULED_TASK_DELETED, `Run ${runId} no longer exists: its task was deleted.`, { status: 404 });
  if (run.thread_id !== null) return { runId, threadId: run.thread_id };
  const task = getTaskRow(ctx, run.task_id);
  if (!task) throw new JobFailure(Codes.SCHEDULED_TASK_DELETED, `The task of run ${runId} was deleted.`, { status: 404 });
  ctx.db
    .prepare("UPDATE scheduled_task_runs SET status = 'RUNNING', started_at = COALESCE(started_at, ?) WHERE id = ? AND status IN ('QUEUED', 'RUNNING')")
    .run(ctx.clock.now().toISOString(), runId);
  try {
    jobCtx.progress('reading-model', 10);
    const branch = await getDeployBranch(ctx, task.deployment_id);
    const commit = await getBranchHead(ctx, task.deployment_id, branch);
    // Compiled, and reduced to what the agent reads, on a compute thread.
    const model = await runCompute(
      ctx,
      'agentModelContext',
      { gitdir: await modelRepositoryDir(ctx, task.deployment_id), deploymentId: task.deployment_id, branch, commit },
      { signal: jobCtx.signal },
    );
    jobCtx.signal.throwIfAborted();
    jobCtx.progress('asking-agent', 40);
    const agent = await agentFor(ctx);
    const reply = await agent.ask({
      prompt: task.prompt,
      model,
      signal: jobCtx.signal,
    });
    jobCtx.signal.throwIfAborted();
    jobCtx.progress('writing-thread', 90);
    const threadId = writeThread(ctx, run, task, reply);
    jobCtx.log(threadId ? `answered by ${reply.agent}; thread ${threadId}` : 'the run was deleted before its answer was written');
    return { runId, threadId };
  } catch (error) {
    if (error instanceof AgentError && error.retryable && jobCtx.attempt < job.maxAttempts && !jobCtx.signal.aborted) {
      jobCtx.log(`agent failed, retrying: ${error.message}`, { code: error.code }, 'warn');
      throw new RetryableJobError(error.message, { code: error.code, cause: error, ...(error.options.retryAfterMs !== undefined ? { delayMs: error.options.retryAfterMs } : {}) });
    }
    if (jobCtx.isCancelRequested()) {
      finishRun(ctx, runId, 'CANCELLED', null);
    } else if (!jobCtx.signal.aborted) {
      // A shutdown or a lost lease hands the job to another worker: the run is not over then.
      const failure = error instanceof AgentError ? { code: error.code, message: error.message } : errorInfo(error);
      finishRun(ctx, runId, 'FAILED', failure);
      if (error instanceof AgentError) throw new JobFailure(error.code, error.message, { status: 502, cause: error });
    }
    throw error;
  }
}

function errorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof JobFailure) return { code: error.code, message: error.message };
  const e = error as { code?: unknown; detail?: unknown; message?: unknown };
  return {
    code: typeof e.code === 'string' ? e.code : 'SCHEDULED_TASK_RUN_FAILED',
    message: typeof e.detail === 'string' ? e.detail : typeof e.message === 'string' ? e.message : String(error),
  };
}
