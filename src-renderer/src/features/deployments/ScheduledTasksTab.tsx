import { useEffect, useState, type FormEvent } from 'react';
import {
  createScheduledTask,
  deleteScheduledTask,
  listScheduledTaskRuns,
  listScheduledTasks,
  runScheduledTask,
  type ScheduledTask,
  type ScheduledTaskRun,
} from '../../../../src-shared/api/scheduled-tasks';
import type { LiveEvent } from '../../../../src-shared/api/events';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { DataTable, ListState } from '../../lib/DataTable';
import { errorFor } from '../../lib/errors';
import { offersRetry } from '../../lib/retry';
import { RetryControl } from '../../lib/RetryControl';
import { Badge, Button, EmptyState, Field, ProblemBanner, Time } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { isRunNamed, scheduleText, taskRunReplay, taskState } from './task-runs';

const RUN_TONES: Record<ScheduledTaskRun['status'], 'neutral' | 'info' | 'good' | 'bad' | 'warn'> = {
  QUEUED: 'neutral',
  RUNNING: 'info',
  COMPLETED: 'good',
  FAILED: 'bad',
  CANCELLED: 'warn',
};
const STATE_TONES = { active: 'good', paused: 'warn', manual: 'neutral' } as const;
/** Tasks whose runs are listed here (the service keeps each task's 50 newest runs). */
const TASKS_SHOWN = 50;

export const tasksPath = (deploymentId: number, runOrJobId?: string) => `/deployments/${deploymentId}/tasks${runOrJobId ? `/${encodeURIComponent(runOrJobId)}` : ''}`;

/** Runs and task changes of this deployment, from any window: the lists follow them. */
const liveTasksOf = (deploymentId: number) => (e: LiveEvent) =>
  (e.type === 'job' && e.deploymentId === deploymentId && e.job.kind === 'scheduled-task-run') ||
  (e.type === 'write' && e.deploymentId === deploymentId && /ScheduledTask/.test(e.operationId));

type RunRow = ScheduledTaskRun & { taskName: string };

/**
 * Deployments › Scheduled tasks: the deployment's agent tasks (new, run now, delete) and their
 * runs, newest first; a failed run can be retried. `focus` (a run or job id, from a notification
 * or a retry) marks that run.
 */
export function ScheduledTasksTab({ deploymentId, focus }: { deploymentId: number; focus?: string }) {
  const live = liveTasksOf(deploymentId);
  const tasks = useQuery(
    async (signal) => (await api.call(listScheduledTasks, { params: { deploymentId }, query: { first: 1000 }, signal })).items,
    [deploymentId],
    'Loading scheduled tasks',
    live,
  );
  const taskIds = (tasks.data ?? []).slice(0, TASKS_SHOWN).map((t) => t.id);
  const runs = useQuery(
    async (signal) => {
      const byTask = await Promise.all(
        (tasks.data ?? []).slice(0, TASKS_SHOWN).map(async (task) => {
          const page = await api.call(listScheduledTaskRuns, { params: { deploymentId, taskId: task.id }, signal });
          return page.items.map((run): RunRow => ({ ...run, taskName: task.name }));
        }),
      );
      return byTask.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    [deploymentId, taskIds.join(',')],
    'Loading the runs',
    live,
  );
  const [creating, setCreating] = useState(false);
  const act = useAction('Changing the task');

  const runNow = (task: ScheduledTask) =>
    void act.run(async () => {
      const run = await api.call(runScheduledTask, { params: { deploymentId, taskId: task.id } });
      navigate(tasksPath(deploymentId, run.id));
      runs.reload();
    }, `Running “${task.name}”`);
  const [deleting, setDeleting] = useState<ScheduledTask | null>(null);

  return (
    <div className="detail-stack">
      <section className="panel" aria-label="Scheduled tasks">
        <div className="panel-head">
          <h2>Scheduled tasks {tasks.data && <span className="count">{tasks.data.length}</span>}</h2>
          <Button className="btn-small" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            New task…
          </Button>
        </div>
        <p className="muted">A saved question the deployment’s agent answers on a schedule or on demand; each run writes a chat thread.</p>
        <ProblemBanner error={tasks.error} />
        <ProblemBanner error={act.error} onDismiss={() => act.setError(null)} />
        {creating && (
          <NewTaskForm
            deploymentId={deploymentId}
            onCreated={() => {
              setCreating(false);
              tasks.reload();
            }}
            onCancel={() => setCreating(false)}
          />
        )}
        <ListState rows={tasks.data} loading={tasks.loading} empty={<EmptyState title="No scheduled tasks yet" />}>
          {(rows) => (
            <DataTable
              label="Task list"
              rows={rows}
              rowKey={(t) => t.id}
              columns={[
                { header: 'Name', cell: (t) => <strong>{t.name}</strong> },
                { header: 'Schedule', cell: (t) => <code>{scheduleText(t)}</code> },
                { header: 'State', cell: (t) => <Badge tone={STATE_TONES[taskState(t)]}>{taskState(t)}</Badge> },
                { header: 'Next run', priority: 2, cell: (t) => (t.nextRunAt ? <Time value={t.nextRunAt} /> : <span className="muted">—</span>) },
                { header: 'Last run', priority: 1, cell: (t) => (t.lastRunAt ? <Time value={t.lastRunAt} /> : <span className="muted">never</span>) },
              ]}
              actions={[
                { label: 'Run now', ariaLabel: (t) => `Run ${t.name} now`, onClick: runNow, disabled: () => act.busy },
                { label: 'Delete', ariaLabel: (t) => `Delete ${t.name}`, onClick: setDeleting, danger: true, disabled: () => act.busy },
              ]}
            />
          )}
        </ListState>
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete task"
        action="Deleting the task"
        onConfirm={async () => {
          await api.call(deleteScheduledTask, { params: { deploymentId, taskId: deleting!.id } });
          setDeleting(null);
          tasks.reload();
        }}
        onClose={() => setDeleting(null)}
      >
        <p>The task and its runs are deleted; the chat threads its runs wrote stay.</p>
      </ConfirmDialog>
      <RunList deploymentId={deploymentId} tasks={tasks.data ?? []} runs={runs.data} loading={runs.loading} error={runs.error} focus={focus} />
    </div>
  );
}

function RunList({
  deploymentId,
  tasks,
  runs,
  loading,
  error,
  focus,
}: {
  deploymentId: number;
  tasks: ScheduledTask[];
  runs: RunRow[] | null;
  loading: boolean;
  error: ReturnType<typeof useQuery>['error'];
  focus?: string;
}) {
  const focused = runs?.find((r) => isRunNamed(r, focus));
  useEffect(() => {
    if (focused) document.getElementById(`task-run-${focused.id}`)?.scrollIntoView({ block: 'nearest' });
  }, [focused?.id]);
  return (
    <section className="panel" aria-label="Task runs">
      <h2>Runs {runs && <span className="count">{runs.length}</span>}</h2>
      <ProblemBanner error={error} />
      {focus && runs && !focused && <p className="muted">The run {focus} is not among the runs listed (its task may have been deleted).</p>}
      <ListState rows={runs} loading={loading} empty={<EmptyState title="No runs yet">“Run now” on a task starts one.</EmptyState>}>
        {(rows) => (
          <DataTable
            label="Runs of scheduled tasks"
            rows={rows}
            rowKey={(r) => r.id}
            rowClassName={(r) => (r === focused ? 'selected' : undefined)}
            columns={[
              { header: 'Started', cell: (r) => <span id={`task-run-${r.id}`}><Time value={r.createdAt} /></span> },
              { header: 'Task', cell: (r) => r.taskName },
              { header: 'Trigger', priority: 1, cell: (r) => r.trigger },
              { header: 'Status', cell: (r) => <Badge tone={RUN_TONES[r.status]}>{r.status}</Badge> },
              { header: 'Outcome', cell: (r) => <RunOutcome run={r} />, cellClassName: 'wrap-cell' },
              {
                header: '',
                label: 'Retry',
                cell: (r) =>
                  offersRetry(r.status) && (
                    <RetryControl
                      replayWith={() => taskRunReplay(r, tasks.find((t) => t.id === r.taskId))}
                      start={async ({ taskId }) => {
                        const started = await api.call(runScheduledTask, { params: { deploymentId, taskId } });
                        navigate(tasksPath(deploymentId, started.id));
                      }}
                      compact
                      label="Retry run"
                      ariaLabel={`Retry the run of ${r.taskName} from ${new Date(r.createdAt).toLocaleString()}`}
                      title="Ask the agent the same question again, as a new run"
                      doing="Retrying the run"
                      buttonClassName="btn-small"
                    />
                  ),
              },
            ]}
          />
        )}
      </ListState>
    </section>
  );
}

function RunOutcome({ run }: { run: ScheduledTaskRun }) {
  if (run.status === 'COMPLETED') return <span title={run.output ?? undefined}>{(run.output ?? '').slice(0, 160)}{(run.output ?? '').length > 160 ? '…' : ''}</span>;
  if (run.error) {
    return (
      <span className="transfer-error">
        <code>{run.error.code}</code> {run.error.message}
      </span>
    );
  }
  return <span className="muted">{run.status === 'QUEUED' ? 'waiting to start' : run.status === 'RUNNING' ? 'asking the agent…' : ''}</span>;
}

function NewTaskForm({ deploymentId, onCreated, onCancel }: { deploymentId: number; onCreated: () => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [cron, setCron] = useState('');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const create = useAction('Creating the task');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      await api.call(createScheduledTask, {
        params: { deploymentId },
        body: { name: name.trim(), prompt, cron: cron.trim() === '' ? null : cron.trim(), ...(timezone.trim() ? { timezone: timezone.trim() } : {}) },
      });
      onCreated();
    });
  };
  return (
    <form className="form" onSubmit={submit} aria-label="New scheduled task">
      <ProblemBanner error={create.error} />
      <Field label="Name" htmlFor="task-name" error={errorFor(create.error, 'name')}>
        <input id="task-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={255} autoFocus />
      </Field>
      <Field label="Question for the agent" htmlFor="task-prompt" error={errorFor(create.error, 'prompt')}>
        <textarea id="task-prompt" value={prompt} onChange={(e) => setPrompt(e.target.value)} required rows={3} maxLength={20_000} />
      </Field>
      <Field label="Schedule (cron)" htmlFor="task-cron" hint="Five fields, at most hourly, e.g. 0 9 * * 1-5; leave empty to run only on demand." error={errorFor(create.error, 'cron')}>
        <input id="task-cron" value={cron} onChange={(e) => setCron(e.target.value)} spellCheck={false} placeholder="empty: on demand only" />
      </Field>
      <Field label="Time zone" htmlFor="task-timezone" error={errorFor(create.error, 'timezone')}>
        <input id="task-timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)} spellCheck={false} />
      </Field>
      <div className="form-actions">
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={create.busy} disabled={!name.trim() || !prompt.trim()}>
          Create task
        </Button>
      </div>
    </form>
  );
}
