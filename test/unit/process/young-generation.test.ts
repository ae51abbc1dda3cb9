// The service holds V8's young generation at its size while it starts and gives growth back to V8
// afterwards (src-main/platform/process/young-generation.ts, issue 25: idle memory). V8 reads the
// growth factor whenever it would grow the space; these checks run in a fresh Node process (the
// module itself, type-stripped by Node) so the young generation starts at its initial size there.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../../src-main/platform/process/young-generation.ts', import.meta.url));

/** The young generation's size (MB) in a fresh process after start-like allocation, with the module's calls in `steps`. */
function youngGenerationAfter(steps: string): { held: number; after: number } {
  const script = `
    import v8 from 'node:v8';
    import { holdYoungGeneration, releaseYoungGeneration } from ${JSON.stringify(MODULE)};
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    // Objects that live on, as loaded code's do: they survive the scavenges that would grow the space.
    const kept = [];
    const load = () => { for (let i = 0; i < 300_000; i++) kept.push({ i, name: 'member_' + i }); };
    ${steps}
    process.stdout.write(JSON.stringify({ held, after }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { held: number; after: number };
}

describe('the young generation during the service start', () => {
  it('does not grow while held, and grows again under the same load once released', () => {
    const { held, after } = youngGenerationAfter(`
      holdYoungGeneration();
      load();
      const held = young();
      releaseYoungGeneration();
      load();
      const after = young();
    `);
    expect(held).toBeLessThanOrEqual(2.5);
    expect(after).toBeGreaterThan(held);
  });

  it('grows under that load when it is not held (the memory the hold saves)', () => {
    const { held } = youngGenerationAfter(`
      load();
      const held = young();
      const after = held;
    `);
    expect(held).toBeGreaterThan(2.5);
  });
});
