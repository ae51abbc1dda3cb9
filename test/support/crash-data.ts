// The data the crash tests start `drydock serve` on: a fresh data dir whose local warehouse is
// ready for pushes, and a sample project of pushable views that new deployments start with.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WarehouseEmulator } from '../../src-main/connectors/warehouse';
import { prepareWarehouse, warehouseViewsModel } from './big-models';

/**
 * Makes `<name>-*` (the data dir) and `<name>-sample-*` (the sample project: `views` views over the
 * cube `sv_orders` in `model/model.yml`); the warehouse takes semantic views into `ANALYTICS.<schema>`.
 * The caller removes both dirs.
 */
export function prepareCrashData(name: string, views: number, schema: string): { dataDir: string; sampleDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const sampleDir = mkdtempSync(join(tmpdir(), `${name}-sample-`));
  mkdirSync(join(sampleDir, 'model'), { recursive: true });
  writeFileSync(join(sampleDir, 'model', 'model.yml'), warehouseViewsModel(views, 'sv_orders'));
  const emulator = new WarehouseEmulator({ file: join(dataDir, 'emulators', 'warehouse.sqlite') });
  prepareWarehouse(emulator, schema);
  emulator.close();
  return { dataDir, sampleDir };
}

/** A JSON call to a `drydock serve` process with the API key `key`; the body parsed when there is one. */
export async function callWithKey(server: { url: string }, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Api-Key ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}
