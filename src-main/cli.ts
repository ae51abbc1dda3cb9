import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createService, type Service } from './service';
import { createLoginCode } from './features/system/routes';
import { FileSecretStore, KeychainSecretStore, keychainServiceFor, type SecretStore } from './platform/secrets';
import { DatabaseTooNewError } from './platform/db/connection';

/** The same folder Electron's app.getPath('userData') gives the desktop app, plus /data. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'drydock', 'data');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'drydock', 'data');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'drydock', 'data');
}

const USAGE = `Usage: drydock serve [--port N] [--data-dir DIR] [--secrets keychain|file|auto] [--no-login-link]

  --port N          port on 127.0.0.1 (default 4317; 0 picks a free one)      env DRYDOCK_PORT
  --data-dir DIR    where the SQLite database and model repositories live      env DRYDOCK_DATA_DIR
                    (default: the app-data folder, ${defaultDataDir()})
  --secrets B       keychain (default): the OS keychain; file: DIR/secrets.json (0600), for headless
                    servers; auto: keychain when reachable, else file            env DRYDOCK_SECRETS
  --no-login-link   do not print the one-time login link for the browser UI
  env DRYDOCK_BOOTSTRAP_API_KEY   admin API key to create on an empty data dir (scripts and CI)`;

class UsageError extends Error {}

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

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      secrets: { type: 'string' },
      'no-login-link': { type: 'boolean', default: false },
      // Accepted for `npm start`: the login link is printed by default anyway.
      'open-login': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const portText = values.port ?? process.env.DRYDOCK_PORT ?? '4317';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, not "${portText}".`);
  const secretsMode = values.secrets ?? process.env.DRYDOCK_SECRETS ?? 'keychain';
  if (!['keychain', 'file', 'auto'].includes(secretsMode)) throw new UsageError(`--secrets must be keychain, file or auto, not "${secretsMode}".`);
  const dataDir = resolve(values['data-dir'] ?? process.env.DRYDOCK_DATA_DIR ?? defaultDataDir());

  const secrets = await chooseSecrets(secretsMode, dataDir);
  const service: Service = await createService({
    dataDir,
    secrets,
    port,
    rendererDir: rendererDir(),
    bootstrapApiKey: process.env.DRYDOCK_BOOTSTRAP_API_KEY || undefined,
  });
  // Signal handlers go in before the ready line: a supervisor may send SIGTERM as soon as it reads it.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests and releasing running jobs…`);
    try {
      await service.close();
      process.exit(0);
    } catch (error) {
      console.error(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  if (service.bootstrap.generatedApiKey) {
    console.log(`Created the tenant and an admin user in ${dataDir}.`);
    console.log(`Admin API key (shown once, stored only as a hash): ${service.bootstrap.generatedApiKey}`);
  }
  console.log(`Drydock listening on ${service.url}`);
  console.log(`Data: ${dataDir} (secrets: ${secrets.backend})`);
  if (!values['no-login-link']) {
    const code = createLoginCode(service.ctx, service.bootstrap.adminUserId);
    console.log(`Open Drydock in your browser (one-time login link, valid 10 minutes): ${service.url}/?login=${code}`);
  }
}

/** Runs a command; returns its exit code, or -1 while a server keeps running. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'serve') {
      await serve(rest);
      return -1;
    }
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      console.log(USAGE);
      return command === undefined ? 1 : 0;
    }
    throw new UsageError(`Unknown command "${command}".\n${USAGE}`);
  } catch (error) {
    if (error instanceof UsageError || error instanceof DatabaseTooNewError) console.error(error.message);
    else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`The port is already in use; pick another with --port.`);
    else if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') console.error(`${(error as Error).message}\n${USAGE}`);
    else console.error(`drydock: ${(error as Error).message}`);
    return 1;
  }
}

const exitCode = await main(process.argv.slice(2));
if (exitCode >= 0) process.exit(exitCode);
