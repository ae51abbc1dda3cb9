// Which native modules depend on the runtime's ABI (issue 25). DuckDB and the OS keychain are N-API
// modules: one build loads in Node 24 and in Electron's Node alike, so the desktop app needs nothing
// more for them. better-sqlite3 is not: it is built per runtime (src-main/platform/db/native-binding.ts).
// If a DuckDB or keyring upgrade stops being N-API, this fails, and it needs a build per runtime too.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { elfExports } from '../support/elf-exports';

/** The `.node` files a fresh Node process has mapped after requiring `pkg`. */
function addonsLoadedBy(pkg: string, load = `require(${JSON.stringify(pkg)})`): string[] {
  const script = `${load}; const maps = require('node:fs').readFileSync('/proc/self/maps', 'utf8');
    console.log(JSON.stringify([...new Set(maps.split('\\n').map((l) => l.split(/\\s+/)[5]).filter((f) => f && f.endsWith('.node')))]));`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as string[];
}

/** N-API modules export napi_register_module_v1; a module built against one Node ABI exports node_register_module_v<abi>. */
const isNapi = (file: string) => elfExports(file).has('napi_register_module_v1');

describe.runIf(process.platform === 'linux')('native modules and the runtime ABI', () => {
  it.each([
    ['DuckDB (@duckdb/node-api)', '@duckdb/node-api', "require('@duckdb/node-bindings')"],
    ['the OS keychain (@napi-rs/keyring)', '@napi-rs/keyring', undefined],
  ])('%s is an N-API module, which Node and Electron load alike', (_name, pkg, load) => {
    const addons = addonsLoadedBy(pkg, load);
    expect(addons.length).toBeGreaterThan(0);
    for (const file of addons) expect(isNapi(file), file).toBe(true);
  });

  it('better-sqlite3 is not: its addon is built for this Node ABI alone, hence one build per runtime', () => {
    const [addon] = addonsLoadedBy('better-sqlite3', "new (require('better-sqlite3'))(':memory:')");
    expect(addon).toMatch(/better_sqlite3\.node$/);
    const exported = elfExports(addon!);
    expect(exported.has('napi_register_module_v1')).toBe(false);
    expect(exported.has(`node_register_module_v${process.versions.modules}`)).toBe(true);
  });
});
