import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

let counter = 0;
const unique = (base: string) => `${base}_${++counter}`;
async function attribute(body: Record<string, unknown>): Promise<{ id: number; name: string }> {
  const res = await svc.call('POST', '/api/v1/user-attributes/', { body: { name: unique('attr'), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const setValues = (userId: number, values: unknown[], auth?: string) =>
  svc.call('POST', '/api/v1/user-attribute-values/', { body: { userId, values }, auth });

describe('user attributes', () => {
  it('creates and reads each of the types string, number, boolean, string_array, number_array', async () => {
    const defaults: Record<string, unknown> = { string: 'emea', number: 3, boolean: true, string_array: ['a', 'b'], number_array: [1, 2.5] };
    for (const [type, defaultValue] of Object.entries(defaults)) {
      const created = await attribute({ type, defaultValue, displayName: `The ${type}` });
      const res = await svc.call('GET', `/api/v1/user-attributes/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, type, defaultValue, displayName: `The ${type}`, description: null });
    }
  });

  it('refuses an unknown type and a default of the wrong type with 400', async () => {
    expect((await svc.call('POST', '/api/v1/user-attributes/', { body: { name: unique('x'), type: 'date' } })).status).toBe(400);
    const wrong = await svc.call('POST', '/api/v1/user-attributes/', { body: { name: unique('x'), type: 'number_array', defaultValue: ['1'] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('USER_ATTRIBUTE_VALUE_INVALID');
    expect(wrong.body.errors[0].pointer).toBe('/body/defaultValue');
  });

  it('refuses a name that is not an identifier with 400 and a taken name with 409', async () => {
    expect((await svc.call('POST', '/api/v1/user-attributes/', { body: { name: 'has space', type: 'string' } })).status).toBe(400);
    const first = await attribute({ type: 'string' });
    const dup = await svc.call('POST', '/api/v1/user-attributes/', { body: { name: first.name.toUpperCase(), type: 'number' } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('USER_ATTRIBUTE_NAME_TAKEN');
  });

  it('lists with cursor pagination (first, after → items, pageInfo)', async () => {
    for (let i = 0; i < 3; i++) await attribute({ type: 'string' });
    const all = await svc.call('GET', '/api/v1/user-attributes/?first=1000');
    const total = all.body.items.length;
    const seen: number[] = [];
    let after: string | null = null;
    do {
      const res = await svc.call('GET', `/api/v1/user-attributes/?first=2${after ? `&after=${after}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: { id: number }) => i.id));
      after = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('updates only the fields sent; 404 for an unknown attribute', async () => {
    const created = await attribute({ type: 'string', description: 'before' });
    const res = await svc.call('PUT', `/api/v1/user-attributes/${created.id}`, { body: { displayName: 'Region' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: created.name, displayName: 'Region', description: 'before', type: 'string' });
    const missing = await svc.call('PUT', '/api/v1/user-attributes/999999', { body: { displayName: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('USER_ATTRIBUTE_NOT_FOUND');
  });

  it('changes the type only while no user has a value (409 USER_ATTRIBUTE_IN_USE)', async () => {
    const created = await attribute({ type: 'string' });
    expect((await svc.call('PUT', `/api/v1/user-attributes/${created.id}`, { body: { type: 'number' } })).body.type).toBe('number');
    const user = createUser(svc, 'viewer');
    expect((await setValues(user.id, [{ attributeId: created.id, value: 7 }])).status).toBe(200);
    const res = await svc.call('PUT', `/api/v1/user-attributes/${created.id}`, { body: { type: 'string' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('USER_ATTRIBUTE_IN_USE');
  });

  it('refuses a type change that the kept default does not fit', async () => {
    const created = await attribute({ type: 'number', defaultValue: 5 });
    const res = await svc.call('PUT', `/api/v1/user-attributes/${created.id}`, { body: { type: 'boolean' } });
    expect(res.status).toBe(400);
    const ok = await svc.call('PUT', `/api/v1/user-attributes/${created.id}`, { body: { type: 'boolean', defaultValue: false } });
    expect(ok.body).toMatchObject({ type: 'boolean', defaultValue: false });
  });

  it('is admin only', async () => {
    const developer = createUser(svc, 'developer');
    expect((await svc.call('GET', '/api/v1/user-attributes/', { auth: developer.auth })).status).toBe(403);
    expect((await svc.call('POST', '/api/v1/user-attributes/', { body: { name: unique('d'), type: 'string' }, auth: developer.auth })).status).toBe(403);
  });
});

describe('user attribute values', () => {
  it('sets values of every type and reads them back, with defaults for attributes the user has no value of', async () => {
    const region = await attribute({ type: 'string' });
    const quota = await attribute({ type: 'number' });
    const beta = await attribute({ type: 'boolean', defaultValue: false });
    const teams = await attribute({ type: 'string_array' });
    const ids = await attribute({ type: 'number_array' });
    const user = createUser(svc, 'viewer');
    const res = await setValues(user.id, [
      { attributeId: region.id, value: 'emea' },
      { attributeId: quota.id, value: 12.5 },
      { attributeId: teams.id, value: ['red', 'blue'] },
      { attributeId: ids.id, value: [1, 2, 3] },
    ]);
    expect(res.status, res.text).toBe(200);
    const got = await svc.call('GET', `/api/v1/user-attribute-values/${user.id}`);
    expect(got.status).toBe(200);
    const byId = Object.fromEntries(got.body.values.map((v: { attributeId: number }) => [v.attributeId, v]));
    expect(byId[region.id]).toMatchObject({ value: 'emea', type: 'string', isDefault: false });
    expect(byId[quota.id].value).toBe(12.5);
    expect(byId[teams.id].value).toEqual(['red', 'blue']);
    expect(byId[ids.id].value).toEqual([1, 2, 3]);
    expect(byId[beta.id]).toMatchObject({ value: false, isDefault: true });
  });

  it('validates each value against its attribute’s type and writes nothing when one is wrong', async () => {
    const count = await attribute({ type: 'number' });
    const names = await attribute({ type: 'string_array' });
    const user = createUser(svc, 'viewer');
    const cases: [number, unknown][] = [
      [count.id, '12'],
      [count.id, [1]],
      [names.id, 'solo'],
      [names.id, [1, 'a']],
    ];
    for (const [attributeId, value] of cases) {
      const res = await setValues(user.id, [{ attributeId, value }]);
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body.code).toBe('USER_ATTRIBUTE_VALUE_INVALID');
    }
    const mixed = await setValues(user.id, [
      { attributeId: count.id, value: 3 },
      { attributeId: names.id, value: [true] },
    ]);
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0].pointer).toBe('/body/values/1/value');
    const got = await svc.call('GET', `/api/v1/user-attribute-values/${user.id}`);
    expect(got.body.values.find((v: { attributeId: number }) => v.attributeId === count.id)).toBeUndefined();
  });

  it('clears a value with null, so the default applies again', async () => {
    const level = await attribute({ type: 'number', defaultValue: 1 });
    const user = createUser(svc, 'viewer');
    await setValues(user.id, [{ attributeId: level.id, value: 9 }]);
    const cleared = await setValues(user.id, [{ attributeId: level.id, value: null }]);
    expect(cleared.body.values.find((v: { attributeId: number }) => v.attributeId === level.id)).toMatchObject({ value: 1, isDefault: true });
  });

  it('answers 400 for an unknown attribute or user, and 404 reading values of an unknown user', async () => {
    const user = createUser(svc, 'viewer');
    const unknownAttr = await setValues(user.id, [{ attributeId: 999999, value: 'x' }]);
    expect(unknownAttr.status).toBe(400);
    expect(unknownAttr.body.code).toBe('USER_ATTRIBUTE_NOT_FOUND');
    const anAttr = await attribute({ type: 'string' });
    expect((await setValues(999999, [{ attributeId: anAttr.id, value: 'x' }])).status).toBe(400);
    expect((await svc.call('GET', '/api/v1/user-attribute-values/999999')).status).toBe(404);
  });

  it('lets a user read their own values, not another user’s; only admins write', async () => {
    const attr = await attribute({ type: 'string' });
    const alice = createUser(svc, 'viewer');
    const bob = createUser(svc, 'developer');
    await setValues(alice.id, [{ attributeId: attr.id, value: 'mine' }]);
    const own = await svc.call('GET', `/api/v1/user-attribute-values/${alice.id}`, { auth: alice.auth });
    expect(own.status).toBe(200);
    expect(own.body.values.find((v: { attributeId: number }) => v.attributeId === attr.id).value).toBe('mine');
    expect((await svc.call('GET', `/api/v1/user-attribute-values/${alice.id}`, { auth: bob.auth })).status).toBe(403);
    expect((await setValues(bob.id, [{ attributeId: attr.id, value: 'x' }], bob.auth)).status).toBe(403);
  });
});
