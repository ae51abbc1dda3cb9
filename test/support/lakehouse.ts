import { createHash } from 'node:crypto';
import { createLakehouseConnector, defaultEmulatorFile, LakehouseEmulator, type LakehouseConnector } from '../../src-main/connectors/lakehouse';
import { startSampleProjectService as startWithSampleFiles, useModelAsSampleProject as useSampleFiles, type SampleProjectService } from './sample-project';
import type { TestService } from './service';

/** What the HTTP-only helpers need: an in-process test service, or a `drydock serve` process (test/support/cli.ts). */
export type ApiCaller = Pick<TestService, 'call'>;

/**
 * Orders over the lakehouse emulator's seeded `main.default` tables (`default.x` + the data source
 * catalog `main`), on the lakehouse data source `lake`: only views of its cubes are in its scope.
 */
export const ORDERS_CUBE = `cubes:
  - name: orders
    data_source: lake
    sql_table: default.orders
    title: Orders
    description: One row per order
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: customer_id
        sql: customer_id
        type: number
        public: false
      - name: status
        sql: status
        type: string
        title: Order status
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
      - name: revenue
        sql: amount
        type: sum
        title: Revenue
        description: Sum of order amounts
`;

export const CUSTOMERS_CUBE = `cubes:
  - name: customers
    data_source: lake
    sql_table: default.customers
    joins:
      - name: orders
        sql: "{CUBE}.id = {orders.customer_id}"
        relationship: one_to_many
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: region
        sql: region
        type: string
        title: Region
      - name: country
        sql: country
        type: string
    measures:
      - name: count
        type: count
`;

/** Publishable as is. */
export const ORDERS_VIEW = `views:
  - name: orders_view
    description: Orders with the customer region
    cubes:
      - join_path: orders
        includes: [status, count, revenue]
      - join_path: orders.customers
        prefix: true
        includes: [region]
`;

/** Publishable, with the joined cube's count withheld (fan-out unsafe). */
export const ORDERS_WITH_CUSTOMER_COUNT_VIEW = `views:
  - name: orders_customers
    cubes:
      - join_path: orders
        includes: [status, count]
      - join_path: orders.customers
        prefix: true
        includes: [country, count]
`;

/** Blocked: a one-to-many join. */
export const CUSTOMER_ORDERS_VIEW = `views:
  - name: customer_orders
    cubes:
      - join_path: customers
        includes: [region, count]
      - join_path: customers.orders
        prefix: true
        includes: [status]
`;

export const LAKEHOUSE_MODEL: Record<string, string> = {
  'model/cubes/orders.yml': ORDERS_CUBE,
  'model/cubes/customers.yml': CUSTOMERS_CUBE,
  'model/views/orders_view.yml': ORDERS_VIEW,
  'model/views/orders_customers.yml': ORDERS_WITH_CUSTOMER_COUNT_VIEW,
  'model/views/customer_orders.yml': CUSTOMER_ORDERS_VIEW,
};

/** Makes new deployments start with `files` (default: the lakehouse model) as their model. */
export const useModelAsSampleProject = (files: Record<string, string> = LAKEHOUSE_MODEL) => useSampleFiles(files, 'drydock-lakehouse-sample-');

export type { SampleProjectService };

/** A test service whose new deployments start with `files` (default: the lakehouse model); its `stop` also removes the sample project folder. */
export const startSampleProjectService = (files: Record<string, string> = LAKEHOUSE_MODEL) => startWithSampleFiles(files, {}, 'drydock-lakehouse-sample-');

export const D = (id: number) => `/api/v1/deployments/${id}`;
export const integration = (id: number, dataSource = 'lake') => `${D(id)}/lakehouse-metric-view-integrations/${encodeURIComponent(dataSource)}`;

const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');

/**
 * Commits files to the deploy branch (or `branchName`) through the upload API (`null` removes a
 * file) and returns the new commit.
 */
export async function deployFiles(svc: ApiCaller, id: number, files: Record<string, string | null>, auth?: string, branchName?: string): Promise<string> {
  const writes = Object.entries(files).filter((entry): entry is [string, string] => entry[1] !== null);
  const deletePaths = Object.entries(files)
    .filter(([, content]) => content === null)
    .map(([path]) => path);
  const base = `/build/api/v1/deployments/${id}/data-model/upload`;
  const start = await svc.call('POST', `${base}/start`, {
    body: {
      files: writes.map(([path, content]) => ({ path, size: Buffer.byteLength(content), sha256: sha256(content) })),
      deletePaths,
      ...(branchName ? { branchName } : {}),
    },
    ...(auth ? { auth } : {}),
  });
  if (start.status !== 200) throw new Error(`upload start failed: ${start.status} ${start.text}`);
  for (const [path, content] of writes) {
    const sent = await svc.call('POST', `${base}/file`, {
      body: { uploadId: start.body.uploadId, path, offset: 0, data: Buffer.from(content).toString('base64') },
      ...(auth ? { auth } : {}),
    });
    if (sent.status !== 200) throw new Error(`upload of ${path} failed: ${sent.status} ${sent.text}`);
  }
  const finish = await svc.call('POST', `${base}/finish`, { body: { uploadId: start.body.uploadId }, ...(auth ? { auth } : {}) });
  if (finish.status !== 200) throw new Error(`upload finish failed: ${finish.status} ${finish.text}`);
  return finish.body.commit as string;
}

/** Polls until `check` returns a value (not undefined). */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the deploy branch's build of `commit` ended; returns the build state. */
export async function waitForBuildOf(svc: ApiCaller, id: number, commit: string) {
  return eventually(async () => {
    const res = await svc.call('GET', `${D(id)}/build-status`);
    if (res.body?.commit === commit && (res.body.buildStatus === 'succeeded' || res.body.buildStatus === 'failed')) return res.body;
    return undefined;
  }, `the build of ${commit}`);
}

/** The deployment's local lakehouse, opened on the same file the service uses. */
export function openEmulator(svc: TestService): LakehouseEmulator {
  return LakehouseEmulator.open(defaultEmulatorFile(svc.dataDir));
}

export const DEFAULT_CONFIGURATION = {
  enabled: true,
  selectionMode: 'all',
  targetCatalog: 'main',
  targetSchema: 'default',
  targetNamePrefix: 'mv_',
};

/** Saves settings (creating or updating) and returns the response body. */
export async function saveSettings(svc: ApiCaller, id: number, configuration: Record<string, unknown>, dataSource = 'lake') {
  const current = await svc.call('GET', integration(id, dataSource));
  const version = current.status === 200 ? current.body.configurationVersion : 0;
  const res = await svc.call('PUT', integration(id, dataSource), {
    body: { expectedConfigurationVersion: version, configuration: { ...DEFAULT_CONFIGURATION, ...configuration } },
  });
  if (res.status !== 200) throw new Error(`saving settings failed: ${res.status} ${res.text}`);
  return res.body;
}

const TERMINAL = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];

/** Polls a run's status URL until it ended. */
export async function waitForRun(svc: TestService, statusUrl: string) {
  return eventually(async () => {
    const res = await svc.call('GET', statusUrl);
    return TERMINAL.includes(res.body?.status) ? res.body : undefined;
  }, `run ${statusUrl}`);
}

/** Starts a run of the current settings and waits for its end. */
export async function publish(svc: TestService, id: number, dataSource = 'lake') {
  const settings = await svc.call('GET', integration(id, dataSource));
  const start = await svc.call('POST', `${integration(id, dataSource)}/syncs`, { body: { configurationVersion: settings.body.configurationVersion } });
  if (start.status !== 202) throw new Error(`starting a run failed: ${start.status} ${start.text}`);
  return waitForRun(svc, start.body.statusUrl as string);
}

/** Starts a preview and waits for its result. */
export async function preview(svc: TestService, id: number, body: Record<string, unknown> = {}) {
  const start = await svc.call('POST', `${D(id)}/lakehouse-metric-view-previews`, { body: { dataSourceName: 'lake', ...body } });
  if (start.status !== 202) throw new Error(`starting a preview failed: ${start.status} ${start.text}`);
  const status = await eventually(async () => {
    const res = await svc.call('GET', start.body.statusUrl);
    return TERMINAL.includes(res.body?.status) ? res.body : undefined;
  }, 'the preview');
  const result = await svc.call('GET', start.body.resultUrl);
  return { start: start.body, status, result };
}

/** The entry of one view in a run's or preview's `views` (response bodies are untyped JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const viewOf = (views: { viewName: string }[], name: string): any => {
  const found = views.find((v) => v.viewName === name);
  if (!found) throw new Error(`no entry for view ${name} in ${JSON.stringify(views.map((v) => v.viewName))}`);
  return found;
};

/** A promise a test resolves when it wants a gated call to go on. */
export class Gate {
  readonly opened: Promise<void>;
  private resolveOpen!: () => void;
  /** Resolves once something waits at the gate. */
  readonly reached: Promise<void>;
  private resolveReached!: () => void;
  constructor() {
    this.opened = new Promise((resolve) => (this.resolveOpen = resolve));
    this.reached = new Promise((resolve) => (this.resolveReached = resolve));
  }
  async pass(): Promise<void> {
    this.resolveReached();
    await this.opened;
  }
  open(): void {
    this.resolveOpen();
  }
}

export interface ConnectorHooks {
  /** Awaited before the warehouse check (the first call of a run or preview). */
  beforeWarehouseCheck?: () => Promise<void>;
  /** Awaited before reading a target. */
  beforeGetObject?: (name: string) => Promise<void>;
}

/**
 * Makes the service's lakehouse connectors (still the emulator's file) wait at the hooks, so a
 * test can observe a run or preview while it is RUNNING. Returns the undo.
 */
export function hookConnector(svc: TestService, hooks: ConnectorHooks): () => void {
  svc.ctx.services.lakehouseConnectorFactory = () => {
    const real = createLakehouseConnector({ kind: 'local', file: defaultEmulatorFile(svc.dataDir) });
    const hooked: LakehouseConnector = {
      getObject: async (catalog, schema, name) => {
        await hooks.beforeGetObject?.(name);
        return real.getObject(catalog, schema, name);
      },
      createOrReplaceMetricView: (...args) => real.createOrReplaceMetricView(...args),
      dropView: (...args) => real.dropView(...args),
      checkSourceReadable: (source) => real.checkSourceReadable(source),
      checkWarehouseAccess: async () => {
        await hooks.beforeWarehouseCheck?.();
        return real.checkWarehouseAccess();
      },
      checkSchemaAccess: (catalog, schema) => real.checkSchemaAccess(catalog, schema),
      close: () => real.close(),
    };
    return hooked;
  };
  return () => {
    delete svc.ctx.services.lakehouseConnectorFactory;
  };
}
