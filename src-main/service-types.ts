// What the composition root takes and gives (service.ts starts the first stage, service-app.ts
// the second): the types both stages share, in a module neither owns.
import type { ServiceContext, Logger } from './context';
import type { RouteEntry } from './http/route';
import type { Clock } from './platform/clock';
import type { SecretStore, SecretsBackend } from './platform/secrets';
import type { BootstrapResult } from './features/system/bootstrap';
import type { AreaLoading } from './features/areas';
import type { HttpLimits } from './http/connection-guard';

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
