// The composition root, in two stages so the port opens early (start time, issue 10): this module
// opens the data directory, the secrets and the database and binds the port, then loads the HTTP
// framework, the contract and every area (./service-app, a separate chunk) while the early
// listener answers health probes and holds every other request. Keep this module's imports light.
import { join } from 'node:path';
import type { ServiceContext, Logger } from './context';
import type { RouteEntry } from './http/route';
import { listenEarly, type EarlyListener } from './http/early-listener';
import type { HttpLimits } from './http/connection-guard';
import { version } from '../package.json';
import { systemClock, type Clock } from './platform/clock';
import { openDatabase } from './platform/db/connection';
import { preparePrivateDataDir } from './platform/files/private-data-dir';
import { openSecretStore, type SecretStore, type SecretsBackend } from './platform/secrets';
import type { BootstrapResult } from './features/system/bootstrap';
import type { AreaLoading } from './features/areas';
import { prefetchVendor, vendorPrefetched } from './vendor-runtime';

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
  /**
   * When the areas' code loads: `at-start` (default) before `createService` resolves; `on-first-use`
   * each area on the first request to one of its operations (which waits for it), the others in the
   * background soon after start — `drydock serve` and the app, which should answer early.
   */
  areas?: AreaLoading;
  /** With `areas: 'on-first-use'`: when the areas not asked for start loading (default 500 ms after start; null: never, tests). */
  loadRestAfterMs?: number | null;
  /** Request timeouts and connection caps (http/connection-guard.ts), each defaulting to DEFAULT_HTTP_LIMITS. */
  http?: Partial<HttpLimits>;
}

export interface Service {
  ctx: ServiceContext;
  port: number;
  url: string;
  bootstrap: BootstrapResult;
  /**
   * The route table: every operation and the credentials it accepts (the authorization tests walk
   * it), in the order the areas registered them; with `areas: 'on-first-use'` only the loaded areas'.
   */
  routes: readonly RouteEntry[];
  /** The whole route table, once every area has loaded. */
  allRoutes(): Promise<readonly RouteEntry[]>;
  close(): Promise<void>;
}

export const consoleLogger: Logger = {
  info: (message, fields) => console.log(message, fields ? JSON.stringify(fields) : ''),
  warn: (message, fields) => console.warn(message, fields ? JSON.stringify(fields) : ''),
  error: (message, fields) => console.error(message, fields ? JSON.stringify(fields) : ''),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Starts the service: storage, secrets, tokens, HTTP and every area, on 127.0.0.1. Resolves once
 * every operation is served; `GET /api/v1/health` answers as soon as the port is bound.
 */
export async function createService(options: ServiceOptions): Promise<Service> {
  // The built service loads its HTTP framework (vendor.cjs) after the port opens: read it meanwhile.
  prefetchVendor();
  preparePrivateDataDir(options.dataDir);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? consoleLogger;
  const secrets =
    typeof options.secrets === 'object' ? options.secrets : await openSecretStore(options.secrets ?? 'keychain', options.dataDir);
  const db = openDatabase(join(options.dataDir, 'drydock.sqlite'), { statementCache: 1000 });
  let listener: EarlyListener | null = null;
  try {
    listener = await listenEarly(options.port ?? 0, version, options.http);
    // The reads prefetchVendor started are handed over at a turn of the event loop: give it one.
    await vendorPrefetched();
    const { assembleService } = await import('./service-app');
    return await assembleService({ options, clock, log, secrets, db, listener });
  } catch (error) {
    await listener?.abort();
    db.close();
    throw error;
  }
}
