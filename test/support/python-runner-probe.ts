// A stand-in for a script that got past Python into arbitrary JavaScript inside the Python runner
// process (test/api/python-runner-layers.test.ts): started exactly like the runner (same
// executable, flags and environment, src-main/features/embed-sessions/python-launch.ts), it applies
// the runner's lockdown (unless told not to, for the control run) and then tries every way out it
// knows, dynamic import() included — which the runner's flags deny to a real script. It reads its
// targets as one JSON line on stdin and writes one JSON line: each attempt's outcome.
import { lockDownAfterLoad, lockDownProcess } from '../../src-main/workers/python-lockdown';

interface Targets {
  lockdown: boolean;
  only?: string[];
  tcpPort: number;
  udpPort: number;
  marker: string;
  hostFile: string;
}

const protocolOut = process.stdout;
// Not in this project's Node typings (node:sqlite is newer; process.binding is deprecated).
const SQLITE: string = 'node:sqlite';
const binding = (name: string) => (process as unknown as { binding(name: string): unknown }).binding(name);

/** Waits for a socket-like object to connect, fail or stay silent (then it did not connect). */
function settle(emitter: { once(event: string, listener: (...args: unknown[]) => void): unknown }, success: string): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('no answer'), 1_500);
    emitter.once(success, () => (clearTimeout(timer), resolve(`done: ${success}`)));
    emitter.once('error', (error) => (clearTimeout(timer), resolve(`failed: ${(error as Error).message}`)));
  });
}

function attempts(t: Targets): Record<string, () => Promise<unknown>> {
  const url = `http://127.0.0.1:${t.tcpPort}/probe`;
  return {
    'fs-read-host-file': async () => (await import('node:fs')).readFileSync(t.hostFile, 'utf8'),
    'fs-read-etc': async () => (await import('node:fs')).readFileSync('/etc/passwd', 'utf8'),
    'fs-write': async () => (await import('node:fs')).writeFileSync(t.marker, 'escaped'),
    'child-process': async () => String((await import('node:child_process')).execSync('id')),
    worker: async () => new (await import('node:worker_threads')).Worker('process.exit()', { eval: true }),
    sqlite: async () => new ((await import(SQLITE)) as { DatabaseSync: new (path: string) => unknown }).DatabaseSync(t.marker),
    'net-connect': async () => settle((await import('node:net')).connect(t.tcpPort, '127.0.0.1'), 'connect'),
    'net-socket': async () => settle(new (await import('node:net')).Socket().connect(t.tcpPort, '127.0.0.1'), 'connect'),
    'net-listen': async () => settle(new (await import('node:net')).Server().listen(0, '127.0.0.1'), 'listening'),
    'http-get': async () => settle((await import('node:http')).get(url), 'response'),
    'tls-connect': async () => settle((await import('node:tls')).connect(t.tcpPort, '127.0.0.1'), 'secureConnect'),
    'http2-connect': async () => settle((await import('node:http2')).connect(url), 'connect'),
    fetch: async () => (await fetch(url)).status,
    websocket: async () => settle(new WebSocket(`ws://127.0.0.1:${t.tcpPort}/`) as never, 'open'),
    'dgram-send': async () => {
      const socket = (await import('node:dgram')).createSocket('udp4');
      await new Promise<void>((resolve, reject) => socket.send('escaped', t.udpPort, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      return 'sent';
    },
    'dns-lookup': async () => {
      const dns = await import('node:dns');
      return new Promise((resolve, reject) => dns.lookup('localhost', (error, address) => (error ? reject(error) : resolve(address))));
    },
    'dns-promises': async () => (await import('node:dns/promises')).resolve4('example.com'),
    'dns-resolver': async () => new (await import('node:dns')).Resolver().resolve4('example.com', () => undefined),
    'signal-parent': async () => process.kill(process.ppid, 0),
    'debug-parent': async () => (process as unknown as { _debugProcess(pid: number): void })._debugProcess(process.ppid),
    'renice-parent': async () => {
      const os = await import('node:os');
      return os.setPriority(process.ppid, os.getPriority(process.ppid));
    },
    'host-name': async () => (await import('node:os')).hostname(),
    'user-info': async () => (await import('node:os')).userInfo(),
    'binding-tcp': async () => binding('tcp_wrap'),
    'linked-binding': async () => (process as unknown as { _linkedBinding(name: string): unknown })._linkedBinding('electron_common_v8_util'),
    dlopen: async () => process.dlopen({ exports: {} } as never, '/lib/x86_64-linux-gnu/libc.so.6'),
    execve: async () => (process as unknown as { execve(file: string, args: string[]): void }).execve('/bin/sh', ['sh', '-c', `id > ${t.marker}`]),
    'vm-run': async () => (await import('node:vm')).runInThisContext('process.pid'),
    'vm-script': async () => new (await import('node:vm')).Script('process.pid').runInThisContext(),
    'create-require': async () => (await import('node:module')).createRequire(import.meta.url)('node:child_process'),
    'module-load': async () => ((await import('node:module')).Module as unknown as { _load(id: string): unknown })._load('node:child_process'),
    'get-builtin-module': async () => process.getBuiltinModule('node:fs'),
    eval: async () => (0, eval)('process.pid'),
    'function-constructor': async () => new Function('return process.pid')(),
    inspector: async () => (await import('node:inspector')).open(0),
    'restore-connect': async () => {
      const net = await import('node:net');
      Object.defineProperty(net.Socket.prototype, 'connect', { value: () => 'restored' });
      return 'redefined';
    },
    environment: async () => JSON.stringify(process.env),
    'binding-constants': async () => typeof (binding('constants') as { fs?: unknown }).fs,
  };
}

async function probe(t: Targets): Promise<Record<string, string>> {
  if (t.lockdown) {
    lockDownProcess();
    lockDownAfterLoad();
  }
  const outcomes: Record<string, string> = {};
  for (const [name, attempt] of Object.entries(attempts(t))) {
    if (t.only && !t.only.includes(name)) continue;
    try {
      const value = await attempt();
      const text = typeof value === 'string' ? value : String(typeof value === 'object' ? (JSON.stringify(value) ?? value) : value);
      outcomes[name] = /^(done|failed):|^no answer$/.test(text) ? text : `done: ${text.slice(0, 200)}`;
    } catch (error) {
      const e = error as { code?: string; message?: string };
      outcomes[name] = `refused: ${e.code ?? ''} ${String(e.message).slice(0, 200)}`;
    }
  }
  return outcomes;
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  input += chunk;
  const end = input.indexOf('\n');
  if (end === -1) return;
  process.stdin.pause();
  probe(JSON.parse(input.slice(0, end)) as Targets).then(
    (outcomes) => protocolOut.write(`${JSON.stringify(outcomes)}\n`, () => process.exit(0)),
    (error: unknown) => protocolOut.write(`${JSON.stringify({ probe: `crashed: ${String(error)}` })}\n`, () => process.exit(1)),
  );
});
