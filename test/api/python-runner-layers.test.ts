import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleNodeEntry } from '../../scripts/source-workers.js';
import { runnerLaunch, type RunnerLaunchInput } from '../../src-main/features/embed-sessions/python-launch';
import { DEFAULT_LIMITS, probeLinuxTools, PythonSandbox, serviceLaunchInput } from '../../src-main/features/embed-sessions/python-sandbox';

/**
 * Issue 23: the layers under Python, each proven on its own. A script that got past Python into
 * arbitrary JavaScript (test/support/python-runner-probe.ts, started with the runner's exact
 * executable, flags and environment) must still find no file outside Pyodide's, no process, no
 * network, no signal to the service. The control runs show what each layer holds by itself: Node
 * 24's permission model denies files and processes but lets a socket connect; the lockdown closes
 * the network; a network namespace, where the system grants one, has no network at all.
 */

const root = join(import.meta.dirname, '../..');
const HOST_SECRET = `host-file-${randomBytes(8).toString('hex')}`;
let probeFile: string;
let baseInput: RunnerLaunchInput;
let hostFile: string;
let marker: string;
let tcp: Server;
let udp: UdpSocket;
let tcpConnections = 0;
let udpDatagrams = 0;

beforeAll(async () => {
  probeFile = await bundleNodeEntry({ root, entry: join(root, 'test/support/python-runner-probe.ts') });
  baseInput = { ...(await serviceLaunchInput(DEFAULT_LIMITS)), runnerFile: probeFile };
  hostFile = join(mkdtempSync(join(tmpdir(), 'drydock-host-')), 'secret.txt');
  writeFileSync(hostFile, HOST_SECRET);
  tcp = createServer((socket) => socket.destroy());
  tcp.on('connection', () => tcpConnections++);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  udp = createSocket('udp4');
  udp.on('message', () => udpDatagrams++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
}, 60_000);
afterAll(() => {
  tcp?.close();
  udp?.close();
  if (hostFile) rmSync(dirname(hostFile), { recursive: true, force: true });
});
beforeEach(() => {
  tcpConnections = 0;
  udpDatagrams = 0;
  marker = join(tmpdir(), `drydock-probe-${randomBytes(6).toString('hex')}`);
});

/** Runs the probe as the runner would be run (with `overrides` of the launch input); its outcomes by attempt. */
async function probe(options: { lockdown: boolean; only?: string[]; overrides?: Partial<RunnerLaunchInput> }): Promise<Record<string, string>> {
  const launch = runnerLaunch({ ...baseInput, ...options.overrides });
  const child = spawn(launch.command, launch.args, { env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const targets = { lockdown: options.lockdown, only: options.only, tcpPort: (tcp.address() as { port: number }).port, udpPort: (udp.address() as { port: number }).port, marker, hostFile };
  child.stdin.write(`${JSON.stringify(targets)}\n`);
  await new Promise((resolve) => child.on('close', resolve));
  const line = out.split('\n')[0]!;
  expect(line, `probe wrote nothing; stderr: ${err.slice(-2000)}`).not.toBe('');
  return JSON.parse(line) as Record<string, string>;
}

/** The attempts that went through. */
const through = (outcomes: Record<string, string>) => Object.entries(outcomes).filter(([, outcome]) => !/^(refused|failed):|^no answer$/.test(outcome));

describe('the runner’s layers, with arbitrary JavaScript in the runner process', { timeout: 60_000 }, () => {
  it('with every layer: nothing goes through — no host file read or written, no process, no socket, datagram or DNS query, no signal, no code from strings', async () => {
    const outcomes = await probe({ lockdown: true });
    // What a script may get: the file-system constants Pyodide reads, and an empty environment.
    expect(outcomes['binding-constants']).toBe('done: object');
    expect(outcomes.environment).toBe('done: {}');
    expect(through(outcomes).filter(([name]) => !['binding-constants', 'environment'].includes(name))).toEqual([]);
    expect(Object.keys(outcomes).length).toBeGreaterThan(35);
    // Each refusal comes from a layer (not from an attempt that broke on its own).
    const LAYER = /ERR_PYTHON_SANDBOX|ERR_ACCESS_DENIED|Code generation from strings disallowed|Cannot redefine property/;
    expect(Object.entries(outcomes).filter(([, outcome]) => outcome.startsWith('refused') && !LAYER.test(outcome))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect({ tcpConnections, udpDatagrams }).toEqual({ tcpConnections: 0, udpDatagrams: 0 });
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(outcomes)).not.toContain(HOST_SECRET);
    // SIGUSR1 from the runner would have opened this process's inspector.
    expect(inspector.url()).toBeUndefined();
  });

  it('Node’s permission model alone denies host files and processes, but a socket still connects: the lockdown is what closes the network', async () => {
    const outcomes = await probe({ lockdown: false, only: ['fs-read-host-file', 'fs-write', 'child-process', 'worker', 'net-connect', 'dgram-send'], overrides: { unshare: null } });
    expect(outcomes['fs-read-host-file']).toMatch(/^refused: ERR_ACCESS_DENIED/);
    expect(outcomes['fs-write']).toMatch(/^refused: ERR_ACCESS_DENIED/);
    expect(outcomes['child-process']).toMatch(/^refused: ERR_ACCESS_DENIED/);
    expect(outcomes.worker).toMatch(/^refused: ERR_ACCESS_DENIED/);
    expect(outcomes['net-connect']).toBe('done: connect');
    expect(outcomes['dgram-send']).toBe('done: sent');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tcpConnections).toBe(1);
    expect(udpDatagrams).toBe(1);
  });

  it('the lockdown alone closes the network (as where no network namespace can be had: macOS, Windows, a Linux without user namespaces)', async () => {
    const network = ['net-connect', 'net-socket', 'http-get', 'tls-connect', 'http2-connect', 'fetch', 'websocket', 'dgram-send', 'dns-lookup', 'dns-promises', 'dns-resolver'];
    const outcomes = await probe({ lockdown: true, only: network, overrides: { unshare: null } });
    expect(Object.keys(outcomes)).toHaveLength(network.length);
    expect(Object.values(outcomes).filter((outcome) => !outcome.startsWith('refused: ERR_PYTHON_SANDBOX'))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ tcpConnections, udpDatagrams }).toEqual({ tcpConnections: 0, udpDatagrams: 0 });
  });

  it('where the system grants a network namespace, the runner has no network even without the lockdown', async (context) => {
    const { unshare } = await probeLinuxTools();
    if (!unshare) return context.skip();
    const outcomes = await probe({ lockdown: false, only: ['net-connect', 'dgram-send', 'fetch'] });
    expect(through(outcomes)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ tcpConnections, udpDatagrams }).toEqual({ tcpConnections: 0, udpDatagrams: 0 });
  });

  it('the runner refuses to run anything when started without the permission model or with code generation from strings allowed (as a runtime ignoring a flag would)', async () => {
    const real = runnerLaunch(await serviceLaunchInput(DEFAULT_LIMITS));
    const without = (drop: RegExp) => new PythonSandbox(DEFAULT_LIMITS, { launch: async () => ({ ...real, args: real.args.filter((arg) => !drop.test(arg)) }) });
    for (const [drop, reason] of [
      [/^--(permission|allow-fs-read=)/, "Node's permission model is not active (--permission)."],
      [/^--disallow-code-generation-from-strings$/, 'Code generation from strings is allowed (--disallow-code-generation-from-strings).'],
    ] as const) {
      const sandbox = without(drop);
      expect(await sandbox.run('d', 'result = 1', {})).toEqual({ kind: 'unavailable', message: `The Python runtime could not start: ${reason}` });
      await sandbox.close();
    }
  });
});
