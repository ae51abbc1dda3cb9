import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src-main/platform/clock';
import { expect } from 'vitest';
import { LakehouseEmulator, LakehouseError, LocalLakehouseConnector } from '../../../../src-main/connectors/lakehouse';

/** A valid metric view over the seeded tables, with a star join. */
export const ORDERS_YAML = `version: 1.1
comment: Orders KPIs
source: main.default.orders
filter: status <> 'cancelled'
joins:
  - name: customer
    source: main.default.customers
    'on': source.customer_id = customer.id
dimensions:
  - name: status
    expr: source.status
    display_name: Status
  - name: region
    expr: customer.region
    comment: Customer region
    synonyms: [area]
measures:
  - name: order_count
    expr: COUNT(1)
  - name: revenue
    expr: SUM(source.amount)
    display_name: Revenue
    format:
      type: currency
      currency_code: USD
`;

export interface TempLakehouse {
  dir: string;
  file: string;
  clock: ManualClock;
  emulator: LakehouseEmulator;
  connector: LocalLakehouseConnector;
  reopen(): { emulator: LakehouseEmulator; connector: LocalLakehouseConnector };
  cleanup(): void;
}

export function tempLakehouse(options: { seed?: boolean } = {}): TempLakehouse {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-lakehouse-'));
  const file = join(dir, 'lakehouse.sqlite');
  const clock = new ManualClock();
  const opened: LakehouseEmulator[] = [];
  const open = () => {
    const emulator = LakehouseEmulator.open(file, { clock, seed: options.seed });
    opened.push(emulator);
    return { emulator, connector: new LocalLakehouseConnector(emulator) };
  };
  const first = open();
  return {
    dir,
    file,
    clock,
    emulator: first.emulator,
    connector: first.connector,
    reopen: open,
    cleanup() {
      for (const emulator of opened) emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The LakehouseError `promise` rejects with (the test fails if it resolves or rejects with anything else). */
export async function failure(promise: Promise<unknown>): Promise<LakehouseError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LakehouseError);
    return error as LakehouseError;
  }
  throw new Error('expected the call to fail');
}
