/**
 * Issue 27 item 3: the unknown-key rule (src-shared/api/unknown-fields.ts) over HTTP, generated from
 * the route table, so every operation with a JSON body is in it the moment it is registered.
 *
 * For each operation a body valid against its schema is generated (and checked valid with the
 * service's own validator options), then sent with one key more: at the top level, and inside every
 * object the body describes field by field. A refusing operation answers 400 `UNKNOWN_FIELD` naming
 * the key and its pointer; a listed exception answers as it would without the key, which it neither
 * stores nor echoes. Prototype names as keys are refused cleanly everywhere.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { generateSync } from 'json-schema-faker';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src-main/http/route';
import { UNKNOWN_FIELDS_EXTENSION, UNKNOWN_FIELDS_IGNORED, unknownFieldsPolicy } from '../../src-shared/api/unknown-fields';
import { createDeployment } from '../support/deployments';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';

type Schema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

const UNKNOWN = '__unknown_key__';

let svc: TestService;
let home: number;
let embedAuth: string;
let deploymentTokenAuth: string;
let withBody: RouteEntry[];

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 200 };
  home = await createDeployment(svc, 'unknown-fields');
  const settings = await svc.call('PUT', '/api/v1/tenant/settings', { body: { embeddingEnabled: true } });
  expect(settings.status, settings.text).toBe(200);
  const generated = await svc.call('POST', '/api/v1/embed/generate-session', {
    body: { deploymentId: home, embedTenantName: 'unknown-fields', externalId: 'someone', embedTenantProfile: { settings: { enableDashboardComments: true } } },
  });
  expect(generated.status, generated.text).toBe(200);
  const exchanged = await svc.call('POST', '/api/v1/embed/session/token', { auth: null, body: { sessionId: generated.body.sessionId } });
  expect(exchanged.status, exchanged.text).toBe(200);
  embedAuth = `Bearer ${exchanged.body.token}`;
  const minted = await svc.call('POST', `/api/v1/deployments/${home}/token`, { body: {} });
  expect(minted.status, minted.text).toBe(200);
  deploymentTokenAuth = `Bearer ${minted.body.token}`;
  // Every area registers its operations by the time the document is built.
  expect((await svc.call('GET', '/api/v1/spec', { auth: null })).status).toBe(200);
  withBody = svc.routes.filter((entry) => entry.def.body !== undefined);
}, 120_000);
afterAll(async () => svc?.stop());

// ---- generating valid requests ------------------------------------------------------------------

/** The service's body validator (src-main/http/server.ts): no coercion, defaults filled in. */
const ajv = addFormats.default(new Ajv({ allErrors: true, useDefaults: true, strict: false, strictNumbers: true, coerceTypes: false }));
const textAjv = addFormats.default(new Ajv({ allErrors: true, useDefaults: true, strict: false, strictNumbers: true, coerceTypes: 'array' }));
const validators = new Map<object, ValidateFunction>();
function isValid(schema: object, value: unknown, text = false): boolean {
  const validate = validators.get(schema) ?? (text ? textAjv : ajv).compile(schema);
  validators.set(schema, validate);
  return validate(structuredClone(value)) as boolean;
}

/** Lengths and counts capped so generated values stay small (an upload chunk may be megabytes). */
function capped(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(capped);
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'maxLength' && typeof value === 'number') out[key] = Math.min(value, Math.max(Number(s.minLength ?? 0), 40));
    else if (key === 'maxItems' && typeof value === 'number') out[key] = Math.min(value, Math.max(Number(s.minItems ?? 0), 2));
    else out[key] = capped(value);
  }
  if (out.type === 'array' && out.maxItems === undefined) out.maxItems = Math.max(Number(out.minItems ?? 0), 2);
  return out;
}

/** A value valid against `schema`, with every optional field (`full`) or only the required ones. */
function validValue(schema: Schema, full: boolean, text = false): unknown {
  const small = capped(schema) as Schema;
  for (let seed = 1; seed <= 40; seed++) {
    let value: unknown;
    try {
      value = generateSync(structuredClone(small) as never, { seed, maxDepth: 6, alwaysFakeOptionals: full, optionalsProbability: full ? 1 : 0 } as never);
    } catch {
      continue;
    }
    if (isValid(schema, value, text)) return value;
  }
  throw new Error(`no valid value generated for ${JSON.stringify(schema).slice(0, 300)}`);
}

/** A credential the operation takes, so the request gets past authentication to its body. */
function authFor(entry: RouteEntry): string | null {
  if (entry.def.auth === 'public') return null;
  const kinds = entry.options.credentials ?? ['user'];
  if (kinds.includes('user')) return `Api-Key ${ADMIN_KEY}`;
  if (kinds.includes('embed')) return embedAuth;
  if (kinds.includes('deploymentToken')) return deploymentTokenAuth;
  throw new Error(`${entry.def.operationId}: no credential of the test takes it (${kinds.join(', ')})`);
}

function pathOf(entry: RouteEntry): string {
  const params = entry.def.params as Schema | undefined;
  const values = params ? (validValue(params, true, true) as Record<string, unknown>) : {};
  return entry.def.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === 'deploymentId' ? String(home) : encodeURIComponent(String(values[name]))));
}

async function send(entry: RouteEntry, path: string, body: string) {
  const auth = authFor(entry);
  const res = await fetch(`${svc.url}${path}`, {
    method: entry.def.method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    body,
  });
  const text = await res.text();
  let json: { code?: string; detail?: string; errors?: { pointer: string; detail: string }[] } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the assertions below say what was expected.
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
}

/** Pointers (`/widgets/0`) of the objects in `value` whose schema is closed. */
function closedObjectsIn(value: unknown, schema: Schema, at = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length > 0) {
    const branch = branches.find((b) => (Array.isArray(value) ? b.type === 'array' : b.type === 'object' || b.properties !== undefined));
    return branch ? closedObjectsIn(value, branch, at) : [];
  }
  if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => closedObjectsIn(item, schema.items as Schema, `${at}/${i}`)) : [];
  const found = schema.properties && schema.additionalProperties === false ? [at] : [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childSchema = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : undefined);
    if (childSchema) found.push(...closedObjectsIn(child, childSchema, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`));
  }
  return found;
}

/** `body` with `key: 1` added to the object at `pointer`. */
function withKeyAt(body: unknown, pointer: string, key: string): unknown {
  const copy = structuredClone(body);
  let node = copy as Record<string, unknown>;
  for (const part of pointer.split('/').slice(1)) node = node[part.replaceAll('~1', '/').replaceAll('~0', '~')] as Record<string, unknown>;
  node[key] = 1;
  return copy;
}

const isRefused = (res: { status: number; json: { code?: string } }) => res.status === 400 && (res.json.code === 'UNKNOWN_FIELD' || res.json.code === 'VALIDATION_FAILED');

function expectUnknownField(res: Awaited<ReturnType<typeof send>>, pointer: string, key: string, where: string): string | null {
  if (res.status !== 400 || res.json.code !== 'UNKNOWN_FIELD') return `${where}: expected 400 UNKNOWN_FIELD, got ${res.status} ${res.text.slice(0, 240)}`;
  if (!res.contentType.startsWith('application/problem+json')) return `${where}: not problem+json (${res.contentType})`;
  const errors = res.json.errors ?? [];
  if (!errors.some((e) => e.pointer === pointer && e.detail === 'is not a known field')) return `${where}: errors[] does not name ${pointer}: ${JSON.stringify(errors)}`;
  if (!res.json.detail?.includes(key) || !res.json.detail.includes(pointer)) return `${where}: the detail does not name ${key} at ${pointer}: ${res.json.detail}`;
  return null;
}

// ---- what is persisted -----------------------------------------------------------------------------

/** Every row of every table of the service's SQLite file, as text per table. */
function databaseRows(): Map<string, string> {
  const tables = svc.ctx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  return new Map(tables.map(({ name }) => [name, JSON.stringify(svc.ctx.db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all())]));
}

/** Every file under the data directory (repositories, uploads, artifacts) with its size, but the database's own. */
function dataFiles(dir = svc.dataDir, at = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${at}/${entry.name}`;
    if (entry.isDirectory()) return dataFiles(join(dir, entry.name), path);
    if (at === '' && /\.(sqlite|db)(-wal|-shm|-journal)?$/.test(entry.name)) return [];
    return [`${path} ${statSync(join(dir, entry.name)).size}`];
  });
}

/** Tables and files that differ between two snapshots. */
function changedSince(before: { rows: Map<string, string>; files: string[] }): string[] {
  const changed: string[] = [];
  const rows = databaseRows();
  for (const [table, text] of rows) if (before.rows.get(table) !== text) changed.push(`table ${table}`);
  const files = new Set(dataFiles());
  for (const file of files) if (!before.files.includes(file)) changed.push(`file ${file}`);
  for (const file of before.files) if (!files.has(file)) changed.push(`file ${file} (gone)`);
  return changed;
}

// ---- the rule over every operation ------------------------------------------------------------------

describe('an unknown key in a request body (every operation with a JSON body)', () => {
  it('the document marks every operation with a body refuse or ignore, as the contract lists them', async () => {
    const spec = (await svc.call('GET', '/api/v1/spec', { auth: null })).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const marks = new Map<string, unknown>();
    for (const ops of Object.values(spec.paths)) for (const op of Object.values(ops)) if (op.requestBody) marks.set(op.operationId as string, op[UNKNOWN_FIELDS_EXTENSION]);
    expect(marks.size).toBe(withBody.length);
    for (const entry of withBody) expect(marks.get(entry.def.operationId), entry.def.operationId).toBe(unknownFieldsPolicy(entry.def.operationId));
    expect([...marks.values()].filter((mark) => mark === 'ignore')).toHaveLength(Object.keys(UNKNOWN_FIELDS_IGNORED).length);
  });

  it('at the top level: 400 UNKNOWN_FIELD naming the key and /body/<key>, and nothing is written', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    let refused = 0;
    const before = { rows: databaseRows(), files: dataFiles() };
    for (const entry of withBody.filter((e) => unknownFieldsPolicy(e.def.operationId) === 'refuse')) {
      // Without the key, this body would be accepted: the request is refused for the key alone.
      const body = validValue(entry.def.body as Schema, false);
      if (Array.isArray(body)) continue;
      const res = await send(entry, pathOf(entry), JSON.stringify({ ...(body as object), [UNKNOWN]: 1 }));
      const why = expectUnknownField(res, `/body/${UNKNOWN}`, UNKNOWN, entry.def.operationId);
      if (why) failures.push(why);
      else refused++;
    }
    expect(failures).toEqual([]);
    expect(changedSince(before)).toEqual([]);
    // Every operation whose body is an object (one takes a list: `setEnvVars`, whose items are checked below).
    expect(refused).toBe(withBody.length - Object.keys(UNKNOWN_FIELDS_IGNORED).length - 1);
    // The snapshot sees a write: the same folder body without the key is saved.
    const createFolder = withBody.find((e) => e.def.operationId === 'createFolder')!;
    const saved = await send(createFolder, pathOf(createFolder), JSON.stringify({ name: 'written' }));
    expect(saved.status, saved.text).toBe(201);
    expect(changedSince(before)).toContain('table folders');
    expect((await svc.call('DELETE', `/api/v1/deployments/${home}/folders/${(saved.json as { id?: number }).id}`)).status).toBe(204);
  });

  it('the listed exceptions accept an unknown top-level key and neither refuse nor echo it', async () => {
    const failures: string[] = [];
    for (const entry of withBody.filter((e) => unknownFieldsPolicy(e.def.operationId) === 'ignore')) {
      const body = validValue(entry.def.body as Schema, false);
      const res = await send(entry, pathOf(entry), JSON.stringify({ ...(body as object), [UNKNOWN]: 1 }));
      if (isRefused(res) || res.status >= 500 || res.text.includes(UNKNOWN)) failures.push(`${entry.def.operationId}: ${res.status} ${res.text.slice(0, 240)}`);
    }
    expect(failures).toEqual([]);
  });

  it('inside the body: every object the contract describes field by field refuses a key it does not describe, at its own pointer', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    let nested = 0;
    const before = { rows: databaseRows(), files: dataFiles() };
    for (const entry of withBody) {
      const schema = entry.def.body as Schema;
      const body = validValue(schema, true);
      const path = pathOf(entry);
      for (const at of closedObjectsIn(body, schema).filter((pointer) => pointer !== '')) {
        const res = await send(entry, path, JSON.stringify(withKeyAt(body, at, UNKNOWN)));
        const why = expectUnknownField(res, `/body${at}/${UNKNOWN}`, UNKNOWN, `${entry.def.operationId} at ${at}`);
        if (why) failures.push(why);
        nested++;
      }
    }
    expect(failures).toEqual([]);
    expect(changedSince(before)).toEqual([]);
    // Dashboards (layout, theme, widgets, positions), notifications, placements, uploads, …
    expect(nested).toBeGreaterThan(60);
  });

  it('several unknown keys are each named, with RFC 6901 pointers, and reported before the body’s other faults', async () => {
    const res = await svc.call('POST', `/api/v1/deployments/${home}/folders`, { body: { name: 7, 'a/b': 1, 'c~d': 2, [UNKNOWN]: 3 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_FIELD');
    expect(res.body.errors).toEqual([
      { pointer: '/body/a~1b', detail: 'is not a known field' },
      { pointer: '/body/c~0d', detail: 'is not a known field' },
      { pointer: `/body/${UNKNOWN}`, detail: 'is not a known field' },
    ]);
    expect(res.body.detail).toContain('"a/b"');
    // Once they are gone, the other fault is answered.
    const next = await svc.call('POST', `/api/v1/deployments/${home}/folders`, { body: { name: 7 } });
    expect(next.status).toBe(400);
    expect(next.body.code).toBe('VALIDATION_FAILED');
    expect((await svc.call('GET', `/api/v1/deployments/${home}/folders`)).body.items).toEqual([]);
  });
});

describe('prototype names as unknown keys', () => {
  it('`constructor` is an unknown key like any other: refused and named, or ignored by a listed exception', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    for (const entry of withBody) {
      const body = validValue(entry.def.body as Schema, false);
      if (Array.isArray(body)) continue;
      const res = await send(entry, pathOf(entry), JSON.stringify({ ...(body as object), constructor: 1, toString: 'x', hasOwnProperty: 2 }));
      if (unknownFieldsPolicy(entry.def.operationId) === 'refuse') {
        for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
          const why = expectUnknownField(res, `/body/${key}`, key, entry.def.operationId);
          if (why) failures.push(why);
        }
      } else if (isRefused(res) || res.status >= 500) failures.push(`${entry.def.operationId}: ${res.status} ${res.text.slice(0, 240)}`);
    }
    expect(failures).toEqual([]);
  });

  it('`__proto__` (and a `constructor` holding a `prototype`) is refused on every operation before any schema, named, and pollutes nothing', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    for (const entry of withBody) {
      const valid = validValue(entry.def.body as Schema, false);
      // A list body (`setEnvVars`) carries the key in its first item.
      const list = Array.isArray(valid);
      const object = JSON.stringify(list ? (valid[0] ?? {}) : valid);
      const path = pathOf(entry);
      for (const [key, value] of [
        ['__proto__', '{"polluted":true}'],
        ['constructor', '{"prototype":{"polluted":true}}'],
      ] as const) {
        const poisoned = `{"${key}":${value}${object === '{}' ? '}' : `,${object.slice(1)}`}`;
        const pointer = `/body${list ? '/0' : ''}/${key}`;
        const res = await send(entry, path, list ? `[${poisoned}]` : poisoned);
        const named = res.json.errors?.some((e) => e.pointer === pointer) && res.json.detail?.includes(pointer);
        if (res.status !== 400 || res.json.code !== 'MALFORMED_JSON' || !res.contentType.startsWith('application/problem+json') || !named) {
          failures.push(`${entry.def.operationId} ${pointer}: ${res.status} ${res.text.slice(0, 240)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the listed exceptions: the data API takes the official client’s own parameters', () => {
  async function loadUntilDone(path: string, body: unknown) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const res = await svc.call('POST', path, { body, auth: deploymentTokenAuth });
      if (res.body?.error !== 'Continue wait') return res;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the query did not finish');
  }

  it('POST load with `cache` and an unknown key answers the same rows as without, and echoes neither', async () => {
    const path = `/deployments/${home}/cubejs-api/v1/load`;
    const query = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };
    const plain = await loadUntilDone(path, { query });
    expect(plain.status, plain.text).toBe(200);
    const extra = await loadUntilDone(path, { query, cache: 'stale-if-slow', [UNKNOWN]: { nested: true } });
    expect(extra.status, extra.text).toBe(200);
    expect(extra.body.data).toEqual(plain.body.data);
    expect(extra.body.data.length).toBeGreaterThan(0);
    expect(extra.text).not.toContain(UNKNOWN);
    expect(extra.text).not.toContain('stale-if-slow');
  });

  it('POST sql with an unknown key answers the SQL, without it', async () => {
    const res = await svc.call('POST', `/deployments/${home}/cubejs-api/v1/sql`, { body: { query: { measures: ['orders.count'] }, [UNKNOWN]: 1 }, auth: deploymentTokenAuth });
    expect(res.status, res.text).toBe(200);
    expect(JSON.stringify(res.body.sql)).toMatch(/count/i);
    expect(res.text).not.toContain(UNKNOWN);
  });
});

describe('query strings', () => {
  it('an unknown query parameter is ignored, a known one still validated (lists)', async () => {
    const folders = await svc.call('GET', `/api/v1/deployments/${home}/folders?${UNKNOWN}=1&_=123`);
    expect(folders.status, folders.text).toBe(200);
    const invalid = await svc.call('GET', `/api/v1/deployments/${home}/folders?${UNKNOWN}=1&first=0`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/querystring/first']);
  });

  it('the data model refuses an unknown query parameter, so a misspelled `branchName` never falls back to another branch', async () => {
    const branches = await svc.call('GET', `/build/api/v1/deployments/${home}/branches?${UNKNOWN}=1`);
    expect(branches.status).toBe(400);
    expect(branches.body.code).toBe('UNKNOWN_FIELD');
    expect(branches.body.errors).toEqual([{ pointer: `/querystring/${UNKNOWN}`, detail: 'is not a known field' }]);
    const files = await svc.call('GET', `/build/api/v1/deployments/${home}/data-model/files`);
    expect(files.status, files.text).toBe(200);
    const path = (files.body.items as { path: string }[])[0]!.path;
    const deleted = await svc.call('DELETE', `/build/api/v1/deployments/${home}/data-model/files?branch=feature&path=${encodeURIComponent(path)}`);
    expect(deleted.status).toBe(400);
    expect(deleted.body.code).toBe('UNKNOWN_FIELD');
    expect(deleted.body.errors).toEqual([{ pointer: '/querystring/branch', detail: 'is not a known field' }]);
    const after = await svc.call('GET', `/build/api/v1/deployments/${home}/data-model/files?path=${encodeURIComponent(path)}`);
    expect(after.status, after.text).toBe(200);
  });
});
