// The service process of the desktop app (entry: service-process.ts): the Electron main process starts it as a
// utility process (src-main/app/main.ts) and supervises it (platform/process/supervisor.ts), so
// no request, job or compile ever runs in the process that draws the window. It speaks the
// messages of platform/process/service-protocol.ts over the channel it was started with:
// Electron's `process.parentPort`, or Node's IPC channel when started with `child_process.fork`.
import { WORKSPACE_SESSION_TTL_S } from './features/system/login-codes';
import { DatabaseTooNewError } from './platform/db/connection';
import { MissingSqliteBuildError } from './platform/db/native-binding';
import { onParentExit } from './platform/process/parent';
import { parseParentMessage, type ChildMessage, type DesktopSession, type ServiceProcessOptions } from './platform/process/service-protocol';
import { createService, type Service } from './service';

interface Channel {
  post(message: ChildMessage): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** Electron's utility-process port, else Node's IPC channel. */
function parentChannel(): Channel {
  const electronPort = (process as unknown as { parentPort?: { postMessage(m: unknown): void; on(e: 'message', l: (event: { data: unknown }) => void): void } })
    .parentPort;
  if (electronPort) return { post: (m) => electronPort.postMessage(m), onMessage: (l) => electronPort.on('message', (event) => l(event.data)) };
  if (process.send) {
    const send = process.send.bind(process);
    return { post: (m) => void send(m), onMessage: (l) => process.on('message', l) };
  }
  throw new Error('The service process must be started by the desktop app (no parent channel).');
}

const channel = parentChannel();
let service: Service | null = null;
let sessionId: string | null = null;
let stopping: Promise<void> | null = null;

/** A fresh workspace session of the admin user; the previous one is revoked. */
async function issueSession(running: Service): Promise<DesktopSession> {
  if (sessionId) running.ctx.tokens.revoke(sessionId);
  const issued = await running.ctx.tokens.issue({
    userId: running.bootstrap.adminUserId,
    kind: 'workspace',
    ttlSeconds: WORKSPACE_SESSION_TTL_S,
    meta: { client: 'desktop' },
  });
  sessionId = issued.sid;
  return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
}

async function start(options: ServiceProcessOptions): Promise<void> {
  if (service) return;
  const create = (port: number) =>
    createService({
      dataDir: options.dataDir,
      secrets: options.secrets,
      port,
      rendererDir: options.rendererDir,
      corsOrigins: options.corsOrigins,
      // The window opens as soon as the port answers; each screen's area loads with its first request.
      areas: 'on-first-use',
    });
  try {
    try {
      service = await create(options.port);
    } catch (error) {
      // The previous port was taken meanwhile: any port will do (the window follows the new origin).
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port === 0) throw error;
      service = await create(0);
    }
    // A browser whose login link was used or expired is told where a new one comes from (issue 24).
    service.ctx.services.newLoginLinkHint = 'in the Drydock app, choose File › New Login Link…';
    channel.post({ type: 'ready', url: service.url, session: await issueSession(service) });
  } catch (error) {
    // Neither a newer database nor a missing SQLite build for Electron goes away by starting again.
    const lasting = error instanceof DatabaseTooNewError || error instanceof MissingSqliteBuildError;
    channel.post({ type: 'start-failed', message: (error as Error).message, retry: !lasting });
  }
}

/** Closes the service (in-flight requests finish, running jobs are handed back) and exits. */
function stop(code = 0): Promise<void> {
  stopping ??= (async () => {
    try {
      if (service && sessionId) service.ctx.tokens.revoke(sessionId);
      await service?.close();
    } catch (error) {
      console.error('Drydock service: did not close cleanly:', error);
      code = 1;
    }
    process.exit(code);
  })();
  return stopping;
}

channel.onMessage((raw) => {
  const message = parseParentMessage(raw);
  if (!message) return;
  if (message.type === 'start') void start(message.options);
  else if (message.type === 'stop') void stop();
  else if (message.type === 'session') {
    const running = service;
    if (!running) {
      channel.post({ type: 'session-failed', requestId: message.requestId, message: 'The service is not running.' });
      return;
    }
    issueSession(running).then(
      (session) => channel.post({ type: 'session', requestId: message.requestId, session }),
      (error: unknown) => channel.post({ type: 'session-failed', requestId: message.requestId, message: (error as Error).message }),
    );
  }
});

// Never outlive the app: a lost channel or parent, or a signal, stops the service cleanly.
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
onParentExit(() => void stop());
