// The `drydock` command table (commander). Only this table and commander load at start: each
// command imports its module when it runs, so `drydock validate` never loads the service, Fastify
// or the warehouse drivers, and `--help` answers at once.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { defaultDataDir } from './data-dir';
import { reportFailure } from './output';
import type { ConnectionOptions } from './api/connection';
import { DRYDOCK_VERSION } from './version';

/** Where saved profiles are: the data dir's SQLite and its secret store. */
function withProfiles(command: Command): Command {
  return command
    .addOption(new Option('--profile <name>', 'service profile saved by `drydock login`').env('DRYDOCK_PROFILE'))
    .addOption(new Option('--data-dir <dir>', `data dir whose profiles to use (default ${defaultDataDir()})`).env('DRYDOCK_DATA_DIR'))
    .addOption(new Option('--secrets <backend>', 'where that data dir keeps credentials: keychain, file or auto (default: as its service does)').env('DRYDOCK_SECRETS'))
    .option('--json', 'print the result as JSON (no progress display)');
}

/** Options every command that talks to a service takes. */
function withConnection(command: Command, { deployment = true } = {}): Command {
  withProfiles(command)
    .addOption(new Option('--url <url>', 'base URL of the service (instead of a profile)').env('DRYDOCK_URL'))
    .addOption(new Option('--key <key>', 'API key (instead of a profile)').env('DRYDOCK_API_KEY'))
    .addOption(new Option('--token <token>', 'bearer token (instead of an API key)').env('DRYDOCK_TOKEN'));
  if (deployment) {
    command.addOption(
      new Option('-d, --deployment <id|name>', 'deployment (default: the only one)').env('DRYDOCK_DEPLOYMENT'),
    );
  }
  return command;
}

function withWait(command: Command): Command {
  return command
    .option('--no-wait', 'print the job id and return at once instead of waiting for the job to end')
    .addOption(new Option('--idempotency-key <uuid>', 'same key and inputs return the original job instead of starting another'));
}

function integer(name: string, min = 0) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}.`);
    return n;
  };
}

type Opts = Omit<ConnectionOptions, 'sources'> & Record<string, unknown>;

/**
 * The command table. With `only: 'serve'` (what runCli passes when the command line starts with
 * `serve`) the table stops after that command: the service's start does not build the options of
 * the twenty other commands (start time, issue 10); `drydock serve --help` reads the same.
 */
export function buildProgram(setExit: (code: number) => void, setJson: (json: boolean) => void, only?: 'serve'): Command {
  const program = new Command('drydock')
    .description('Drydock: the local analytics platform service, and a command line for scripts and CI.')
    .version(DRYDOCK_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError()
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
    .addHelpText(
      'after',
      `
Every command has --help. Exit codes: 0 done, 1 failure (the problem's code is printed as CODE: detail),
2 input not readable, 130 interrupted.`,
    );

  /** An action that loads its command module when it runs; options are typed by the module (commander's are untyped). */
  const api = <O, A extends unknown[]>(load: () => Promise<(opts: O, ...args: A) => Promise<number>>) =>
    async function (this: Command, ...args: unknown[]) {
      const opts = this.opts<Opts>();
      setJson(Boolean(opts.json));
      const positional = args.slice(0, this.registeredArguments.length) as A;
      const sources = Object.fromEntries(['profile', 'url', 'key', 'token'].map((k) => [k, this.getOptionValueSource(k)]));
      const run = await load();
      setExit(await run({ ...opts, sources } as unknown as O, ...positional));
    };

  program
    .command('serve')
    .description('run the service headless on 127.0.0.1 (servers, scripts, CI, the browser UI)')
    .addOption(new Option('--port <n>', 'port on 127.0.0.1 (0 picks a free one) [env: DRYDOCK_PORT] (default: 4317)'))
    .addOption(new Option('--data-dir <dir>', `where the SQLite database and model repositories live [env: DRYDOCK_DATA_DIR] (default: ${defaultDataDir()})`))
    .addOption(
      new Option(
        '--secrets <backend>',
        'keychain (default): the OS keychain; file: DIR/secrets.json (0600), for headless servers; auto: keychain when reachable, else file [env: DRYDOCK_SECRETS]',
      ),
    )
    .option('--no-login-link', 'do not print the one-time login link for the browser UI')
    // Accepted for `npm start`: the login link is printed by default anyway.
    .addOption(new Option('--open-login').hideHelp())
    .addHelpText('after', '\nEnv DRYDOCK_BOOTSTRAP_API_KEY: admin API key to create on an empty data dir (scripts and CI).')
    .action(async (opts: { port?: string; dataDir?: string; secrets?: string; loginLink: boolean }) => {
      const { runServe } = await import('./serve');
      await runServe(opts);
      setExit(-1);
    });
  if (only === 'serve') return program;

  program
    .command('login-link')
    .description('print a new one-time login link for the browser UI of the running service (no restart needed)')
    .addOption(new Option('--data-dir <dir>', `the service's data dir [env: DRYDOCK_DATA_DIR] (default: ${defaultDataDir()})`))
    .addOption(new Option('--port <n>', 'port the service listens on [env: DRYDOCK_PORT] (default: 4317)'))
    .addOption(new Option('--url <url>', 'base URL of the service (instead of --port)'))
    .option('--email <email>', 'sign in as this user (default: the admin)')
    .option('--json', 'print {url, email, expiresInSeconds}')
    .action(async (opts: { dataDir?: string; port?: string; url?: string; email?: string; json?: boolean }) => {
      const { runLoginLink } = await import('./login-link');
      setExit(await runLoginLink(opts));
    });

  program
    .command('validate')
    .description('check a model project offline with the service’s compiler (no server needed)')
    .argument('[dir]', 'project folder (the one containing model/ or schema/)', '.')
    .addOption(new Option('-f, --format <format>', 'report format').choices(['text', 'json', 'sarif', 'junit']).default('text'))
    .option('-o, --output <file>', 'write the report to a file (a text summary still goes to stdout)')
    .option('--max-warnings <n>', 'fail when there are more than n warnings', integer('--max-warnings'))
    .option('--analyzers', 'also report what cannot be pushed as warehouse semantic views or published as lakehouse metric views')
    .addHelpText(
      'after',
      `
Exits 1 when the model has errors (or more warnings than --max-warnings), 2 when DIR cannot be read.
Examples:
  drydock validate resources/sample-project
  drydock validate . --format sarif --output drydock.sarif     # GitHub code scanning
  drydock validate . --format junit --output reports/drydock.xml --max-warnings 0`,
    )
    .action(async (dir: string, opts: { format: 'text' | 'json' | 'sarif' | 'junit'; output?: string; maxWarnings?: number; analyzers?: boolean }) => {
      const { runValidate } = await import('./validate/command');
      setExit(await runValidate(dir, { ...opts, color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }));
    });

  program
    .command('test')
    .description('run the model tests of a project (tests/*.yml) offline, on their fixture tables')
    .argument('[dir]', 'project folder (the one containing model/ and tests/)', '.')
    .addOption(new Option('-f, --format <format>', 'report format').choices(['text', 'json', 'junit', 'sarif']).default('text'))
    .option('-o, --output <file>', 'write the report to a file (a text summary still goes to stdout)')
    .option('--concurrency <n>', 'tests run at once (default 4)', integer('--concurrency', 1))
    .addHelpText(
      'after',
      `
A test names a query (the REST query format), what it must return (rows, row_count, values, not_null,
unique, totals_equal) and its data: fixtures (table → CSV or Parquet file, loaded into a throwaway
DuckDB) or a data_source (run by the service; skipped here). Exits 1 when a test fails or cannot run,
or a test file has a problem; 2 when DIR cannot be read.
Examples:
  drydock test resources/sample-project
  drydock test . --format junit --output reports/model-tests.xml`,
    )
    .action(async (dir: string, opts: { format: 'text' | 'json' | 'junit' | 'sarif'; output?: string; concurrency?: number }) => {
      const { runTests } = await import('./model-tests/command');
      setExit(await runTests(dir, { ...opts, color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }));
    });

  withConnection(program.command('login'), { deployment: false })
    .description('save a service profile (URL and credential), after checking the credential against the service')
    .option('--bearer', 'the credential typed or piped in is a bearer token, not an API key')
    .option('--description <text>', 'a note shown with the profile')
    .addHelpText(
      'after',
      `
The credential comes from --key/--token (or DRYDOCK_API_KEY/DRYDOCK_TOKEN), else from stdin when it is
not a terminal, else from a prompt that does not echo. It is kept in the OS keychain, never in a file
(unless the data dir's service keeps its secrets in DIR/secrets.json). http is allowed only for this machine.
Examples:
  drydock login --profile prod --url https://drydock.example.com       # prompts for the API key
  echo "$DRYDOCK_API_KEY" | drydock login --profile ci --url http://127.0.0.1:4317
  drydock deployments --profile prod`,
    )
    .action(api(async () => (await import('./commands/login')).default));

  withProfiles(program.command('logout'))
    .description('remove a saved profile and its credential')
    .action(api(async () => (await import('./commands/profiles')).logoutCommand));

  withProfiles(program.command('profiles'))
    .description('list the saved profiles (the desktop app’s too)')
    .action(api(async () => (await import('./commands/profiles')).listCommand));

  withConnection(program.command('deployments'), { deployment: false })
    .description('list the deployments of the service')
    .action(api(async () => (await import('./commands/deployments')).default));

  withConnection(program.command('status'))
    .description('deployment, build state of a branch and the jobs running now')
    .option('--branch <name>', 'branch whose build to show (default: the deploy branch)')
    .action(api(async () => (await import('./commands/status')).default));

  withWait(withConnection(program.command('push')))
    .description('push model views to warehouse semantic views (a warehouse push job)')
    .argument('[views...]', 'model views to push')
    .option('--all', 'push every view of the branch')
    .requiredOption('--schema <schema>', 'warehouse schema to create the semantic views in')
    .option('--prefix <prefix>', 'prefix of the semantic view names', '')
    .option('--branch <name>', 'branch to read the views from (default: the deploy branch)')
    .option('--helper-view-schema <schema>', 'schema of the helper views of SQL-defined cubes (default PUBLIC)')
    .addHelpText('after', '\nExample:\n  drydock push orders_overview product_sales --schema PUBLIC -d 1')
    .action(api(async () => (await import('./commands/push')).default));

  withWait(withConnection(program.command('pull')))
    .description('pull warehouse semantic views into model files, committed to a branch (a warehouse pull job)')
    .requiredOption('--schema <schema>', 'warehouse schema to read semantic views from')
    .requiredOption('--output-path <folder>', 'folder under model/ for the generated files, e.g. model/views/warehouse')
    .option('--view <name...>', 'semantic view names or * patterns (default: every view in the schema)')
    .option('--branch <name>', 'branch to commit to (default: the deploy branch)')
    .option('--data-source <name>', 'data source to pull from (default: default)')
    .action(api(async () => (await import('./commands/pull')).default));

  withWait(withConnection(program.command('publish')))
    .description('publish the deployed model as lakehouse metric views (a publication run)')
    .option('--data-source <name>', 'lakehouse data source (default: the only one with publication settings)')
    .option('--preview', 'only show what a run would publish (a preview job); writes nothing')
    .addHelpText('after', '\nExits 1 when the run fails or some views did not publish (PARTIAL).')
    .action(api(async () => (await import('./commands/publish')).default));

  withConnection(program.command('load-table'))
    .description('load a CSV or Parquet file into a table of a local emulator data source (all rows or none)')
    .argument('<file>', 'the .csv or .parquet file')
    .requiredOption('--schema <schema>', 'schema of the table')
    .option('--name <table>', 'table name (default: from the file name)')
    .option('--data-source <name>', 'data source of the deployment', 'default')
    .addOption(new Option('--format <format>', 'file format (default: from the file name)').choices(['csv', 'parquet']))
    .option('--replace', 'replace a table of that name (default: refuse)')
    .addHelpText('after', '\nExample:\n  drydock load-table ./orders.csv --schema ecommerce -d 1')
    .action(api(async () => (await import('./commands/load-table')).default));

  withWait(withConnection(program.command('promote')))
    .description('promote a workbook to another deployment (here, or of a remote profile): preview the changes, then --apply')
    .argument('<workbook>', 'workbook id or slug in the source deployment (-d)')
    .requiredOption('--to <deployment>', 'target deployment (id or name)')
    .option('--to-profile <name>', 'the target deployment is on this remote profile (the service sends it; a job)')
    .option('--target-workbook <id>', 'workbook to overwrite in the target (default: the last one promoted to, else same slug, else new)', integer('--target-workbook', 1))
    .option('--apply', 'apply the promotion (refused if source or target changed since the preview)')
    .addHelpText(
      'after',
      `
Examples:
  drydock promote revenue -d staging --to production                  # preview only
  drydock promote revenue -d staging --to production --apply
  drydock promote revenue -d 1 --to-profile prod --to 3 --apply       # to another Drydock or tenant`,
    )
    .action(api(async () => (await import('./commands/promote')).default));

  withConnection(program.command('review'))
    .description('review a model change on the service: what changes, what it reaches, what breaks, and the numbers before and after')
    .option('--head <ref>', 'branch or commit to review, or REF~N (default: the deploy branch; with --repo: HEAD)')
    .option('--base <ref>', 'branch or commit to compare with; a branch from where --head left it, REF~0 for its tip (default: where --head left its parent branch; with --repo: where HEAD left main or master)')
    .option('--repo <dir>', 'review offline, over the local git repository holding this project folder: the views it reaches and their numbers on the tests’ fixture tables (no service; no dashboards, reports, pushes or publications)')
    .addOption(new Option('-f, --format <format>', 'report format').choices(['text', 'json', 'markdown', 'sarif']).default('text'))
    .option('-o, --output <file>', 'write the report to a file (a text summary still goes to stdout)')
    .addOption(new Option('--fail-on <what>', 'exit 1 when something breaks, also when numbers change, or never').choices(['breaking', 'changed-numbers', 'never']).default('breaking'))
    .option('--no-data-diff', 'skip running the affected queries on both commits')
    .option('--refresh', 'review again even when this commit pair was reviewed before')
    .option('--row-limit <n>', 'rows read per query and side (default 1,000)', integer('--row-limit', 1))
    .option('--max-queries <n>', 'queries at most (default 200)', integer('--max-queries', 0))
    .option('--time-budget <ms>', 'queries not started within this time are skipped (default 60,000)', integer('--time-budget', 100))
    .option('--tolerance <fraction>', 'numbers within this fraction of each other are equal (default 1e-9)', (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('--tolerance must be a number between 0 and 1.');
      return n;
    })
    .addHelpText(
      'after',
      `
Exits 1 when the change breaks a widget, report, push or publication (with --fail-on changed-numbers
also when a query's numbers change), 0 otherwise.
Examples:
  drydock review --head my-branch -d 1
  drydock review --repo . --base origin/main --format markdown     # offline, in a pull request's CI job
  drydock review --base main~1 --head main --format markdown --output review.md
  drydock review --head my-branch --format sarif --output drydock-review.sarif --fail-on changed-numbers`,
    )
    .action(api(async () => (await import('./review/command')).default));

  const jobs = program
    .command('jobs')
    .description('list, show, wait for or cancel the jobs of a deployment (push, pull, publish, preview, transform, transfer)');
  withConnection(jobs.command('list', { isDefault: true }))
    .description('jobs of the deployment, newest first (default: running and queued ones)')
    .option('--all', 'finished jobs too')
    .addOption(new Option('--kind <kind...>', 'only these kinds').choices(['push', 'pull', 'publish', 'transform', 'transfer']))
    .option('--limit <n>', 'at most n jobs', integer('--limit', 1), 50)
    .action(api(async () => (await import('./commands/jobs')).listCommand));
  withConnection(jobs.command('show'))
    .description('status of a job (and its result once completed)')
    .argument('<id>', 'job id')
    .addOption(new Option('--kind <kind>', 'the job’s kind (found by asking the service when omitted)').choices(['push', 'pull', 'publish', 'preview', 'transform', 'transfer', 'review']))
    .action(api(async () => (await import('./commands/jobs')).showCommand));
  withConnection(jobs.command('wait'))
    .description('wait for a job to end; exits 1 unless it completed (Ctrl-C asks the service to cancel it)')
    .argument('<id>', 'job id')
    .addOption(new Option('--kind <kind>', 'the job’s kind').choices(['push', 'pull', 'publish', 'preview', 'transform', 'transfer', 'review']))
    .action(api(async () => (await import('./commands/jobs')).waitCommand));
  withConnection(jobs.command('cancel'))
    .description('ask the service to cancel a job, and wait until it stopped')
    .argument('<id>', 'job id')
    .addOption(new Option('--kind <kind>', 'the job’s kind').choices(['push', 'pull', 'publish', 'preview', 'transform', 'transfer', 'review']))
    .option('--no-wait', 'return once the cancellation is requested')
    .action(api(async () => (await import('./commands/jobs')).cancelCommand));

  return program;
}

/** Runs the command line; resolves with the exit code, or -1 while a server keeps running. */
export async function runCli(argv: string[]): Promise<number> {
  let exitCode = 0;
  let json = false;
  const program = buildProgram(
    (code) => (exitCode = code),
    (value) => (json = value),
    argv[0] === 'serve' ? 'serve' : undefined,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    // Help, version and usage errors: commander already printed them.
    if (error instanceof CommanderError) return error.exitCode;
    return reportFailure(error, json);
  }
}
