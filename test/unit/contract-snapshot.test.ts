// The main build's contract (scripts/contract-snapshot.js): the schemas the service declares,
// validates and documents are written as data at build time instead of being built with TypeBox at
// start. They must be the very values the contract's modules export: same keys in the same order,
// same values, and an object shared by several schemas still one object.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotOf, type ContractSnapshot } from '../../scripts/contract-snapshot.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = join(ROOT, 'src-shared', 'api');

/** Where `copy` differs from `original` (values, key order, or which objects are shared). */
function differences(original: unknown, copy: unknown, path: string, pairs: Map<object, unknown>, copies: Map<unknown, object>, out: string[]): void {
  if (out.length > 20) return;
  if (original === null || typeof original !== 'object') {
    if (!Object.is(original, copy)) out.push(`${path}: ${String(copy)} instead of ${String(original)}`);
    return;
  }
  const paired = pairs.get(original);
  if (paired !== undefined) {
    if (paired !== copy) out.push(`${path}: a copy where the contract shares one object`);
    return;
  }
  if (copy === null || typeof copy !== 'object') {
    out.push(`${path}: ${String(copy)} instead of an object`);
    return;
  }
  const other = copies.get(copy);
  if (other !== undefined && other !== original) {
    out.push(`${path}: one object where the contract has two`);
    return;
  }
  pairs.set(original, copy);
  copies.set(copy, original);
  if (Array.isArray(original) !== Array.isArray(copy)) out.push(`${path}: array and object mixed up`);
  const keys = Object.keys(original);
  if (JSON.stringify(Object.keys(copy)) !== JSON.stringify(keys)) out.push(`${path}: keys ${Object.keys(copy).join(',')} instead of ${keys.join(',')}`);
  for (const key of keys) differences((original as Record<string, unknown>)[key], (copy as Record<string, unknown>)[key], `${path}.${key}`, pairs, copies, out);
}

describe('the contract as data in the main build (scripts/contract-snapshot.js)', () => {
  let snapshot: ContractSnapshot;
  let data: Record<string, unknown>;
  let dir: string;

  beforeAll(async () => {
    snapshot = await snapshotOf(ROOT, DIR);
    dir = mkdtempSync(join(tmpdir(), 'drydock-contract-test-'));
    const file = join(dir, 'snapshot.mjs');
    writeFileSync(file, snapshot.snapshotSource);
    writeFileSync(join(dir, snapshot.dataFile), snapshot.data);
    data = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds every module of the contract that builds schemas, identity.ts and contract.ts among them', () => {
    expect(snapshot.modules).toContain('identity.ts');
    expect(snapshot.modules).toContain('contract.ts');
    expect(snapshot.modules).not.toContain('errors.ts');
  });

  it('exports the same values as the TypeBox modules, with the same objects shared', async () => {
    // One pairing across all modules: an object one module exports and another reuses stays one object.
    const pairs = new Map<object, unknown>();
    const copies = new Map<unknown, object>();
    const out: string[] = [];
    let compared = 0;
    for (const [i, file] of snapshot.modules.entries()) {
      const module = (await import(/* @vite-ignore */ pathToFileURL(join(DIR, file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value === 'function') continue;
        differences(value, data[`m${i}$${name}`], `${file}:${name}`, pairs, copies, out);
        compared++;
      }
    }
    expect(out).toEqual([]);
    expect(compared).toBeGreaterThan(500);
  });

  it('re-exports a function from the module without schemas that defines it, and leaves out the schema builders', () => {
    const devTargets = snapshot.generated.get(join(DIR, 'dev-targets.ts').replaceAll('\\', '/'))!;
    expect(devTargets).toMatch(/export \{ baseUserTag as baseUserTag \} from ".*dev-target-rules\.ts";/);
    const contract = snapshot.generated.get(join(DIR, 'contract.ts').replaceAll('\\', '/'))!;
    expect(contract).toMatch(/export function Nullable\(\) \{ throw new Error/);
  });
});
