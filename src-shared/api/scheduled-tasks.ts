import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, PageInfo, Timestamp } from './contract';

/**
 * Scheduled tasks: a saved prompt the deployment's agent runs on a cron in an IANA time zone, or
 * only on demand (manual-only, `cron: null`). Each run writes a new chat thread. A task is active
 * when it is scheduled and enabled; a user has at most 20 active tasks across deployments.
 */
const TAG = 'Scheduled Tasks';
const D = '/api/v1/deployments/{deploymentId}';

export const MAX_ACTIVE_TASKS_PER_USER = 20;
export const RUNS_LISTED = 50;
export const RUN_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type ScheduledTaskRunStatus = (typeof RUN_STATUSES)[number];
export const RUN_TRIGGERS = ['scheduled', 'manual'] as const;

/** Stable `code`s of this area's problems and run errors. */
export const ScheduledTaskErrorCodes = {
  SCHEDULED_TASK_NOT_FOUND: 'SCHEDULED_TASK_NOT_FOUND',
  /** 400: not a five-field cron expression. */
  INVALID_CRON: 'INVALID_CRON',
  /** 400: the cron fires more than once an hour (the minute field is not a single number). */
  CRON_TOO_FREQUENT: 'CRON_TOO_FREQUENT',
  /** 400: not an IANA time zone. */
  INVALID_TIMEZONE: 'INVALID_TIMEZONE',
  /** 409: create or resume would exceed 20 active tasks of the user. */
  ACTIVE_TASK_LIMIT_REACHED: 'ACTIVE_TASK_LIMIT_REACHED',
  /** 403: scheduled tasks are not enabled for the account. */
  SCHEDULED_TASKS_DISABLED: 'SCHEDULED_TASKS_DISABLED',
  /** Run error: the task was deleted before its run started. */
  SCHEDULED_TASK_DELETED: 'SCHEDULED_TASK_DELETED',
} as const;

const Cron = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'Five-field cron (minute hour day-of-month month day-of-week) read in `timezone`; at most once an hour, so the minute field is a single number (e.g. `0 9 * * 1-5`)',
});
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. `Europe/Berlin`' });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Prompt = Type.String({ minLength: 1, maxLength: 20_000, description: 'What the agent is asked on every run' });

export const ScheduledTask = Type.Object({
  id: Type.String(),
  deploymentId: Type.Integer(),
  name: Type.String(),
  prompt: Type.String(),
  cron: Nullable(Type.String({ description: 'null: the task runs only on demand (manual-only)' })),
  timezone: Type.String({ description: 'IANA time zone the cron is read in' }),
  enabled: Type.Boolean({ description: 'false: paused' }),
  active: Type.Boolean({ description: 'Scheduled and enabled: counts toward the 20 active tasks per user' }),
  userId: Type.Integer({ description: 'The user who created the task; runs act as this user' }),
  nextRunAt: Nullable(Timestamp),
  lastRunAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ScheduledTask = Static<typeof ScheduledTask>;

export const CreateScheduledTaskInput = Type.Object(
  {
    name: Name,
    prompt: Prompt,
    cron: Type.Optional(Nullable(Cron)),
    timezone: Type.Optional(TimeZone),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true; false creates the task paused' })),
  },
  { additionalProperties: false },
);
export type CreateScheduledTaskInput = Static<typeof CreateScheduledTaskInput>;

export const UpdateScheduledTaskInput = Type.Object(
  {
    name: Type.Optional(Name),
    prompt: Type.Optional(Prompt),
    cron: Type.Optional(Nullable(Cron)),
    timezone: Type.Optional(TimeZone),
    enabled: Type.Optional(Type.Boolean({ description: 'false pauses the task; true resumes it' })),
  },
  { additionalProperties: false },
);
export type UpdateScheduledTaskInput = Static<typeof UpdateScheduledTaskInput>;

export const RunError = Type.Object({ code: Type.String(), message: Type.String() });

export const ScheduledTaskRun = Type.Object({
  id: Type.String(),
  taskId: Type.String(),
  deploymentId: Type.Integer(),
  trigger: Type.Enum([...RUN_TRIGGERS]),
  status: Type.Enum([...RUN_STATUSES]),
  scheduledFor: Nullable(Timestamp),
  jobId: Nullable(Type.String()),
  threadId: Nullable(Type.String({ description: 'The chat thread the run wrote (once COMPLETED)' })),
  output: Nullable(Type.String({ description: 'The agent’s answer' })),
  agent: Nullable(Type.String({ description: 'Which agent answered' })),
  error: Nullable(RunError),
  createdBy: Nullable(Type.Integer({ description: 'Who started the run (the task’s creator for scheduled runs)' })),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  finishedAt: Nullable(Timestamp),
});
export type ScheduledTaskRun = Static<typeof ScheduledTaskRun>;

const TaskParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), taskId: Type.String({ minLength: 1, maxLength: 64 }) });

const ACCESS =
  'Needs deployment read access; a task is visible to its creator and to admins. Embed sessions are refused (403). ' +
  'When scheduled tasks are not enabled for the account every operation answers 403 `SCHEDULED_TASKS_DISABLED`.';

export const listScheduledTasks = defineRoute({
  method: 'GET',
  path: `${D}/scheduled-tasks`,
  operationId: 'listScheduledTasks',
  tag: TAG,
  summary: 'Scheduled tasks of the deployment (the caller’s; every user’s for admins)',
  description: `${ACCESS} Oldest first. Without \`first\` every task is returned.`,
  params: DeploymentParams,
  query: Type.Object({
    first: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size; omitted returns every task' })),
    after: Type.Optional(Type.String({ description: 'Cursor from pageInfo.endCursor of the previous page' })),
  }),
  response: Type.Object({ items: Type.Array(ScheduledTask), pageInfo: PageInfo }),
});

export const createScheduledTask = defineRoute({
  method: 'POST',
  path: `${D}/scheduled-tasks`,
  operationId: 'createScheduledTask',
  tag: TAG,
  summary: 'Create a scheduled task',
  description:
    `${ACCESS} \`cron\` omitted or null makes a manual-only task. \`timezone\` defaults to the tenant's default time zone. ` +
    'A bad cron or time zone answers 400 (`INVALID_CRON`, `CRON_TOO_FREQUENT`, `INVALID_TIMEZONE`); a 21st active task of the user answers 409 `ACTIVE_TASK_LIMIT_REACHED`.',
  params: DeploymentParams,
  body: CreateScheduledTaskInput,
  status: 201,
  response: ScheduledTask,
});

export const getScheduledTask = defineRoute({
  method: 'GET',
  path: `${D}/scheduled-tasks/{taskId}`,
  operationId: 'getScheduledTask',
  tag: TAG,
  summary: 'A scheduled task',
  description: ACCESS,
  params: TaskParams,
  response: ScheduledTask,
});

export const updateScheduledTask = defineRoute({
  method: 'PUT',
  path: `${D}/scheduled-tasks/{taskId}`,
  operationId: 'updateScheduledTask',
  tag: TAG,
  summary: 'Change a scheduled task; fields left out keep their value',
  description: `${ACCESS} \`enabled: false\` pauses, \`enabled: true\` resumes; resuming (or scheduling) beyond 20 active tasks answers 409.`,
  params: TaskParams,
  body: UpdateScheduledTaskInput,
  response: ScheduledTask,
});

export const deleteScheduledTask = defineRoute({
  method: 'DELETE',
  path: `${D}/scheduled-tasks/{taskId}`,
  operationId: 'deleteScheduledTask',
  tag: TAG,
  summary: 'Delete a scheduled task and its runs (the chat threads it wrote stay)',
  description: ACCESS,
  params: TaskParams,
  status: 204,
  response: Type.Null(),
});

export const runScheduledTask = defineRoute({
  method: 'POST',
  path: `${D}/scheduled-tasks/{taskId}/run`,
  operationId: 'runScheduledTask',
  tag: TAG,
  summary: 'Run the task now (also paused and manual-only tasks)',
  description: `${ACCESS} The run is queued (202); poll the runs list for its outcome.`,
  params: TaskParams,
  status: 202,
  response: ScheduledTaskRun,
});

export const listScheduledTaskRuns = defineRoute({
  method: 'GET',
  path: `${D}/scheduled-tasks/{taskId}/runs`,
  operationId: 'listScheduledTaskRuns',
  tag: TAG,
  summary: 'The 50 most recent runs of the task, newest first',
  description: ACCESS,
  params: TaskParams,
  response: Type.Object({ items: Type.Array(ScheduledTaskRun) }),
});

export const scheduledTasksRoutes = {
  listScheduledTasks,
  createScheduledTask,
  getScheduledTask,
  updateScheduledTask,
  deleteScheduledTask,
  runScheduledTask,
  listScheduledTaskRuns,
};
