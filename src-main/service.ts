// The composition root, in two stages so the port opens early (start time, issue 10): this module
// opens the data directory, the secrets and the database and binds the port, then loads the HTTP
// framework, the contract and every area (./service-app, a separate chunk) while the early
// listener answers health probes and holds every other request. Keep this module's imports light.
import { join } from 'node:path';
import type { Logger } from './context';
import { listenEarly, type EarlyListener } from './http/early-listener';
import { version } from '../package.json';
import { systemClock } from './platform/clock';
import { openDatabase } from './platform/db/connection';
import { preparePrivateDataDir } from './platform/files/private-data-dir';
import { openSecretStore } from './platform/secrets';
import type { Service, ServiceOptions } from './service-types';

export type { Service, ServiceOptions } from './service-types';

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
  preparePrivateDataDir(options.dataDir);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? consoleLogger;
  const secrets =
    typeof options.secrets === 'object' ? options.secrets : await openSecretStore(options.secrets ?? 'keychain', options.dataDir);
  const db = openDatabase(join(options.dataDir, 'drydock.sqlite'), { statementCache: 1000 });
  let listener: EarlyListener | null = null;
  try {
    listener = await listenEarly(options.port ?? 0, version, options.http);
    const { assembleService } = await import('./service-app');
    return await assembleService({ options, clock, log, secrets, db, listener });
  } catch (error) {
    await listener?.abort();
    db.close();
    throw error;
  }
}
