// Cancelling a long statement on the local lakehouse (DuckDB) over HTTP: the client going away
// interrupts the statement in DuckDB itself, so the next statement runs at once instead of waiting
// behind a statement nobody reads any more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';

let svc: TestService;
let deploymentId: number;
const sqlUrl = () => `${svc.url}/api/v1/deployments/${deploymentId}/data-sources/lake/sql`;

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 200 };
  deploymentId = await createDeployment(svc);
}, 180_000);
afterAll(async () => svc?.stop(), 180_000);

const post = (sql: string, signal?: AbortSignal) =>
  fetch(sqlUrl(), { method: 'POST', headers: { authorization: `Api-Key ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ sql }), signal });

/** A statement DuckDB needs many minutes for (a six-way cross join of 200 orders: 6.4e13 rows), unless interrupted. */
const LONG = `SELECT count(*) AS n FROM ${['a', 'b', 'c', 'd', 'e', 'f'].map((t) => `main.ecommerce.orders ${t}`).join(', ')} WHERE a.id + b.id + c.id + d.id + e.id + f.id > 0`;

describe('cancelling a vendor SQL statement on the local lakehouse', () => {
  it('interrupts the statement: the next statement answers while the cancelled one would still run', async () => {
    // The engine is open and warm, so the long statement starts at once.
    const warm = await post('SELECT 1 AS one');
    expect(warm.status, await warm.text()).toBe(200);
    const client = new AbortController();
    const long = post(LONG, client.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    client.abort();
    // The client saw its request end (aborted), not an answer.
    expect(await long).toBeInstanceOf(Error);
    // Uninterrupted, the cross join would hold DuckDB's threads far beyond this test's time limit.
    const next = await post('SELECT 42 AS answer');
    expect(next.status).toBe(200);
    expect((await next.json()).rows).toEqual([{ answer: 42 }]);
  }, 120_000);
});
