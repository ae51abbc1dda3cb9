// Model-file and query tricks for the fuzzer's dictionary (issue 23): text that is cheap to send
// and expensive to read — YAML alias bombs, JavaScript models that multiply a string or nest past
// the stack — and names every JavaScript object already has. They reach the service wherever a
// string does (file contents, member names, query values); none may cost it a 5xx, unbounded
// memory or time.
import { jsDeepNesting, jsStringBomb, yamlAliasBomb, yamlDeepNesting } from './model-bombs';
import { PROTOTYPE_NAMES } from './prototype-names';

/** YAML built to expand past any memory: aliases of aliases, an alias inside its own anchor, deep nesting. */
export const YAML_BOMBS: string[] = [yamlAliasBomb(), yamlAliasBomb(6, 40), 'a: &a [*a, *a]\n', `x: &x {${'k: *x, '.repeat(20)}}\n`, yamlDeepNesting(20_000)];

/** JavaScript model files built to exhaust the static reader: doubling template constants, deep nesting, a huge array. */
export const JS_BOMBS: string[] = [jsStringBomb(), jsDeepNesting(20_000), `cube(\`w\`, { sql_table: 't', meta: [${'0,'.repeat(50_000)}0] });\n`];

/** Names of JavaScript's own, as cube, view and member names and as `cube.member` pairs of them. */
export const PROTOTYPE_MEMBER_NAMES: string[] = [...PROTOTYPE_NAMES, ...PROTOTYPE_NAMES.map((name) => `${name}.${name}`), '__proto__.count', 'constructor.name', 'toString.length'];

/** Date ranges no SQL date can hold. */
export const ABSURD_DATE_RANGES: string[] = ['last 99999999999 years', 'from 99999999999999999999 days ago to now', '275760-09-13', 'NaN'];

/** Every trick of this file, for the fuzzer's hostile strings. */
export const MODEL_TRICKS: string[] = [...YAML_BOMBS, ...JS_BOMBS, ...PROTOTYPE_MEMBER_NAMES, ...ABSURD_DATE_RANGES];
