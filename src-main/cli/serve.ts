// `drydock serve`: the headless service for servers, scripts, CI and the browser UI.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createService, type Service } from '../service';
import { createLoginCode } from '../features/system/login-codes';
import { FileSecretStore, KeychainSecretStore, keychainServiceFor, type SecretStore } from '../platform/secrets';
import { DatabaseTooNewError } from '../platform/db/connection';
import { onParentExit } from '../platform/process/parent';
import { defaultDataDir } from './data-dir';
import { PlainError } from './output';

export interface ServeOptions {
  port?: string;
  dataDir?: string;
  secrets?: string;
  loginLink: boolean;
}

async function chooseSecrets(mode: string, dataDir: string): Promise<SecretStore> {
  if (mode === 'file') return new FileSecretStore(join(dataDir, 'secrets.json'));
  const keychain = new KeychainSecretStore(keychainServiceFor(dataDir));
  try {
    await keychain.probe();
    return keychain;
  } catch (error) {
    if (mode !== 'auto') throw error;
    console.log(`OS keychain not reachable; keeping secrets in ${join(dataDir, 'secrets.json')} (mode 0600).`);
    return new FileSecretStore(join(dataDir, 'secrets.json'));
  }
}

/** The built renderer beside this bundle (out/renderer), if it was built. */
function rendererDir(): string | null {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const candidate of [join(here, '../renderer'), join(here, '../../renderer'), join(here, '../../out/renderer')]) {
    if (existsSync(join(candidate, 'index.html'))) return resolve(candidate);
  }
  return null;
}

/** A failure of `serve` printed as one plain line (as before the command line had other commands). */
const usage = (detail: string) => new PlainError('USAGE', detail, 1);

/** Starts the service; it keeps running until SIGTERM or SIGINT. */
export async function runServe(options: ServeOptions): Promise<void> {
  const portText = options.port ?? process.env.DRYDOCK_PORT ?? '4317';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--port must be 0..65535, not "${portText}".`);
  const secretsMode = options.secrets ?? process.env.DRYDOCK_SECRETS ?? 'keychain';
  if (!['keychain', 'file', 'auto'].includes(secretsMode)) throw usage(`--secrets must be keychain, file or auto, not "${secretsMode}".`);
  const dataDir = resolve(options.dataDir ?? process.env.DRYDOCK_DATA_DIR ?? defaultDataDir());

  let secrets: SecretStore;
  try {
    secrets = await chooseSecrets(secretsMode, dataDir);
  } catch (error) {
    throw usage(`drydock: ${(error as Error).message}`);
  }
  // The port opens (and health answers) before the service has finished loading: signal handlers go
  // in first, so a supervisor's SIGTERM at any moment from then on stops the service cleanly.
  const starting = createService({
    dataDir,
    secrets,
    port,
    rendererDir: rendererDir(),
    bootstrapApiKey: process.env.DRYDOCK_BOOTSTRAP_API_KEY || undefined,
    // Answer early: each area's code loads with the first request to it, the rest soon after.
    areas: 'on-first-use',
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests and releasing running jobs…`);
    try {
      const running = await starting.catch(() => null);
      await running?.close();
      process.exit(0);
    } catch (error) {
      console.error(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  if (process.env.DRYDOCK_STOP_WITH_PARENT === '1') onParentExit(() => void stop('The launching process ended'));

  let service: Service;
  try {
    service = await starting;
  } catch (error) {
    if (error instanceof DatabaseTooNewError) throw usage(error.message);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw usage('The port is already in use; pick another with --port.');
    throw usage(`drydock: ${(error as Error).message}`);
  }
  if (stopping) return;

  if (service.bootstrap.generatedApiKey) {
    console.log(`Created the tenant and an admin user in ${dataDir}.`);
    console.log(`Admin API key (shown once, stored only as a hash): ${service.bootstrap.generatedApiKey}`);
  }
  console.log(`Drydock listening on ${service.url}`);
  console.log(`Data: ${dataDir} (secrets: ${secrets.backend})`);
  // The command that prints a new login link for this very service, as it was started (issue 24):
  // printed here and named by the browser when a used or expired link is opened again.
  const newLinkCommand = loginLinkCommand(process.env.DRYDOCK_INVOKED_AS || 'drydock', service.port, dataDir);
  service.ctx.services.newLoginLinkCommand = newLinkCommand;
  if (options.loginLink) {
    const code = createLoginCode(service.ctx, service.bootstrap.adminUserId);
    console.log(`Open Drydock in your browser (one-time login link, valid 10 minutes): ${service.url}/?login=${code}`);
  }
  console.log(`A login link works once. For a new one, any time: ${newLinkCommand}`);
}

/** `<cli> login-link --port N --data-dir DIR`, the data dir quoted for a POSIX shell when it needs it. */
export function loginLinkCommand(cli: string, port: number, dataDir: string): string {
  const quoted = /^[\w@%+=:,./-]+$/.test(dataDir) ? dataDir : `'${dataDir.replace(/'/g, `'\\''`)}'`;
  return `${cli} login-link --port ${port} --data-dir ${quoted}`;
}
