// What other areas (and the composition root) may use of the scheduled-tasks area.
export { registerScheduledTaskRoutes } from './routes';
export { getTaskScheduler, type TaskScheduler } from './scheduler';
export { RUN_KIND as SCHEDULED_TASK_RUN_KIND } from './runs';
export { scheduledTasksEnabled } from './tasks';
export { scheduledTaskPrompts, type TaskPrompt } from './prompts';
