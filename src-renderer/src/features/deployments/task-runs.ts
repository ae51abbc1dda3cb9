// Scheduled task runs (issue 14 item 8): words for a task's schedule and the Retry rule of a failed
// run. Pure (unit-tested); ScheduledTasksTab.tsx draws them.
import type { ScheduledTask, ScheduledTaskRun } from '../../../../src-shared/api/scheduled-tasks';
import type { Replay } from '../../lib/retry';

/** `0 9 * * 1-5 (Europe/Berlin)`, or "manual only". */
export const scheduleText = (task: Pick<ScheduledTask, 'cron' | 'timezone'>): string => (task.cron === null ? 'manual only' : `${task.cron} (${task.timezone})`);

/** Active (scheduled and enabled), paused, or run on demand only. */
export const taskState = (task: Pick<ScheduledTask, 'cron' | 'enabled'>): 'active' | 'paused' | 'manual' =>
  !task.enabled ? 'paused' : task.cron === null ? 'manual' : 'active';

/**
 * A failed or cancelled run asked the agent the task's prompt as it was then. Running the task again
 * sends the same request only while the task is unchanged since that run: a task deleted or edited
 * afterwards (prompt, schedule, paused) is refused, saying to use "Run now" for the task as it is.
 */
export function taskRunReplay(
  run: Pick<ScheduledTaskRun, 'taskId' | 'createdAt'>,
  task: Pick<ScheduledTask, 'id' | 'name' | 'updatedAt'> | undefined,
): Replay<{ taskId: string }> {
  if (!task || task.id !== run.taskId) return { ok: false, reason: 'The task of this run was deleted, so it cannot run again.' };
  if (Date.parse(task.updatedAt) > Date.parse(run.createdAt)) {
    return { ok: false, reason: `The task “${task.name}” was changed after this run, so the same request cannot be sent again; “Run now” runs it as it is now.` };
  }
  return { ok: true, body: { taskId: task.id } };
}

/** The run a path names (`/deployments/3/tasks/<run or job id>`), matched by run id or job id. */
export const isRunNamed = (run: Pick<ScheduledTaskRun, 'id' | 'jobId'>, name: string | undefined): boolean =>
  name !== undefined && (run.id === name || run.jobId === name);
