// Second stage of the composition root (see service.ts): the HTTP framework, the job runner, the
// worker pools and every area, put together around the port the first stage already bound. Loaded
// with a dynamic import, so it and everything it imports form their own chunks, read after the port
// is open.
import type { Logger, ServiceContext } from './context';
import { registerFeatures } from './features';
import { bootstrapTenant } from './features/system/bootstrap';
import type { EarlyListener } from './http/early-listener';
import { createApi } from './http/route';
import { createHttpServer } from './http/server';
import type { Clock } from './platform/clock';
import type { Db } from './platform/db/connection';
import { JobRunner } from './platform/jobs';
import type { SecretStore } from './platform/secrets';
import { TokenService } from './platform/tokens/tokens';
import { WorkerPools } from './platform/workers/pools';
import computeEntry from './workers/compute-worker?modulePath';
import modelEntry from './workers/model-worker?modulePath';
import type { Service, ServiceOptions } from './service';

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
    const { app, setPort } = await createHttpServer(ctx, listener);
    const api = createApi(app, ctx);
    await registerFeatures(api);
    // Registered after the areas' closers so it runs before them (LIFO): running jobs are released
    // while the connectors and stores they use are still open.
    ctx.onClose(() => jobs.stop());
    await app.ready();
    const { port, server } = listener;
    setPort(port);
    listener.handOver((request, response) => app.routing(request, response));
    for (const start of (ctx.services.starters as (() => void)[] | undefined) ?? []) start();
    jobs.start();

    let closed: Promise<void> | null = null;
    return {
      ctx,
      port,
      url: `http://127.0.0.1:${port}`,
      bootstrap,
      routes: api.routes,
      close: () =>
        (closed ??= (async () => {
          // Stop taking connections and let in-flight requests finish (requests arriving meanwhile on
          // kept-alive connections answer 503), then release background work.
          const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          await app.close();
          await serverClosed;
          for (const fn of closers.reverse()) await fn();
          db.close();
        })()),
    };
  } catch (error) {
    await workers.close();
    throw error;
  }
}
