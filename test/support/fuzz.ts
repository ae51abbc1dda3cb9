// Schema-driven fuzzer over every operation of the service's OpenAPI document (issue 11 item 10).
// Requests are generated with fast-check (one dependent draw per request through `fc.gen()`), bodies
// and query values start from json-schema-faker samples of the declared schemas and are then made
// hostile: wrong types, hostile strings, dropped required fields, unknown and prototype keys, deep
// nesting, invalid JSON, wrong content types, bad credentials, crafted path values. Every answer is
// checked: no 5xx, every 4xx `application/problem+json` with a stable `code`, every 2xx JSON body
// valid against its declared schema (ajv, draft 2020-12), and a body with a top-level key its schema
// does not describe answered as the operation's `x-drydock-unknown-fields` says (checkUnknownKey).
// A target may name real values for body fields (the ids of hostile Python widgets,
// fuzz-tricks-python.ts) and a further rule for answers.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { HOSTILE_PATHS } from './fuzz-tricks-paths';
import { generateSync } from 'json-schema-faker';
import { BODY_TRICKS, sendBodyTrick } from './fuzz-tricks-bodies';
import { MODEL_TRICKS } from './fuzz-tricks-model';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  body: Schema | null;
  /** What the operation does with a body key it does not describe (`x-drydock-unknown-fields`, issue 27). */
  unknownFields: 'refuse' | 'ignore' | null;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface FuzzTarget {
  url: string;
  /** The Authorization header of a full admin credential. */
  adminAuth: string;
  /** Real values for path parameters by name (a deployment id, a branch), so handlers run past lookups. */
  known: Record<string, string>;
  /** Path parameter names whose small integers must not be drawn (they name the admin's own key and user). */
  protectedIds?: string[];
  /**
   * Real values for top-level body fields by name (the widget ids of a published dashboard). Three
   * requests in four of an operation whose body has such a field are well-formed and carry the next
   * value in turn, so a long run reaches every one; the others draw them among their hostile values.
   */
  bodyValues?: Record<string, readonly string[]>;
  /** A further rule for an answer (what it must not contain): why it breaks it, or null. */
  inspect?: (op: Operation, requestBody: string | undefined, text: string) => string | null;
}

export interface FuzzFailure {
  request: string;
  status: number;
  why: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  operations: number;
  operationsReached: number;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
  /** Requests whose JSON body carried a top-level key its schema does not describe. */
  unknownKeys: number;
  /** Requests that took over two seconds (slowest first, at most ten). */
  slowest: { request: string; ms: number }[];
  seed: number;
}

export function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item as { parameters?: Parameter[] }).parameters ?? []) as Parameter[];
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const op = raw as {
        operationId: string;
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        responses: Operation['responses'];
        'x-drydock-unknown-fields'?: 'refuse' | 'ignore';
      };
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        parameters: [...shared, ...(op.parameters ?? [])],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        unknownFields: op['x-drydock-unknown-fields'] ?? null,
        responses: op.responses,
      });
    }
  }
  return ops;
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%2e%2e%2f',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\u200b',
  '\ud800',
  "' OR 1=1 --",
  '"; DROP TABLE jobs; --',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'refs/heads/main',
  'HEAD',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '0x10',
  'true',
  '[]',
  '{}',
  'x'.repeat(600),
  'y'.repeat(70_000),
  '😀'.repeat(50),
  'e\u0301',
  '*',
  '%',
  'a/b',
  'a\\b',
  'C:\\Windows',
  'http://evil.example/',
  'javascript:alert(1)',
  // Model bombs, names of JavaScript's own, absurd date ranges (issue 23).
  ...MODEL_TRICKS,
  // Paths git, Windows or macOS refuse (issue 23).
  ...HOSTILE_PATHS,
];

const hostileString = () => fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    hostileString(),
    fc.constantFrom(null, true, false, 0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MIN_VALUE, [], {}, [null], { '': '' }),
    fc.integer(),
    fc.double(),
    fc.jsonValue({ maxDepth: 3 }),
    fc.array(hostileString(), { maxLength: 5 }),
  );

/** Deeply nested JSON text (the service bounds nesting before parsing). */
const deepJson = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

const INVALID_JSON = ['{', '{"a":', '[1,2', 'nul', '{"a":1,}', "{'a':1}", '\u0000', '{"a":"\\ud800"}', '1e99999', '{"__proto__":{"polluted":true}}', '"str"', '[]', 'null', '123'];

/** A copy with lengths and counts capped, so samples stay small (a base64 field may allow 28 MB). */
function capped(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(capped);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'maxLength' || key === 'maxItems' || key === 'maxProperties') && typeof value === 'number') out[key] = Math.min(value, key === 'maxLength' ? 80 : 4);
    else if (key === 'minLength' && typeof value === 'number') out[key] = Math.min(value, 80);
    else out[key] = capped(value);
  }
  if (out.type === 'string' && out.maxLength === undefined && out.pattern === undefined && out.format === undefined) out.maxLength = 40;
  if (out.type === 'array' && out.maxItems === undefined) out.maxItems = 4;
  return out;
}

const cappedSchemas = new WeakMap<Schema, Schema>();

function sample(schema: Schema | undefined, seed: number): unknown {
  if (!schema) return undefined;
  let small = cappedSchemas.get(schema);
  if (!small) cappedSchemas.set(schema, (small = capped(schema) as Schema));
  try {
    return generateSync(structuredClone(small) as never, { seed, maxDepth: 4, maxDefaultItems: 3, optionalsProbability: 0.5 } as never);
  } catch {
    return {};
  }
}

type Gen = fc.GeneratorValue;

/** A mutated body, and the key it added that the body's schema does not describe, if any. */
interface Mutated {
  value: unknown;
  unknownKey?: string;
}

function mutate(g: Gen, value: unknown, schema: Schema): Mutated {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value: g(hostileValue) };
  const copy = { ...(value as Record<string, unknown>) };
  const described = Object.keys((schema.properties as Schema | undefined) ?? {});
  const keys = [...new Set([...Object.keys(copy), ...described])];
  const how = g(fc.constantFrom, 'replace', 'replace', 'drop', 'extra', 'extra', 'proto', 'nested');
  const key = keys.length ? g(fc.constantFrom, ...keys) : 'x';
  if (how === 'replace') copy[key] = g(hostileValue);
  else if (how === 'drop') delete copy[key];
  else if (how === 'extra') {
    // A hostile name, or one of the schema's own names slightly off (`name_`, `NAME`, `names`), as a caller's typo would be.
    const near = described.length ? g(fc.constantFrom, ...described) : 'x';
    const extra = g(fc.boolean) ? g(hostileString) : g(fc.constantFrom, `${near}_`, near.toUpperCase(), `${near}s`);
    // Assigning `__proto__` sets the prototype instead of adding a key (the 'proto' case sends it as text).
    if (extra === '__proto__' || described.includes(extra)) return { value: copy };
    copy[extra] = g(hostileValue);
    return { value: copy, unknownKey: extra };
  } else if (how === 'proto') {
    return { value: JSON.parse(`{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify(copy).slice(1)}`.replace(/,}$/, '}')) };
  } else copy[key] = { [key]: copy[key], nested: [copy[key]] };
  return { value: copy };
}

/** encodeURIComponent, with lone surrogates (which no URL can carry) replaced. */
const encodePart = (s: string) => encodeURIComponent(s.replace(/\p{Cs}/gu, '\ufffd'));

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** A top-level key of the JSON body that the operation's body schema does not describe. */
  unknownKey?: string;
  /** Built by `reaching`: sent as it is, never as a body trick. */
  reaching?: boolean;
}

function pathValue(g: Gen, param: Parameter, target: FuzzTarget, seed: number): string {
  const known = target.known[param.name];
  const choice = g(fc.integer, { min: 0, max: 9 });
  if (known !== undefined && choice < 5) return encodePart(known);
  if (choice < 7) {
    const protectedId = target.protectedIds?.includes(param.name);
    const n = g(() => fc.oneof(fc.integer({ min: protectedId ? 1000 : 1, max: 2 ** 31 }), fc.constantFrom(0, -1, 2 ** 53 + 1)));
    return String(n);
  }
  if (choice < 8) {
    const faked = sample(param.schema, seed);
    if ((typeof faked === 'string' && faked !== '') || typeof faked === 'number') return encodePart(String(faked));
  }
  // Never empty: `/users/` is another operation (the list), not a hostile `/users/{id}`.
  const s = g(hostileString) || '\u0000';
  // Mostly encoded; sometimes raw percent oddities the URL parser keeps as they are.
  return g(fc.boolean) ? encodePart(s) : g(fc.constantFrom, '%zz', '%', '%00', '%2e%2e', '..%2f', '%c0%ae', '%ff');
}

/** The fields of `target.bodyValues` that `op`'s body declares. */
function bodyValueFields(op: Operation, target: FuzzTarget): [string, readonly string[]][] {
  const declared = (op.body?.properties as Schema | undefined) ?? {};
  return Object.entries(target.bodyValues ?? {}).filter(([field, values]) => field in declared && values.length > 0);
}

/** `value` with each field of `target.bodyValues` set to one of its real values, three times in four. */
function withBodyValues(g: Gen, value: unknown, op: Operation, target: FuzzTarget): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  for (const [field, values] of bodyValueFields(op, target)) {
    if (g(fc.integer, { min: 0, max: 3 }) > 0) copy[field] = g(fc.constantFrom, ...values);
  }
  return copy;
}

/**
 * A well-formed request that reaches what the target's body values name (a python-run of one of the
 * published hostile widgets): known path values, the admin credential, the body's required fields
 * (sampled; optional ones could make it a refusal) with the `turn`-th real value of each field, so
 * that successive turns try every value.
 */
function reaching(op: Operation, target: FuzzTarget, seed: number, turn: number): Built {
  let path = op.path;
  for (const param of op.parameters.filter((p) => p.in === 'path')) {
    path = path.replace(`{${param.name}}`, () => encodePart(target.known[param.name] ?? String(sample(param.schema, seed) ?? 'x')));
  }
  const sampled = sample(op.body ?? undefined, seed);
  const required = new Set((op.body?.required as string[] | undefined) ?? []);
  const body: Record<string, unknown> = {};
  if (sampled && typeof sampled === 'object' && !Array.isArray(sampled)) {
    for (const [key, value] of Object.entries(sampled)) if (required.has(key)) body[key] = value;
  }
  for (const [field, values] of bodyValueFields(op, target)) body[field] = values[turn % values.length];
  return { method: op.method, url: `${target.url}${path}`, headers: { authorization: target.adminAuth, 'content-type': 'application/json' }, body: JSON.stringify(body), reaching: true };
}

/** Which request of its operation this is (`round`, from 0) and the run's seed. */
interface Turn {
  round: number;
  seed: number;
}

function build(g: Gen, op: Operation, target: FuzzTarget, turn: Turn): Built {
  const seed = g(fc.integer, { min: 1, max: 2 ** 30 });
  // Three requests in four of an operation whose body takes real values reach them, its first one
  // always (npm test sends one request per operation), each taking the next value from a point the
  // run's seed sets; the fourth is hostile.
  if (bodyValueFields(op, target).length && turn.round % 4 !== 3) {
    return reaching(op, target, seed, turn.seed + turn.round - Math.floor(turn.round / 4));
  }
  let path = op.path;
  for (const param of op.parameters.filter((p) => p.in === 'path')) path = path.replace(`{${param.name}}`, () => pathValue(g, param, target, seed));
  const query = new URLSearchParams();
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    const how = g(fc.integer, { min: 0, max: 5 });
    if (how === 0) continue;
    if (how <= 2) {
      const faked = sample(param.schema, seed);
      if (faked !== undefined) query.append(param.name, typeof faked === 'string' ? faked : JSON.stringify(faked));
    } else {
      query.append(param.name, g(hostileString));
      if (how === 5) query.append(param.name, g(hostileString));
    }
  }
  if (g(fc.integer, { min: 0, max: 9 }) === 0) query.append(g(hostileString) || 'q', g(hostileString));
  const qs = query.toString();
  const headers: Record<string, string> = {};
  const auth = g(fc.integer, { min: 0, max: 19 });
  if (auth >= 2) headers.authorization = target.adminAuth;
  else if (auth === 1) headers.authorization = g(fc.constantFrom, 'Bearer x.y.z', 'Api-Key nope', 'Bearer', 'Basic YTpi', `Api-Key ${'k'.repeat(300)}`, 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.');
  let body: string | undefined;
  let unknownKey: string | undefined;
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    const kind = g(fc.integer, { min: 0, max: 9 });
    const valid = withBodyValues(g, sample(op.body ?? undefined, seed), op, target);
    if (kind <= 2 && op.body) body = JSON.stringify(valid ?? {});
    else if (kind <= 5) {
      const mutated = mutate(g, valid ?? {}, op.body ?? {});
      body = JSON.stringify(mutated.value);
      // Only a body whose schema is an object says which keys it describes.
      if (op.body?.type === 'object') unknownKey = mutated.unknownKey;
    }
    else if (kind === 6) body = JSON.stringify(g(hostileValue));
    else if (kind === 7) body = g(fc.constantFrom, ...INVALID_JSON);
    else if (kind === 8) body = deepJson(g(fc.integer, { min: 60, max: 3000 }));
    if (body !== undefined) {
      headers['content-type'] = g(fc.integer, { min: 0, max: 14 }) === 0 ? g(fc.constantFrom, 'text/plain', 'application/xml', 'multipart/form-data', 'application/json; charset=latin1') : 'application/json';
    }
  }
  return { method: op.method, url: `${target.url}${path}${qs ? `?${qs}` : ''}`, headers, ...(body !== undefined ? { body } : {}), ...(unknownKey !== undefined ? { unknownKey } : {}) };
}

const STABLE_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
 * Why the answer to a body carrying `key`, a top-level key its schema does not describe, breaks the
 * unknown-key rule (issue 27), or null. An operation that refuses such keys never accepts the body,
 * and once it checks the body the key is what it answers: 400 `UNKNOWN_FIELD` with `/body/<key>` in
 * `errors[]`, never another fault of the body first. What is answered before the body is checked (a
 * credential, a path parameter, the content type, unreadable JSON) is not about the key. An
 * operation that ignores such keys never refuses one.
 */
export function checkUnknownKey(op: Operation, key: string, status: number, text: string): string | null {
  if (op.unknownFields === null) return null;
  let problem: { code?: unknown; errors?: { pointer?: unknown }[] } = {};
  try {
    problem = JSON.parse(text);
  } catch {
    // Not JSON: the status alone decides.
  }
  const named = JSON.stringify(key);
  if (op.unknownFields === 'ignore') return problem.code === 'UNKNOWN_FIELD' ? `refused the unknown key ${named}, which its operation ignores` : null;
  if (status >= 200 && status < 300) return `accepted a body with the unknown key ${named}`;
  const pointer = `/body/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const pointers = Array.isArray(problem.errors) ? problem.errors.map((e) => e?.pointer) : [];
  if (problem.code === 'UNKNOWN_FIELD') return pointers.includes(pointer) ? null : `UNKNOWN_FIELD without ${pointer} in errors[]`;
  if (problem.code === 'VALIDATION_FAILED' && pointers.some((p) => typeof p === 'string' && p.startsWith('/body'))) {
    return `answered another fault of the body before the unknown key ${named}`;
  }
  return null;
}

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor() {
    addFormats.default(this.ajv as never);
  }

  /** Why the answer breaks the rules, or null. */
  check(op: Operation, status: number, contentType: string, text: string, anyOperation = false): string | null {
    if (status >= 500) return `server error ${status}`;
    if (status >= 400) {
      if (!contentType.startsWith('application/problem+json')) return `${status} is not application/problem+json (${contentType})`;
      let problem: { code?: unknown; status?: unknown };
      try {
        problem = JSON.parse(text);
      } catch {
        return `${status} body is not JSON`;
      }
      if (typeof problem.code !== 'string' || !STABLE_CODE.test(problem.code)) return `${status} problem without a stable code (${String(problem.code)})`;
      if (problem.status !== undefined && problem.status !== status) return `problem status ${String(problem.status)} differs from ${status}`;
      return null;
    }
    if (status >= 200 && status < 300 && !anyOperation) {
      const declared = op.responses[String(status)] ?? op.responses['2XX'];
      if (!declared) return `undeclared success status ${status}`;
      const schema = declared.content?.['application/json']?.schema;
      if (!schema || !contentType.startsWith('application/json')) return null;
      const key = `${op.operationId}:${status}`;
      if (!this.compiled.has(key)) {
        try {
          this.compiled.set(key, this.ajv.compile(schema));
        } catch {
          this.compiled.set(key, null);
        }
      }
      const validate = this.compiled.get(key);
      if (!validate) return null;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return `${status} body is not JSON`;
      }
      if (!validate(body)) return `${status} body does not match its schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 300)}`;
    }
    return null;
  }
}

/**
 * Sends `requests` generated requests, round-robin over the operations so each is reached, one at a
 * time. Returns the tally and every rule broken (not stopping at the first).
 */
export async function fuzz(
  target: FuzzTarget,
  ops: Operation[],
  options: { requests: number; seed: number; timeoutMs?: number; /** How long a body trick may go unanswered (the service's timeouts plus slack). */ trickTimeoutMs?: number },
): Promise<FuzzReport> {
  const checker = new ResponseChecker();
  const report: FuzzReport = { requests: 0, operations: ops.length, operationsReached: 0, byStatus: {}, failures: [], unknownKeys: 0, slowest: [], seed: options.seed };
  const reached = new Set<string>();
  let next = 0;
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const op = ops[next % ops.length]!;
      const req = build(g, op, target, { round: Math.floor(next / ops.length), seed: options.seed });
      next++;
      const label = `${req.method} ${req.url.slice(target.url.length, target.url.length + 300)}${req.body ? ` body ${req.body.slice(0, 200)}` : ''}`;
      const began = Date.now();
      let status = 0;
      let text = '';
      let contentType = '';
      // One body-carrying request in twenty is a hostile framing of its body over a raw socket (fuzz-tricks-bodies.ts).
      const trick = !req.reaching && req.method !== 'GET' && req.method !== 'DELETE' && g(fc.integer, { min: 0, max: 19 }) === 0 ? g(fc.constantFrom, ...BODY_TRICKS) : null;
      if (trick) {
        const url = new URL(req.url);
        const outcome = await sendBodyTrick(Number(url.port), trick, { method: req.method, path: `${url.pathname}${url.search}`, host: url.host, auth: target.adminAuth }, options.trickTimeoutMs ?? 30_000);
        report.requests++;
        reached.add(op.operationId);
        const trickLabel = `${trick.name}: ${label}`;
        if (outcome.kind === 'hung') report.failures.push({ request: trickLabel, status: 0, why: `no answer and not closed after ${outcome.ms} ms`, body: '' });
        if (outcome.kind !== 'answered') return true;
        report.byStatus[outcome.status] = (report.byStatus[outcome.status] ?? 0) + 1;
        const why = checker.check(op, outcome.status, outcome.contentType, outcome.text, true);
        if (why) report.failures.push({ request: trickLabel, status: outcome.status, why, body: outcome.text.slice(0, 400) });
        return true;
      }
      try {
        const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000), redirect: 'manual' });
        status = res.status;
        contentType = res.headers.get('content-type') ?? '';
        text = await res.text();
      } catch (error) {
        report.failures.push({ request: label, status: 0, why: `no answer after ${Date.now() - began} ms: ${(error as Error).message}${(error as Error).cause ? ` (${String((error as Error).cause)})` : ''}`, body: '' });
        report.requests++;
        return true;
      }
      report.requests++;
      const ms = Date.now() - began;
      if (ms > 2000) report.slowest = [...report.slowest, { request: label.slice(0, 200), ms }].sort((a, b) => b.ms - a.ms).slice(0, 10);
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      reached.add(op.operationId);
      // The client's URL parser resolves `%2e%2e` and `..` segments, so such a request reached another
      // operation: hold its answer to the status rules only, not to this operation's schemas.
      const sentPath = req.url.slice(target.url.length).split('?')[0]!;
      const rerouted = new URL(req.url).pathname !== sentPath;
      const why = checker.check(rerouted ? { ...op, responses: {} } : op, status, contentType, text, rerouted) ?? (rerouted ? null : (target.inspect?.(op, req.body, text) ?? null));
      if (why) report.failures.push({ request: label, status, why, body: text.slice(0, 400) });
      if (req.unknownKey !== undefined && !rerouted) {
        report.unknownKeys++;
        const whyKey = checkUnknownKey(op, req.unknownKey, status, text);
        if (whyKey) report.failures.push({ request: label, status, why: whyKey, body: text.slice(0, 400) });
      }
      return true;
    }),
    { numRuns: options.requests, seed: options.seed, endOnFailure: true },
  );
  report.operationsReached = reached.size;
  return report;
}
