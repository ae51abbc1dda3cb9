import type { Db } from './platform/db/connection';
import type { Clock } from './platform/clock';
import type { SecretStore } from './platform/secrets';
import type { TokenService } from './platform/tokens/tokens';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface ServiceConfig {
  /** Extra browser origins allowed to call the API (CORS); none by default. */
  corsOrigins: string[];
  /** Folder of the built renderer to serve at `/`, when present. */
  rendererDir: string | null;
}

/**
 * Everything an area needs, handed to each area's routes and logic. Areas reach each other only
 * through the functions an area exports, never through another area's tables.
 */
export interface ServiceContext {
  dataDir: string;
  db: Db;
  secrets: SecretStore;
  clock: Clock;
  tokens: TokenService;
  log: Logger;
  config: ServiceConfig;
  /** Registers work to run on shutdown, after the HTTP server stopped accepting requests (LIFO). */
  onClose(fn: () => Promise<void> | void): void;
  /** Late-bound shared machinery (e.g. the job runner), registered by the composition root. */
  services: Record<string, unknown>;
}
