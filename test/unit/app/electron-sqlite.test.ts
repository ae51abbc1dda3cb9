// npm start and npm run dist obtain better-sqlite3 for Electron's module ABI and keep it beside the
// Node build, never in its place (scripts/electron-sqlite.js, issue 25). The ways to get it download
// (a prebuilt addon, Electron's headers), so here they are stand-ins that write what a real one
// would write, into the folder they are given; the copying, the placing and the fallback are real.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

interface Way {
  (args: { packageDir: string; installedDir: string; version: string; platform: string; arch: string }): Promise<boolean>;
}
interface ElectronSqlite {
  electronSqliteFile(root: string, abi: string): string;
  electronAbi(binary: string, run?: unknown): string | null;
  ensureElectronSqlite(options: { root: string; abi: string; version: string; packageDir?: string; ways?: Way[]; log?: (line: string) => void }): Promise<{ file?: string; reason?: string }>;
}
interface StartScript {
  electronSqliteFor(
    binary: string,
    options: { root?: string; electronDir?: string; abiOf?: (binary: string) => string | null; ensure?: (options: Record<string, unknown>) => Promise<unknown>; log?: (line: string) => void },
  ): Promise<{ file?: string; reason?: string }>;
}
const sqlitePath = '../../../scripts/electron-sqlite.js';
const startPath = '../../../scripts/start.js';
const sqlite = (await import(sqlitePath)) as ElectronSqlite;
const start = (await import(startPath)) as StartScript;

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with an installed better-sqlite3 whose Node build is in build/Release. */
function project(): { root: string; packageDir: string; nodeBuild: string } {
  const root = mkdtempSync(join(tmpdir(), 'drydock-sqlite-'));
  temps.push(root);
  const packageDir = join(root, 'node_modules', 'better-sqlite3');
  mkdirSync(join(packageDir, 'build', 'Release'), { recursive: true });
  mkdirSync(join(packageDir, 'src'));
  writeFileSync(join(packageDir, 'package.json'), '{ "name": "better-sqlite3", "version": "12.11.1" }');
  writeFileSync(join(packageDir, 'src', 'better_sqlite3.cpp'), '// sources');
  const nodeBuild = join(packageDir, 'build', 'Release', 'better_sqlite3.node');
  writeFileSync(nodeBuild, 'built for Node, ABI 137');
  return { root, packageDir, nodeBuild };
}

/** A way to the addon that writes `content` where prebuild-install and node-gyp put it, or fails. */
const way = (content: string | null, seen: { packageDir: string; hadBuild: boolean; version: string }[] = []): Way =>
  async ({ packageDir, version }) => {
    seen.push({ packageDir, hadBuild: existsSync(join(packageDir, 'build')), version });
    if (content === null) return false;
    mkdirSync(join(packageDir, 'build', 'Release'), { recursive: true });
    writeFileSync(join(packageDir, 'build', 'Release', 'better_sqlite3.node'), content);
    return true;
  };

describe('better-sqlite3 for Electron (npm start, npm run dist)', () => {
  it('keeps the Electron build in node_modules/.drydock by ABI and leaves the Node build as it was', async () => {
    const { root, packageDir, nodeBuild } = project();
    const seen: { packageDir: string; hadBuild: boolean; version: string }[] = [];
    const result = await sqlite.ensureElectronSqlite({ root, abi: '150', version: '45.4.1', packageDir, ways: [way(null, seen), way('built for Electron, ABI 150', seen)] });
    const file = join(root, 'node_modules', '.drydock', 'better-sqlite3-electron-v150', 'better_sqlite3.node');
    expect(result).toEqual({ file });
    expect(readFileSync(file, 'utf8')).toBe('built for Electron, ABI 150');
    expect(readFileSync(nodeBuild, 'utf8')).toBe('built for Node, ABI 137');
    // Both ways worked on a scratch copy of the package without its Node build, for this Electron.
    expect(seen.map((s) => [s.packageDir === packageDir, s.hadBuild, s.version])).toEqual([
      [false, false, '45.4.1'],
      [false, false, '45.4.1'],
    ]);
    expect(readdirSync(join(root, 'node_modules', '.drydock', 'better-sqlite3-electron-v150'))).toEqual(['better_sqlite3.node']);
  });

  it('says why in one line when no way gets it, and leaves nothing behind', async () => {
    const { root, packageDir, nodeBuild } = project();
    const result = await sqlite.ensureElectronSqlite({ root, abi: '150', version: '45.4.1', packageDir, ways: [way(null), way(null)] });
    expect(result.file).toBeUndefined();
    expect(result.reason).toMatch(/^no build of better-sqlite3 for Electron 45\.4\.1 \(module ABI 150\): .*failed here$/);
    expect(result.reason).not.toContain('\n');
    expect(existsSync(join(root, 'node_modules', '.drydock'))).toBe(false);
    expect(readFileSync(nodeBuild, 'utf8')).toBe('built for Node, ABI 137');
  });

  it('uses the build it has without fetching again', async () => {
    const { root, packageDir } = project();
    const file = sqlite.electronSqliteFile(root, '150');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, 'built before');
    const seen: { packageDir: string; hadBuild: boolean; version: string }[] = [];
    expect(await sqlite.ensureElectronSqlite({ root, abi: '150', version: '45.4.1', packageDir, ways: [way('again', seen)] })).toEqual({ file });
    expect(seen).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('built before');
  });

  it("asks the runtime binary for its module ABI (a Node binary here: Electron answers the same way with ELECTRON_RUN_AS_NODE)", () => {
    expect(sqlite.electronAbi(process.execPath)).toBe(process.versions.modules);
    expect(sqlite.electronAbi(join(tmpdir(), 'no-such-electron'))).toBeNull();
  });

  it('npm start asks for the build of the ABI the Electron binary reports, for the installed Electron version', async () => {
    const electronDir = mkdtempSync(join(tmpdir(), 'drydock-electron-'));
    temps.push(electronDir);
    writeFileSync(join(electronDir, 'package.json'), '{ "name": "electron", "version": "45.4.1" }');
    const asked: Record<string, unknown>[] = [];
    const ensure = async (options: Record<string, unknown>) => {
      asked.push(options);
      return { reason: 'offline' };
    };
    expect(await start.electronSqliteFor('/opt/electron', { root: '/project', electronDir, abiOf: () => '150', ensure })).toEqual({ reason: 'offline' });
    expect(asked).toMatchObject([{ root: '/project', abi: '150', version: '45.4.1' }]);
    expect(await start.electronSqliteFor('/opt/electron', { electronDir, abiOf: () => null, ensure })).toEqual({ reason: 'the Electron binary did not say its module ABI' });
  });
});
