/**
 * How the desktop shell hosts the service: in its own process, kept running by the supervisor
 * (platform/process/supervisor.ts), so no request, job or compile ever runs in the process that
 * draws the window. Free of Electron imports: main.ts passes in the process spawner
 * (`utilityProcess.fork`) and what the user sees (notifications, dialogs), so this is unit-tested
 * under plain Node with `child_process.fork`.
 */
import type { DesktopConnection } from '../../src-shared/api/client';
import type { ServiceProcessOptions } from '../platform/process/service-protocol';
import { ServiceSupervisor, type SpawnServiceChild, type SupervisorOptions } from '../platform/process/supervisor';

/** Renew the session token this long before it expires. */
export const RENEW_MARGIN_MS = 10 * 60 * 1000;

/** What the user is told about the service process (dialogs and notifications in the app). */
export interface ServiceHostUi {
  /** The service process ended without being asked to; it starts again in `restartInMs`. */
  serviceCrashed(reason: string, restartInMs: number): void;
  /** A restarted service process serves again; `originChanged` when it had to take another port. */
  serviceRestored(url: string, originChanged: boolean): void;
  /** The supervisor stopped restarting a service that had served: try again, or quit the app. */
  serviceGaveUp(reason: string): Promise<'retry' | 'quit'>;
}

export interface ServiceHostOptions {
  spawn: SpawnServiceChild;
  service: ServiceProcessOptions;
  ui: ServiceHostUi;
  /** Ends the app (after the user chose to quit). */
  quit(): void;
  /** Supervision timings (tests shorten them). */
  supervision?: Omit<SupervisorOptions, 'spawn' | 'service' | 'onEvent'>;
  now?: () => number;
}

export interface ServiceHost {
  /** Starts the service process; resolves with its URL once it serves, rejects if it cannot start. */
  start(): Promise<string>;
  /** The URL of the serving process, or null while none serves. */
  url(): string | null;
  /** URL and session token for the window (waits for a restart in progress; renews a token near its expiry). */
  connection(): Promise<DesktopConnection>;
  /** Stops the service process cleanly (running jobs handed back, database closed). */
  stop(): Promise<void>;
}

export function createServiceHost(options: ServiceHostOptions): ServiceHost {
  const now = options.now ?? Date.now;
  let servedOnce = false;
  let lastUrl: string | null = null;
  const supervisor: ServiceSupervisor = new ServiceSupervisor({
    ...options.supervision,
    spawn: options.spawn,
    service: options.service,
    onEvent: (event) => {
      switch (event.type) {
        case 'ready': {
          const originChanged = lastUrl !== null && new URL(lastUrl).origin !== new URL(event.url).origin;
          lastUrl = event.url;
          if (servedOnce) options.ui.serviceRestored(event.url, originChanged);
          servedOnce = true;
          return;
        }
        case 'crashed':
          // Before the first start succeeded, start() reports the failure instead.
          if (servedOnce) options.ui.serviceCrashed(event.reason, event.restartInMs);
          return;
        case 'gave-up':
          if (!servedOnce) return;
          void options.ui.serviceGaveUp(event.reason).then(
            (answer) => {
              // A failed retry asks again through another 'gave-up' event.
              if (answer === 'retry') void supervisor.retry().catch(() => undefined);
              else options.quit();
            },
            () => options.quit(),
          );
          return;
        default:
          return;
      }
    },
  });

  return {
    start: async () => (await supervisor.start()).url,
    url: () => supervisor.current()?.url ?? null,
    async connection() {
      let current = supervisor.current() ?? (await supervisor.whenReady());
      if (Date.parse(current.session.expiresAt) - now() <= RENEW_MARGIN_MS) current = await supervisor.renewSession();
      return { baseUrl: current.url, token: current.session.token, expiresAt: current.session.expiresAt };
    },
    stop: () => supervisor.stop(),
  };
}
