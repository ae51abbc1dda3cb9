// Drydock runs on Node 24 LTS (issue 25): `drydock`, `npm start`, `npm run serve`, `npm test` and
// `npm run bench` load scripts/check-node.js first, which stops an older Node with one line saying
// what to install.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface CheckNode {
  MINIMUM_NODE: [number, number];
  nodeVersionProblem(version?: string): string | null;
}
const checkPath = '../../scripts/check-node.js';
const check = (await import(checkPath)) as CheckNode;

describe('the Node Drydock runs on', () => {
  it('refuses Node 20 and Node 24 before its LTS line in one line that says what to install', () => {
    for (const version of ['20.20.2', '22.12.0', '24.10.0']) {
      const problem = check.nodeVersionProblem(version);
      expect(problem).toContain(`this is Node ${version}`);
      expect(problem).toContain('Install Node 24 LTS');
      expect(problem).not.toContain('\n');
    }
  });

  it('accepts Node 24.11 and later', () => {
    for (const version of ['24.11.0', '24.22.3', '25.0.0']) expect(check.nodeVersionProblem(version)).toBeNull();
    expect(check.nodeVersionProblem()).toBeNull();
  });

  it('asks for the version package.json engines names', () => {
    const engines = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${check.MINIMUM_NODE.join('.')}`);
  });
});
