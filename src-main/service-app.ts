// Second stage of the composition root (see service.ts): the HTTP framework, the job runner, the
// worker pools and the route table of every area, put together around the port the first stage
// already bound. Loaded with a dynamic import, so it and everything it imports form their own
// chunks, read after the port is open. The areas' code loads after that, each in its own chunks:
// all before the service answers, or (`areas: 'on-first-use'`) each on its first request and the
// rest in the background (features/areas.ts).
import type { Logger, ServiceContext } from './context';
import { AREAS } from './features';
import { AreaLoader } from './features/areas';
import { bootstrapTenant } from './features/system/bootstrap';
import type { EarlyListener } from './http/early-listener';
import { createApi } from './http/route';
import { createHttpServer } from './http/server';
import type { Clock } from './platform/clock';
import type { Db } from './platform/db/connection';
import { JobRunner } from './platform/jobs';
import { yieldToEventLoop } from './platform/jobs/types';
import type { SecretStore } from './platform/secrets';
import { TokenService } from './platform/tokens/tokens';
import { WorkerPools } from './platform/workers/pools';
import { flushCompileCache } from './platform/process/compile-cache';
import computeEntry from './workers/compute-worker?modulePath';
import modelEntry from './workers/model-worker?modulePath';
import type { Service, ServiceOptions } from './service-types';

/**
 * With areas loaded on first use, the others start loading this long after the port is handed over:
 * the first requests (a window opening, a CLI call) load their own areas without competing.
 */
const BACKGROUND_LOAD_DELAY_MS = 500;

export interface FirstStage {
  options: ServiceOptions;
  clock: Clock;
  log: Logger;
  secrets: SecretStore;
  db: Db;
  listener: EarlyListener;
}

export async function assembleService({ options, clock, log, secrets, db, listener }: FirstStage): Promise<Service> {
  const closers: (() => Promise<void> | void)[] = [];
  const tokens = await TokenService.open(db, secrets, clock);
  const ctx: ServiceContext = {
    dataDir: options.dataDir,
    db,
    secrets,
    clock,
    tokens,
    log,
    config: { corsOrigins: options.corsOrigins ?? [], rendererDir: options.rendererDir ?? null },
    onClose: (fn) => closers.push(fn),
    services: {},
  };
  // Areas register their job kinds while their routes are registered, so the runner exists first.
  const jobLeaseMs = options.jobLeaseMs ?? (Number(process.env.DRYDOCK_JOB_LEASE_MS) || undefined);
  const jobs = new JobRunner({ db, clock, log, ...(jobLeaseMs ? { leaseMs: jobLeaseMs } : {}) });
  ctx.services.jobs = jobs;
  // CPU-heavy work runs on worker threads; they start on first use.
  const workers = new WorkerPools({ computeEntry, modelEntry });
  ctx.services.workers = workers;
  closers.push(() => workers.close());
  try {
    const bootstrap = bootstrapTenant(ctx, options.bootstrapApiKey);
    const { app, setPort, dispatch, warmup, prepareCompilers } = await createHttpServer(ctx, listener);
    // The port is open and answers health meanwhile (EarlyListener), but only when the event loop
    // turns: the framework, the contract and the route table load synchronously (CommonJS), so give it
    // a turn between those stages — a health probe waited ~100 ms for all of them otherwise.
    await yieldToEventLoop();
    const router = createApi(app, ctx, warmup);
    // What an area starts (schedulers) runs once the service serves; an area loaded later starts its own at once.
    let serving = false;
    let started = 0;
    const runStarters = () => {
      const starters = (ctx.services.starters as (() => void)[] | undefined) ?? [];
      while (serving && started < starters.length) starters[started++]!();
    };
    const areas = new AreaLoader(router, AREAS, runStarters);
    areas.declareAll();
    await yieldToEventLoop();
    ctx.services.loadAllAreas = () => areas.loadAll();
    ctx.services.allAreasLoaded = () => areas.allLoaded();
    await app.ready();
    // Areas register only operations and job kinds, never hooks: Fastify is ready before any loads.
    const atStart = (options.areas ?? 'at-start') === 'at-start';
    if (atStart) await areas.loadAll();
    const { port, server } = listener;
    setPort(port);
    listener.handOver(dispatch);
    serving = true;
    runStarters();
    // Jobs are taken up once every area has registered its job kinds (and their retention hooks).
    let closing = false;
    const startJobs = () => {
      if (!closing) jobs.start();
    };
    if (atStart) startJobs();
    else if (options.loadRestAfterMs !== null) {
      const failed = (area: { name: string }, error: Error) => log.error('an area failed to load', { area: area.name, error: error.stack ?? String(error) });
      void areas.loadRestInBackground(options.loadRestAfterMs ?? BACKGROUND_LOAD_DELAY_MS, failed).then(() => {
        startJobs();
        // What a first request of any area would otherwise set up inside its own turn of the HTTP
        // thread (the validators' Ajv, the thread pool library): at 10,000 cubes a first validate's
        // turn took 30–40 ms, and health probes waited behind it (issue 28).
        if (!closing) {
          prepareCompilers();
          workers.prepare();
        }
        // Every area's code is compiled now: keep it for the next start (a no-op without the cache).
        flushCompileCache();
      });
    }

    let closed: Promise<void> | null = null;
    return {
      ctx,
      port,
      url: `http://127.0.0.1:${port}`,
      bootstrap,
      routes: router.routes,
      allRoutes: async () => {
        await areas.loadAll();
        startJobs();
        return router.routes;
      },
      close: () =>
        (closed ??= (async () => {
          closing = true;
          // Stop taking connections and let in-flight requests finish (requests arriving meanwhile on
          // kept-alive connections answer 503), then release background work.
          const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          // A kept-alive connection whose request was still under way becomes idle only when its
          // answer is sent (a first request that waits for its area to load can take a while);
          // close those as they go idle instead of waiting out the keep-alive timeout.
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          try {
            await app.close();
            await serverClosed;
          } finally {
            clearInterval(sweep);
          }
          await areas.stop();
          // Running jobs are released while the connectors and stores they use are still open.
          await jobs.stop();
          for (const fn of closers.reverse()) await fn();
          db.close();
        })()),
    };
  } catch (error) {
    await workers.close();
    throw error;
  }
}
