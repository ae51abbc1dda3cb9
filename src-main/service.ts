import { join } from 'node:path';
import type { ServiceContext, Logger } from './context';
import { registerFeatures } from './features';
import { createApi, type RouteEntry } from './http/route';
import { createHttpServer } from './http/server';
import { systemClock, type Clock } from './platform/clock';
import { openDatabase } from './platform/db/connection';
import { preparePrivateDataDir } from './platform/files/private-data-dir';
import { JobRunner } from './platform/jobs';
import { WorkerPools } from './platform/workers/pools';
import computeEntry from './workers/compute-worker?modulePath';
import modelEntry from './workers/model-worker?modulePath';
import { openSecretStore, type SecretStore, type SecretsBackend } from './platform/secrets';
import { TokenService } from './platform/tokens/tokens';
import { bootstrapTenant, type BootstrapResult } from './features/system/bootstrap';

export interface ServiceOptions {
  dataDir: string;
  /** A backend name, or a ready store (tests inject one). */
  secrets?: SecretsBackend | SecretStore;
  clock?: Clock;
  /** 0 (default) picks a free port. The service listens on 127.0.0.1 only. */
  port?: number;
  rendererDir?: string | null;
  corsOrigins?: string[];
  /** Admin API key to create on an empty data dir instead of a random one (`DRYDOCK_BOOTSTRAP_API_KEY`). */
  bootstrapApiKey?: string;
  log?: Logger;
  /**
   * How long a job claim lasts without a heartbeat, i.e. how soon another process takes up the
   * jobs of one that died (default 30 s; `DRYDOCK_JOB_LEASE_MS`).
   */
  jobLeaseMs?: number;
}

export interface Service {
  ctx: ServiceContext;
  port: number;
  url: string;
  bootstrap: BootstrapResult;
  /** The route table: every operation and the credentials it accepts (the authorization tests walk it). */
  routes: readonly RouteEntry[];
  close(): Promise<void>;
}

export const consoleLogger: Logger = {
  info: (message, fields) => console.log(message, fields ? JSON.stringify(fields) : ''),
  warn: (message, fields) => console.warn(message, fields ? JSON.stringify(fields) : ''),
  error: (message, fields) => console.error(message, fields ? JSON.stringify(fields) : ''),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Composition root: storage, secrets, tokens, HTTP and every area, on 127.0.0.1. */
export async function createService(options: ServiceOptions): Promise<Service> {
  preparePrivateDataDir(options.dataDir);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? consoleLogger;
  const secrets =
    typeof options.secrets === 'object' ? options.secrets : await openSecretStore(options.secrets ?? 'keychain', options.dataDir);
  const db = openDatabase(join(options.dataDir, 'drydock.sqlite'), { statementCache: 1000 });
  const closers: (() => Promise<void> | void)[] = [];
  try {
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
    const bootstrap = bootstrapTenant(ctx, options.bootstrapApiKey);
    const { app, setPort } = await createHttpServer(ctx);
    const api = createApi(app, ctx);
    await registerFeatures(api);
    // Registered after the areas' closers so it runs before them (LIFO): running jobs are released
    // while the connectors and stores they use are still open.
    ctx.onClose(() => jobs.stop());
    await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
    setPort(port);
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
          // Stop taking requests and let in-flight ones finish, then release background work.
          await app.close();
          for (const fn of closers.reverse()) await fn();
          db.close();
        })()),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
