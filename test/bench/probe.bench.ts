import { compileModel } from '../../src-shared/model';
import { bigProject } from '../support/big-models';
export async function run() {
  const files = bigProject();
  let t = performance.now();
  const r = compileModel(files);
  console.log('compile', (performance.now() - t).toFixed(0));
  t = performance.now();
  const m = JSON.stringify(r.model);
  console.log('model json', m.length, (performance.now() - t).toFixed(0));
  t = performance.now();
  const f = JSON.stringify(files);
  console.log('files json', f.length, (performance.now() - t).toFixed(0));
  t = performance.now();
  JSON.parse(m);
  console.log('parse model', (performance.now() - t).toFixed(0));
}
