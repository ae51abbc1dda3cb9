import { describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { dep, svc, useServiceWithDeployment } from '../support/deployment-service';

// The deprecated `count` of the reports and folders lists is kept by triggers (no COUNT per page):
// these tests hold it to what the list itself shows after creates, moves and deletes.

useServiceWithDeployment();

const R = (d = dep) => `/api/v1/deployments/${d}/reports`;
const F = (d = dep) => `/api/v1/deployments/${d}/folders`;

async function putReport(publicId: string, folderId: number | null, d = dep) {
  const res = await svc.call('PUT', `${R(d)}/by-public-id/${publicId}`, { body: { name: publicId, folderId } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

async function folder(name: string, parentId: number | null = null, d = dep): Promise<number> {
  const res = await svc.call('POST', F(d), { body: { name, parentId } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

/** The count the list reports, and the number of items the list actually holds. */
async function countAndItems(path: string): Promise<[number, number]> {
  const res = await svc.call('GET', `${path}${path.includes('?') ? '&' : '?'}first=1000`);
  expect(res.status, res.text).toBe(200);
  return [res.body.count, res.body.items.length];
}

describe('deprecated count of lists', () => {
  it('reports: count equals the listed items, overall and per folder, through creates, moves and deletes', async () => {
    const a = await folder('A');
    const b = await folder('B');
    const ids = [await putReport('r1', null), await putReport('r2', null), await putReport('r3', a), await putReport('r4', a)];
    const check = async (all: number, root: number, inA: number, inB: number) => {
      expect(await countAndItems(R())).toEqual([all, all]);
      expect(await countAndItems(`${R()}?folderId=0`)).toEqual([root, root]);
      expect(await countAndItems(`${R()}?folderId=${a}`)).toEqual([inA, inA]);
      expect(await countAndItems(`${R()}?folderId=${b}`)).toEqual([inB, inB]);
    };
    await check(4, 2, 2, 0);
    await putReport('r1', b); // moved from the top level into B
    await check(4, 1, 2, 1);
    await putReport('r3', null); // moved from A to the top level
    await check(4, 2, 1, 1);
    expect((await svc.call('DELETE', `${R()}/${ids[3]}`)).status).toBe(204);
    await check(3, 2, 0, 1);
  });

  it('reports: a search filter counts the matching reports', async () => {
    const d = await createDeployment(svc);
    await putReport('alpha-1', null, d);
    await putReport('alpha-2', null, d);
    await putReport('beta-1', null, d);
    expect(await countAndItems(`${R(d)}?search=alpha`)).toEqual([2, 2]);
    expect(await countAndItems(R(d))).toEqual([3, 3]);
  });

  it('folders: count equals the listed folders, overall and per parent, through creates, moves and deletes', async () => {
    const d = await createDeployment(svc);
    const top = await folder('Top', null, d);
    const child = await folder('Child', top, d);
    await folder('Other', null, d);
    expect(await countAndItems(F(d))).toEqual([3, 3]);
    expect(await countAndItems(`${F(d)}?parentId=0`)).toEqual([2, 2]);
    expect(await countAndItems(`${F(d)}?parentId=${top}`)).toEqual([1, 1]);
    expect((await svc.call('PUT', `${F(d)}/${child}`, { body: { name: 'Child', parentId: null } })).status).toBe(200);
    expect(await countAndItems(`${F(d)}?parentId=0`)).toEqual([3, 3]);
    expect(await countAndItems(`${F(d)}?parentId=${top}`)).toEqual([0, 0]);
    expect((await svc.call('DELETE', `${F(d)}/${child}`)).status).toBe(204);
    expect(await countAndItems(F(d))).toEqual([2, 2]);
  });

  it('a deleted deployment leaves no counts behind', async () => {
    const d = await createDeployment(svc);
    await putReport('gone', null, d);
    await folder('Gone', null, d);
    expect((await svc.call('DELETE', `/api/v1/deployments/${d}`)).status).toBeLessThan(300);
    const left = svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM list_counts WHERE deployment_id = ?').get(d) as { n: number };
    expect(left.n).toBe(0);
  });
});
