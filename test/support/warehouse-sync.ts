import { afterAll, beforeAll, expect } from 'vitest';
import { commitFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { createDeployment } from './deployments';
import { waitForJobEnd } from './job-polling';
import { startSampleProjectService } from './sample-project';
import type { TestResponse, TestService } from './service';
import { createOrderTables } from './warehouse-tables';

/*
 * The set-up the warehouse semantic view sync tests (test/api/warehouse-sync-*.test.ts) share: a
 * test service over the local warehouse's order tables whose deployments hold exactly MODEL (an
 * empty sample project), and the push and pull calls. `svc` is a live binding: it holds the file's
 * service once `useWarehouseSyncService()`'s `beforeAll` has run.
 */

export const MODEL = `
cubes:
  - name: sv_orders
    sql_table: public.orders
    description: All orders
    joins:
      - name: sv_customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {sv_customers.id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: "{CUBE}.status", type: string, description: Order status }
      - name: created_at
        sql: created_at
        type: time
        granularities: [{ name: fiscal_year, interval: 1 year, offset: 3 months }]
    measures:
      - { name: count, type: count }
      - { name: total, sql: amount, type: sum }
      - { name: ratio, sql: "{CUBE.total} / {CUBE.count}", type: number }
    segments:
      - { name: big, sql: "{CUBE}.amount > 100" }
  - name: sv_customers
    sql: SELECT * FROM ANALYTICS.PUBLIC.CUSTOMERS
    dimensions:
      - { name: id, sql: "{CUBE}.id", type: number, primary_key: true }
      - { name: name, sql: name, type: string }
  - name: mixed_case
    sql_table: public.orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: orderStatus, sql: status, type: string }
      - { name: orderstatus, sql: status, type: string }
views:
  - name: orders_view
    description: Orders with customers
    cubes:
      - join_path: sv_orders
        includes: [status, created_at, count, total, big]
      - join_path: sv_orders.sv_customers
        prefix: true
        includes: [name]
  - name: totals_view
    cubes:
      - join_path: sv_orders
        includes: [status, total]
  - name: ratio_view
    cubes:
      - join_path: sv_orders
        includes: [status, ratio]
  - name: camel_view
    cubes:
      - join_path: mixed_case
        includes: [orderStatus]
  - name: colliding_view
    cubes:
      - join_path: mixed_case
        includes: [orderStatus, orderstatus]
`;

export let svc: TestService;

/** Starts the file's service (empty sample project, order tables in ANALYTICS.PUBLIC) before its tests; stops it after. */
export function useWarehouseSyncService(): void {
  beforeAll(async () => {
    svc = await startSampleProjectService({}, {}, 'drydock-empty-sample-');
    createOrderTables(getLocalWarehouse(svc.ctx));
  });
  afterAll(async () => svc.stop());
}

export const D = (deploymentId: number) => `/api/v1/deployments/${deploymentId}`;
export const AUTHOR = { name: 'Test', email: 'test@example.com' };
let schemaCounter = 0;

/** A deployment whose deploy branch holds MODEL, and a fresh emulator schema for its semantic views. */
export async function setup(): Promise<{ id: number; schema: string }> {
  const id = await createDeployment(svc);
  await commitFiles(svc.ctx, id, 'main', [{ path: 'model/sync/model.yml', content: MODEL }], 'sync test model', AUTHOR);
  const schema = `SYNC_${++schemaCounter}`;
  const emulator = getLocalWarehouse(svc.ctx);
  emulator.createSchema('ANALYTICS', schema);
  emulator.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema });
  return { id, schema };
}

export const waitForEnd = (path: string, auth?: string): Promise<TestResponse> => waitForJobEnd(svc, path, auth);

export async function push(id: number, body: Record<string, unknown>) {
  const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body });
  expect(start.status, start.text).toBe(202);
  const progress = await waitForEnd(`${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
  const result = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}/result`);
  return { start, progress, result };
}

export async function pull(id: number, body: Record<string, unknown>) {
  const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body });
  expect(start.status, start.text).toBe(202);
  const progress = await waitForEnd(`${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}`);
  const result = await svc.call('GET', `${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}/result`);
  return { start, progress, result };
}

export const uuid = () => crypto.randomUUID();
