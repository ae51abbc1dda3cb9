// How the Python runner process is started (issue 23), under Node and under Electron (which cannot
// run here): the same permission flags in both, Electron run as Node, an environment of allowlisted
// names only, the Linux tools wrapped around it when they were found, paths out of the asar archive.
import { describe, expect, it } from 'vitest';
import { runnerLaunch, unpackedPath, type RunnerLaunchInput } from '../../src-main/features/embed-sessions/python-launch';

const SERVICE_ENV = {
  HOME: '/home/alice',
  PATH: '/usr/bin',
  DRYDOCK_DATA_DIR: '/home/alice/.config/Drydock',
  DRYDOCK_BOOTSTRAP_API_KEY: 'dd_secret',
  GITHUB_TOKEN: 'ghp_secret',
  NODE_OPTIONS: '--require /tmp/hook.js',
  ELECTRON_RUN_AS_NODE: undefined,
  TZ: 'Europe/Paris',
};

const input = (overrides: Partial<RunnerLaunchInput> = {}): RunnerLaunchInput => ({
  execPath: '/usr/local/bin/node',
  electronVersion: undefined,
  platform: 'linux',
  env: SERVICE_ENV,
  runnerFile: '/opt/drydock/out/main/chunks/python-runner-1234.js',
  pyodideDir: '/opt/drydock/node_modules/pyodide',
  memoryLimitBytes: 256 * 1024 * 1024,
  heapLimitMb: 256,
  prlimit: null,
  unshare: null,
  cpuSeconds: 600,
  dataLimitBytes: 1024 * 1024 * 1024,
  ...overrides,
});

const NODE_FLAGS = [
  '--permission',
  '--allow-fs-read=/opt/drydock/out/main/chunks/python-runner-1234.js',
  '--allow-fs-read=/opt/drydock/node_modules/pyodide',
  '--disallow-code-generation-from-strings',
  '--max-old-space-size=256',
  '/opt/drydock/out/main/chunks/python-runner-1234.js',
  '/opt/drydock/node_modules/pyodide',
  String(256 * 1024 * 1024),
];

describe('the Python runner’s launch', () => {
  it('under Node: the service’s node, the permission model reading only the runner and Pyodide, no code from strings, a bounded heap', () => {
    const launch = runnerLaunch(input());
    expect(launch.command).toBe('/usr/local/bin/node');
    expect(launch.args).toEqual(NODE_FLAGS);
  });

  it('grants nothing else: no writes, processes, workers, addons, WASI or inspector, and no inherited NODE_OPTIONS or execArgv', () => {
    for (const overrides of [{}, { electronVersion: '45.4.1' }, { platform: 'win32' as const }]) {
      const { args, env } = runnerLaunch(input(overrides));
      expect(args.filter((arg) => /^--(allow-(fs-write|child-process|worker|addons|wasi|inspector)|inspect|require|import|experimental-loader)/.test(arg))).toEqual([]);
      expect(args.filter((arg) => arg.startsWith('--allow-fs-read='))).toHaveLength(2);
      expect(env.NODE_OPTIONS).toBeUndefined();
    }
  });

  it('the environment is an allowlist: none of the service’s secrets, tokens or home paths', () => {
    expect(runnerLaunch(input()).env).toEqual({ TZ: 'Europe/Paris' });
    expect(runnerLaunch(input({ env: { HOME: '/home/alice' } })).env).toEqual({});
  });

  it('under Electron: the Electron binary run as Node (ELECTRON_RUN_AS_NODE=1) with the same flags', () => {
    const execPath = '/opt/Drydock/drydock';
    const launch = runnerLaunch(input({ execPath, electronVersion: '45.4.1' }));
    expect(launch.command).toBe(execPath);
    expect(launch.args).toEqual(NODE_FLAGS);
    expect(launch.env).toEqual({ TZ: 'Europe/Paris', ELECTRON_RUN_AS_NODE: '1' });
  });

  it('on Windows: the few names a process needs to start are passed on, and nothing else', () => {
    const env = { ...SERVICE_ENV, SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\alice', APPDATA: 'C:\\Users\\alice\\AppData\\Roaming' };
    const launch = runnerLaunch(input({ platform: 'win32', env, execPath: 'C:\\Program Files\\Drydock\\Drydock.exe', electronVersion: '45.4.1', prlimit: '/usr/bin/prlimit' }));
    expect(launch.command).toBe('C:\\Program Files\\Drydock\\Drydock.exe');
    expect(launch.env).toEqual({ TZ: 'Europe/Paris', SystemRoot: 'C:\\Windows', ELECTRON_RUN_AS_NODE: '1' });
  });

  it('on Linux with prlimit and unshare found: CPU, memory, file-size and core limits, then a network namespace of its own, around the same command', () => {
    const launch = runnerLaunch(input({ prlimit: '/usr/bin/prlimit', unshare: '/usr/bin/unshare' }));
    expect(launch.command).toBe('/usr/bin/prlimit');
    expect(launch.args).toEqual(['--cpu=600', `--data=${1024 * 1024 * 1024}`, '--fsize=0', '--core=0', '--', '/usr/bin/unshare', '--map-root-user', '--net', '--', '/usr/local/bin/node', ...NODE_FLAGS]);
    expect(runnerLaunch(input({ unshare: '/usr/bin/unshare' })).args.slice(0, 4)).toEqual(['--map-root-user', '--net', '--', '/usr/local/bin/node']);
    // Elsewhere the tools are not used, whatever was passed.
    expect(runnerLaunch(input({ platform: 'darwin', prlimit: '/usr/bin/prlimit', unshare: '/usr/bin/unshare' })).command).toBe('/usr/local/bin/node');
  });

  it('paths inside the packaged app’s asar archive become their unpacked copies (the permission model reads real files)', () => {
    expect(unpackedPath('/opt/Drydock/resources/app.asar/out/main/chunks/python-runner-1.js')).toBe('/opt/Drydock/resources/app.asar.unpacked/out/main/chunks/python-runner-1.js');
    expect(unpackedPath('C:\\Drydock\\resources\\app.asar\\node_modules\\pyodide')).toBe('C:\\Drydock\\resources\\app.asar.unpacked\\node_modules\\pyodide');
    expect(unpackedPath('/work/drydock/node_modules/pyodide')).toBe('/work/drydock/node_modules/pyodide');
    expect(unpackedPath('/x/app.asar.unpacked/y')).toBe('/x/app.asar.unpacked/y');
  });
});
