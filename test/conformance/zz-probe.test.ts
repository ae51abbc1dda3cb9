import { it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compareBoth } from './differential';
it('probe', async () => {
  const cases = JSON.parse(readFileSync('/tmp/vals/cases.json', 'utf8')) as Record<string, string>;
  for (const [name, content] of Object.entries(cases)) {
    const path = content.includes('cube(') ? 'model/model.js' : 'model/model.yml';
    const o = await compareBoth([{ path, content }]);
    console.log(`### ${name}: platform ${o.platform.valid ? 'valid' : 'INVALID ' + o.platform.messages.slice(0,2).join(' | ').slice(0,300)}\n    drydock ${o.drydock.valid ? 'valid' : 'INVALID ' + o.drydock.messages.slice(0,2).join(' | ').slice(0,300)}${o.disagreements.length ? '\n    DISAGREE ' + o.disagreements.map(d=>d.kind).join(',') : ''}`);
  }
}, 300000);
