import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import * as contract from '../../../src-shared/api/scheduled-tasks';
import type { Principal } from '../../http/auth';
import type { Api, RouteOptions } from '../../http/route';
import { getJobRunner } from '../../platform/jobs';
import { cancelActiveRuns, enqueueRun, listRuns, RUN_KIND, runTaskJob, toRun, type RunJobInputs, type RunJobResult } from './runs';
import { getTaskScheduler } from './scheduler';
import { assertScheduledTasksEnabled, callerId, createTask, listTasks, requireTask, toTask, updateTask } from './tasks';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

interface Args<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
}

/** Deployment read access; embed sessions are refused (the route default) — spec, Authentication 7. */
const ACCESS: RouteOptions = { access: ['deploymentRead'] };

export function registerScheduledTaskRoutes(api: Api): void {
  const { ctx } = api;
  const runner = getJobRunner(ctx);
  if (!runner.isRegistered(RUN_KIND)) {
    runner.register<RunJobInputs, RunJobResult>(RUN_KIND, (job, jobCtx) => runTaskJob(ctx, job, jobCtx), { concurrency: 2, maxAttempts: 3 });
  }
  const scheduler = getTaskScheduler(ctx);
  ((ctx.services.starters ??= []) as (() => void)[]).push(() => scheduler.start());
  ctx.onClose(() => scheduler.stop());

  // The account switch is checked before anything else an operation does.
  const route = <D extends RouteDef>(def: D, handler: (args: Args<D>) => ResponseOf<D> | Promise<ResponseOf<D>>) =>
    api.route(def, { ...ACCESS, credentials: def.method === 'GET' ? DEPLOYMENT_READ_CREDENTIALS : DEPLOYMENT_WRITE_CREDENTIALS }, ((args: Args<D>) => {
      assertScheduledTasksEnabled(ctx);
      return handler(args);
    }) as never);

  route(contract.listScheduledTasks, ({ params, query, principal }) => listTasks(ctx, params.deploymentId, principal, query));
  route(contract.createScheduledTask, ({ params, body, principal }) => {
    const task = createTask(ctx, params.deploymentId, principal, body);
    scheduler.rearm();
    return task;
  });
  route(contract.getScheduledTask, ({ params, principal }) => toTask(requireTask(ctx, params.deploymentId, params.taskId, principal)));
  route(contract.updateScheduledTask, ({ params, body, principal }) => {
    const task = updateTask(ctx, params.deploymentId, params.taskId, principal, body);
    scheduler.rearm();
    return task;
  });
  route(contract.deleteScheduledTask, ({ params, principal }) => {
    ctx.db.transaction(() => {
      const task = requireTask(ctx, params.deploymentId, params.taskId, principal);
      cancelActiveRuns(ctx, task.id);
      ctx.db.prepare('DELETE FROM scheduled_tasks WHERE id = ?').run(task.id);
    })();
    return null;
  });
  route(contract.runScheduledTask, ({ params, principal }) =>
    ctx.db.transaction(() => {
      const task = requireTask(ctx, params.deploymentId, params.taskId, principal);
      return toRun(ctx, enqueueRun(ctx, task, 'manual', null, callerId(principal))!);
    })(),
  );
  route(contract.listScheduledTaskRuns, ({ params, principal }) => {
    const task = requireTask(ctx, params.deploymentId, params.taskId, principal);
    return { items: listRuns(ctx, task.id) };
  });
}
