import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { startTestService, type TestService } from '../support/service';
import { createDeployment } from '../support/deployments';
import { bearerFor, createUser } from '../support/users';

const b64 = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/** Cursors a client could craft: valid base64 of JSON of every shape, and text that is not base64 of JSON. */
const CRAFTED = [
  b64('[1]'),
  b64('[]'),
  b64('{}'),
  b64('null'),
  b64('"x"'),
  b64('1'),
  b64('1.5'),
  b64('true'),
  b64('[["a"],{"b":1}]'),
  b64('{"sortBy":"name","key":[{},[]]}'),
  b64('{"sortBy":"updatedAt","key":"x"}'),
  'not a cursor',
  'eyJ.',
];

interface ListOperation {
  method: string;
  path: string;
  operationId: string;
}

interface SpecParameter {
  in: string;
  name: string;
  schema?: { type?: string };
}

/** Every operation of the OpenAPI document that takes an `after` cursor, with its path parameters filled in. */
function listOperations(spec: { paths: Record<string, Record<string, { operationId: string; parameters?: SpecParameter[] }>> }): ListOperation[] {
  const lists: ListOperation[] = [];
  for (const [template, operations] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const parameters = op.parameters ?? [];
      if (!parameters.some((p) => p.in === 'query' && p.name === 'after')) continue;
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const type = parameters.find((p) => p.in === 'path' && p.name === name)?.schema?.type;
        return type === 'integer' || type === 'number' ? '1' : 'x';
      });
      lists.push({ method: method.toUpperCase(), path, operationId: op.operationId });
    }
  }
  return lists;
}

describe('list cursors', () => {
  let svc: TestService;
  let lists: ListOperation[];

  beforeAll(async () => {
    svc = await startTestService();
    await createDeployment(svc);
    lists = listOperations((await svc.call('GET', '/api/v1/spec')).body);
  });
  afterAll(() => svc.stop());

  it('finds the list operations in the route table', () => {
    // The table is generated from the OpenAPI document, so a new list cannot skip the checks below.
    expect(lists.length).toBeGreaterThanOrEqual(40);
    expect(lists.map((l) => l.operationId)).toEqual(expect.arrayContaining(['listReports', 'listUsers', 'listDeploymentLogs', 'listFolders']));
  });

  it('every list operation answers a crafted `after` cursor with 400 INVALID_CURSOR', async () => {
    const failures: string[] = [];
    // Lists closed to API keys (embed comments) are probed with the credential they accept.
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'cursors', embedUserId: 1, deploymentId: 1 });
    const embedOnly = new Set(svc.routes.filter((r) => !(r.options.credentials ?? ['user']).includes('user')).map((r) => r.def.operationId));
    for (const list of lists) {
      for (const cursor of CRAFTED) {
        const sep = list.path.includes('?') ? '&' : '?';
        const auth = embedOnly.has(list.operationId) ? embed : undefined;
        const res = await svc.call(list.method, `${list.path}${sep}after=${encodeURIComponent(cursor)}`, { auth });
        const ok = res.status === 400 && res.body?.code === 'INVALID_CURSOR' && res.headers.get('content-type')?.startsWith('application/problem+json');
        if (!ok) failures.push(`${list.operationId} after=${cursor}: ${res.status} ${res.body?.code ?? res.text.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a cursor the service issued pages on; altered, or sent to another list, it is refused', async () => {
    for (let i = 0; i < 3; i++) createUser(svc, 'viewer');
    const page1 = await svc.call('GET', '/api/v1/users/?first=1');
    const cursor = page1.body.pageInfo.endCursor as string;
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `/api/v1/users/?first=1&after=${cursor}`);
    expect(page2.status).toBe(200);
    expect(page2.body.items[0].id).toBeGreaterThan(page1.body.items[0].id);

    const last = cursor.at(-1) === 'A' ? 'B' : 'A';
    const altered = await svc.call('GET', `/api/v1/users/?first=1&after=${cursor.slice(0, -1)}${last}`);
    expect(altered.status).toBe(400);
    expect(altered.body.code).toBe('INVALID_CURSOR');
    const forged = await svc.call('GET', `/api/v1/users/?first=1&after=${b64('999')}${cursor.slice(cursor.lastIndexOf('.'))}`);
    expect(forged.body.code).toBe('INVALID_CURSOR');

    const elsewhere = await svc.call('GET', `/api/v1/api-keys?first=1&after=${cursor}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe('INVALID_CURSOR');
  });

  it('a cursor of one deployment’s list is refused on the same list of another deployment', async () => {
    const a = await createDeployment(svc);
    const b = await createDeployment(svc);
    for (const d of [a, b]) {
      for (const name of ['ONE', 'TWO']) {
        expect((await svc.call('PUT', `/api/v1/deployments/${d}/env-vars`, { body: [{ name, value: 'v' }] })).status).toBeLessThan(300);
      }
    }
    const page = await svc.call('GET', `/api/v1/deployments/${a}/env-vars?first=1`);
    const cursor = page.body.pageInfo.endCursor as string;
    const next = await svc.call('GET', `/api/v1/deployments/${a}/env-vars?first=1&after=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.items[0].name > page.body.items[0].name).toBe(true);
    const other = await svc.call('GET', `/api/v1/deployments/${b}/env-vars?first=1&after=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('INVALID_CURSOR');
  });

  it('an empty `after` is the first page', async () => {
    const res = await svc.call('GET', '/api/v1/users/?first=1&after=');
    expect(res.status).toBe(200);
    expect(res.body.items[0].id).toBe((await svc.call('GET', '/api/v1/users/?first=1')).body.items[0].id);
  });
});

describe('list cursors across a restart', () => {
  it('a cursor issued before the service restarted on the same data still pages on', async () => {
    const secrets = new MemorySecretStore();
    const first = await startTestService({ secrets });
    createUser(first, 'viewer');
    const cursor = (await first.call('GET', '/api/v1/users/?first=1')).body.pageInfo.endCursor as string;
    await first.close();
    const again = await startTestService({ secrets, dataDir: first.dataDir });
    try {
      const res = await again.call('GET', `/api/v1/users/?first=1&after=${cursor}`);
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(1);
    } finally {
      await again.stop();
    }
  });
});
