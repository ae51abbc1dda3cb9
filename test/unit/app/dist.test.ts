// The desktop package configuration (electron-builder.yml and `npm run dist`): what is packed, for
// which targets, and that the packaged app starts the service through its utility-process entry.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, matchesGlob } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builderArgs, CONFIG, electronSqliteForDist, resolveElectronDist } from '../../../scripts/dist.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asarUnpack: string[];
  npmRebuild: boolean;
  extraResources: { from: string; to: string; filter: string[] }[];
  extraMetadata: { main: string };
  linux: { target: string[]; icon: string; maintainer: string };
  deb: { depends: string[] };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  directories: { output: string };
}

const config = parse(readFileSync(CONFIG, 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string>; dependencies: Record<string, string> };

/** Whether electron-builder's `files` patterns (positive then `!` negations, in order) take `path`. */
function packed(path: string): boolean {
  let taken = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (matchesGlob(path, pattern.slice(1))) taken = false;
    } else if (matchesGlob(path, pattern)) taken = true;
  }
  return taken;
}

describe('desktop package targets', () => {
  it('builds an AppImage and a .deb on Linux, a dmg on macOS and an nsis installer on Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.productName).toBe('Drydock');
    expect(config.linux.maintainer).toBeTruthy();
  });

  it('uses the app icon in resources/, a PNG of at least 512×512 (what the macOS and Windows icons are made from)', () => {
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon]) {
      expect(icon).toBe('resources/icon.png');
      const bytes = readFileSync(join(ROOT, icon));
      expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(bytes.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
      expect(bytes.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
    }
  });

  it('the .deb depends on the Secret Service library the keychain needs', () => {
    expect(config.deb.depends).toContain('libsecret-1-0');
  });

  it('writes packages to dist/, which git ignores', () => {
    expect(config.directories.output).toBe('dist');
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('dist/');
  });
});

describe('what the package holds', () => {
  it('starts at the built Electron main, which forks the service from service-process.js beside it', () => {
    expect(config.extraMetadata.main).toBe(pkg.main);
    expect(pkg.main).toBe('out/main/index.js');
    // The window shell forks the service in an Electron utility process from its own folder…
    const shell = readFileSync(join(ROOT, 'src-main', 'app', 'main.ts'), 'utf8');
    expect(shell).toMatch(/new URL\('\.\/service-process\.js', import\.meta\.url\)/);
    expect(shell).toMatch(/utilityProcess\.fork\(serviceEntry/);
    // …which the build emits there, and the package takes.
    const vite = readFileSync(join(ROOT, 'electron.vite.config.ts'), 'utf8');
    expect(vite).toMatch(/'service-process': at\('src-main\/service-process\.ts'\)/);
    // out/main/package.json makes the main build's .js files CommonJS (the root one says "type": "module").
    for (const built of ['out/main/index.js', 'out/main/package.json', 'out/main/service-process.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      expect(packed(built), built).toBe(true);
    }
  });

  it('packs the sample project a new deployment starts from, and no source maps or sources', () => {
    expect(packed('resources/sample-project/model/cubes/orders.yml')).toBe(true);
    expect(existsSync(join(ROOT, 'resources/sample-project/model/cubes/orders.yml'))).toBe(true);
    expect(packed('out/main/index.js.map')).toBe(false);
    expect(packed('src-main/app/main.ts')).toBe(false);
    expect(packed('test/unit/app/dist.test.ts')).toBe(false);
  });

  it('keeps the native modules (SQLite, keychain, DuckDB) outside the asar archive, where they can load', () => {
    for (const dep of ['better-sqlite3', '@napi-rs/keyring', '@duckdb/node-api']) {
      expect(Object.keys(pkg.dependencies)).toContain(dep);
      expect(config.asarUnpack.some((p) => matchesGlob(`node_modules/${dep}/build/Release/x.node`, p))).toBe(true);
    }
  });
});

describe('better-sqlite3 in the package (issue 25)', () => {
  it('is never rebuilt in place for Electron: the Node build stays for the tests and drydock serve', () => {
    expect(config.npmRebuild).toBe(false);
  });

  it("packs the Electron build from node_modules/.drydock into resources/native, where the service process looks", () => {
    const [native] = config.extraResources;
    expect(native).toMatchObject({ from: 'node_modules/.drydock', to: 'native' });
    expect(native!.filter.some((p) => matchesGlob('better-sqlite3-electron-v150/better_sqlite3.node', p))).toBe(true);
    expect(native!.filter.some((p) => matchesGlob('better-sqlite3-electron-v150/x.tmp', p))).toBe(false);
  });

  it('asks for the build of the Electron binary inside the unpacked Electron it packs', async () => {
    const asked: string[] = [];
    // The electron package records its binary's name in path.txt when it installs the binary.
    const electronDir = mkdtempSync(join(tmpdir(), 'drydock-electron-'));
    writeFileSync(join(electronDir, 'path.txt'), 'electron');
    const sqliteFor = async (binary: string) => {
      asked.push(binary);
      return { reason: 'offline' };
    };
    expect(await electronSqliteForDist('/opt/electron-v45', { electronDir, sqliteFor })).toEqual({ reason: 'offline' });
    expect(asked).toEqual(['/opt/electron-v45/electron']);
    rmSync(electronDir, { recursive: true, force: true });
  });
});

describe('npm run dist', () => {
  it('is an npm script', () => {
    expect(pkg.scripts.dist).toBe('node scripts/dist.js');
  });

  it('explains a missing Electron binary instead of failing on a download', async () => {
    const electronDir = join(ROOT, 'node_modules', 'electron');
    let asked = false;
    const result = await resolveElectronDist({
      env: {},
      electronDir,
      download: async () => {
        asked = true;
        return false;
      },
    });
    // (On a machine where the electron package installed its binary, that binary is used.)
    if (existsSync(join(electronDir, 'dist'))) {
      expect(result.dist).toBe(join(electronDir, 'dist'));
      return;
    }
    expect(asked).toBe(true);
    expect(result.dist).toBeUndefined();
    expect(result.reason).toMatch(/Electron \d+\.\d+\.\d+ binary is not installed/);
    expect(result.reason).toContain('DRYDOCK_ELECTRON_DIST');
  });

  it('packs a given unpacked Electron (DRYDOCK_ELECTRON_DIST) with this configuration, publishing nothing', async () => {
    const result = await resolveElectronDist({ env: { DRYDOCK_ELECTRON_DIST: '/opt/electron-v45' }, electronDir: null, download: async () => false });
    expect(result).toEqual({ dist: '/opt/electron-v45' });
    expect(builderArgs('/opt/electron-v45', ['--linux', 'deb'])).toEqual(['--config', CONFIG, '--publish', 'never', '--config.electronDist=/opt/electron-v45', '--linux', 'deb']);
  });
});
