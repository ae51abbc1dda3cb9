// The lint rule that keeps the sources free of import cycles (scripts/eslint/no-import-cycles.js,
// issue 25): run by ESLint on real files in a temporary folder, it must count every kind of import,
// type-only ones included, and leave a tree of imports alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterEach, describe, expect, it } from 'vitest';
import drydock from '../../scripts/eslint/no-import-cycles.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Lints `files` (name → source) with only the cycle rule; returns the messages per file. */
async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  dir = mkdtempSync(join(tmpdir(), 'dd-cycles-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { drydock },
        rules: { 'drydock/no-import-cycles': 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles(Object.keys(files).map((name) => join(dir!, name)));
  return Object.fromEntries(results.map((r) => [r.filePath.slice(dir!.length + 1), r.messages.map((m) => m.message)]));
}

describe('drydock/no-import-cycles', () => {
  it('reports a cycle closed by a type-only import, on both sides', async () => {
    const messages = await lint({
      'auth.ts': "import { Cache } from './cache';\nexport interface Principal { id: number }\nexport const cache = new Cache();\n",
      'cache.ts': "import type { Principal } from './auth';\nexport class Cache { get(): Principal | null { return null; } }\n",
    });
    expect(messages['auth.ts']).toEqual(['Import cycle: auth.ts → cache.ts → auth.ts. Move what both need into a module neither owns.']);
    expect(messages['cache.ts']).toEqual(['Import cycle: cache.ts → auth.ts → cache.ts. Move what both need into a module neither owns.']);
  });

  it('reports cycles through `import()`, `export … from` and a longer chain', async () => {
    const messages = await lint({
      'service.ts': "export async function start() { return (await import('./service-app')).assemble(); }\n",
      'service-app.ts': "export { helper } from './helpers';\nexport const assemble = () => 1;\n",
      'helpers.ts': "import type { start } from './service';\nexport const helper = (s: typeof start) => s;\n",
    });
    expect(messages['service.ts']).toEqual(['Import cycle: service.ts → service-app.ts → helpers.ts → service.ts. Move what both need into a module neither owns.']);
    expect(messages['service-app.ts']).toHaveLength(1);
    expect(messages['helpers.ts']).toHaveLength(1);
  });

  it('leaves modules alone whose imports form no cycle (what both need lives in a third module)', async () => {
    const messages = await lint({
      'principal.ts': 'export interface Principal { id: number }\n',
      'auth.ts': "import type { Principal } from './principal';\nimport { Cache } from './cache';\nexport const check = (p: Principal) => new Cache().has(p);\n",
      'cache.ts': "import type { Principal } from './principal';\nexport class Cache { has(_p: Principal) { return false; } }\n",
    });
    expect(messages).toEqual({ 'principal.ts': [], 'auth.ts': [], 'cache.ts': [] });
  });
});
