import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The launch scripts are plain Node ESM (they run before any build); typed here by what the tests use.
interface StartScript {
  headlessArgs(args: string[], platform: string, env: Record<string, string | undefined>): string[];
  displayProblem(platform: string, env: Record<string, string | undefined>): string | null;
  findElectronBinary(dir: string, env: Record<string, string | undefined>): string | null;
  resolveElectron(options: {
    platform: string;
    env: Record<string, string | undefined>;
    electronDir: string | null;
    download: (dir: string) => Promise<boolean>;
  }): Promise<{ binary?: string; reason?: string }>;
}
interface EnsureBuiltScript {
  buildReason(root: string): string | null;
  OUTPUTS: string[];
}
const startPath = '../../../scripts/start.js';
const ensurePath = '../../../scripts/ensure-built.js';
const start = (await import(startPath)) as StartScript;
const ensure = (await import(ensurePath)) as EnsureBuiltScript;

const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-start-'));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** A fake `node_modules/electron` with or without its downloaded binary. */
function electronPackage(withBinary: boolean): string {
  const dir = tempDir();
  if (withBinary) {
    writeFileSync(join(dir, 'path.txt'), 'electron');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
  }
  return dir;
}

describe('npm start: can Electron start here?', () => {
  it('not on Linux without DISPLAY or WAYLAND_DISPLAY', () => {
    expect(start.displayProblem('linux', {})).toBe('no display');
    expect(start.displayProblem('linux', { DISPLAY: ':0' })).toBeNull();
    expect(start.displayProblem('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBeNull();
    expect(start.displayProblem('darwin', {})).toBeNull();
    expect(start.displayProblem('win32', {})).toBeNull();
  });

  it('not when DRYDOCK_HEADLESS asks for the browser', () => {
    expect(start.displayProblem('darwin', { DRYDOCK_HEADLESS: '1' })).toBe('DRYDOCK_HEADLESS is set');
  });

  it('finds the binary the electron package recorded in path.txt, and nothing when it is not downloaded', () => {
    const installed = electronPackage(true);
    expect(start.findElectronBinary(installed, {})).toBe(join(installed, 'dist', 'electron'));
    expect(start.findElectronBinary(electronPackage(false), {})).toBeNull();
  });

  it('never tries a download on a machine without a display', async () => {
    const download = vi.fn(async () => true);
    const plan = await start.resolveElectron({ platform: 'linux', env: {}, electronDir: electronPackage(false), download });
    expect(plan).toEqual({ reason: 'no display' });
    expect(download).not.toHaveBeenCalled();
  });

  it('starts an installed binary without downloading', async () => {
    const dir = electronPackage(true);
    const download = vi.fn(async () => true);
    const plan = await start.resolveElectron({ platform: 'linux', env: { DISPLAY: ':0' }, electronDir: dir, download });
    expect(plan.binary).toBe(join(dir, 'dist', 'electron'));
    expect(download).not.toHaveBeenCalled();
  });

  it('falls back with a reason when the binary is missing and the download fails', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const download = vi.fn(async () => false);
    const plan = await start.resolveElectron({ platform: 'linux', env: { DISPLAY: ':0' }, electronDir: electronPackage(false), download });
    expect(plan.reason).toMatch(/not installed and could not be downloaded/);
    expect(download).toHaveBeenCalledTimes(1);
  });

  it('uses the binary a successful first-launch download installed', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const dir = electronPackage(false);
    const download = vi.fn(async (target: string) => {
      writeFileSync(join(target, 'path.txt'), 'electron');
      mkdirSync(join(target, 'dist'));
      writeFileSync(join(target, 'dist', 'electron'), '');
      return true;
    });
    const plan = await start.resolveElectron({ platform: 'darwin', env: {}, electronDir: dir, download });
    expect(plan.binary).toBe(join(dir, 'dist', 'electron'));
  });
});

describe('npm start: the headless fallback', () => {
  it('lets the service fall back to the file backend where no keychain is reachable', () => {
    expect(start.headlessArgs([], 'linux', {})).toEqual(['--secrets', 'auto']);
  });

  it('asks for the keychain with a file fallback everywhere, and never overrides an explicit choice', () => {
    expect(start.headlessArgs([], 'linux', { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1/bus' })).toEqual(['--secrets', 'auto']);
    expect(start.headlessArgs([], 'darwin', {})).toEqual(['--secrets', 'auto']);
    expect(start.headlessArgs(['--secrets', 'keychain'], 'linux', {})).toEqual(['--secrets', 'keychain']);
    expect(start.headlessArgs(['--secrets=keychain'], 'linux', {})).toEqual(['--secrets=keychain']);
    expect(start.headlessArgs(['--port', '5000'], 'linux', { DRYDOCK_SECRETS: 'keychain' })).toEqual(['--port', '5000']);
  });
});

describe('npm start: build when out/ is missing or stale', () => {
  function project(): string {
    const root = tempDir();
    mkdirSync(join(root, 'src-main'), { recursive: true });
    writeFileSync(join(root, 'src-main', 'service.ts'), 'export {};');
    return root;
  }
  function build(root: string, at: Date) {
    for (const file of ensure.OUTPUTS) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '');
      utimesSync(join(root, file), at, at);
    }
  }

  it('builds when an output is missing', () => {
    expect(ensure.buildReason(project())).toMatch(/out\/main\/index\.js is missing/);
  });

  it('builds when a source is newer than the oldest output, and not otherwise', () => {
    const root = project();
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'src-main', 'service.ts'), past, past);
    utimesSync(join(root, 'src-main'), past, past);
    build(root, new Date());
    expect(ensure.buildReason(root)).toBeNull();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src-main', 'service.ts'), later, later);
    expect(ensure.buildReason(root)).toMatch(/src-main changed/);
  });
});
