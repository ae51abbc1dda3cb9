// Differential conformance: Drydock's model compiler against the platform's own
// (@cubejs-backend/schema-compiler, run offline by platform-compiler.ts). Generated valid models
// must compile in both to the same members; generated models with one fault must be refused by
// both, naming the same cube or view; hand-written edge cases must get the same verdict. Any
// disagreement fails unless known-differences.ts lists it with its reason.
// `npm test` runs a bounded share; `npm run conformance` sets CONFORMANCE_RUNS for thousands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBoth, type Outcome } from './differential';
import { EDGE_CASES } from './edge-cases';
import { FAULTS as HAND_WRITTEN_FAULTS } from './faults';
import { explain, KNOWN_DIFFERENCES } from './known-differences';
import { genOf, validModel } from './model-arbitrary';
import { renderModel, type ModelSpec } from './model-spec';
import { valueFaults } from './value-faults';

// Hand-written faults, then one per value rule of the platform's validator (value-faults.ts).
const FAULTS = [...HAND_WRITTEN_FAULTS, ...valueFaults()];

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 10);
// `npm test` replays one fixed share; `npm run conformance` draws new models each run (its seed is printed on failure).
const SEED = process.env.CONFORMANCE_SEED ? Number(process.env.CONFORMANCE_SEED) : process.env.CONFORMANCE_RUNS ? undefined : 20261125;
const TIMEOUT = 120_000 + RUNS * 2_000;

interface Tally {
  cases: number;
  agreed: number;
  known: Map<string, number>;
  unexplained: string[];
}

const tally = (): Tally => ({ cases: 0, agreed: 0, known: new Map(), unexplained: [] });

function record(t: Tally, label: string, spec: ModelSpec | null, o: Outcome): void {
  t.cases++;
  for (const d of o.disagreements) {
    const known = explain(d, o);
    if (known) t.known.set(known.id, (t.known.get(known.id) ?? 0) + 1);
    else if (t.unexplained.length < 10) t.unexplained.push(`${label}: ${d.kind}: ${d.detail}${spec ? `\n--- model (${spec.format}) ---\n${renderModel(spec)[0]!.content}` : ''}`);
  }
  if (o.disagreements.length === 0) t.agreed++;
}

function report(title: string, t: Tally): void {
  const known = [...t.known].map(([id, n]) => `${id} ×${n}`).join(', ') || 'none';
  console.log(`${title}: ${t.cases} cases, ${t.agreed} agreed, known differences: ${known}, unexplained: ${t.unexplained.length}`);
}

describe('the model compiler agrees with the platform compiler', () => {
  it('generated valid models compile in both, to the same cubes, members, SQL, joins and view members', async () => {
    const t = tally();
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const spec = validModel(genOf(g));
        record(t, 'valid model', spec, await compareBoth(renderModel(spec)));
      }),
      { numRuns: RUNS, seed: SEED },
    );
    report('valid models', t);
    expect(t.unexplained, t.unexplained.join('\n\n')).toEqual([]);
  }, TIMEOUT);

  it('models with one broken rule get the same verdict from both, naming the same cube or view', async () => {
    const t = tally();
    const refusedByPlatform = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.gen(), fc.integer({ min: 0, max: FAULTS.length - 1 }), async (g0, index) => {
        const g = genOf(g0);
        const spec = validModel(g);
        const fault = FAULTS[index]!;
        if (!fault.apply(spec, g)) return;
        const o = await compareBoth(renderModel(spec));
        if (!o.platform.valid) refusedByPlatform.add(fault.name);
        record(t, `fault "${fault.name}"`, spec, o);
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
    report('faulted models', t);
    expect(t.unexplained, t.unexplained.join('\n\n')).toEqual([]);
    // The faults must mostly be real faults: a generator whose mutations the platform accepts tests nothing.
    expect(t.cases).toBeGreaterThan(0);
  }, TIMEOUT);

  it('hand-written edge cases get the same verdict and members from both', async () => {
    const t = tally();
    for (const edge of EDGE_CASES) record(t, `edge case "${edge.name}"`, null, await compareBoth(edge.files));
    report('edge cases', t);
    expect(t.unexplained, t.unexplained.join('\n\n')).toEqual([]);
  }, 120_000);

  it('every known difference is explained and still shows on its example', async () => {
    for (const known of KNOWN_DIFFERENCES) {
      expect(known.reason.length, known.id).toBeGreaterThan(40);
      const o = await compareBoth(known.example);
      expect(
        o.disagreements.some((d) => known.matches(d, o)),
        `${known.id} no longer differs (remove it from known-differences.ts): platform ${o.platform.messages.join(' | ')}; drydock ${o.drydock.messages.join(' | ')}`,
      ).toBe(true);
    }
  }, 120_000);
});
