import { randomBytes } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PythonSandbox } from '../../src-main/features/embed-sessions/python-sandbox';
import { createDeployment } from '../support/deployments';
import { leaksIn, pythonTricks, type PythonTrick } from '../support/fuzz-tricks-python';
import { startTestService, type TestService } from '../support/service';

/**
 * Issue 23 item 1: a dashboard widget's Python must not reach the host. Every hostile snippet of the
 * fuzzer's Python dictionary runs through the real route against a real service, and is held to
 * what matters on the host: no marker file written, no connection to a loopback listener nor a
 * request to the service, and none of the service's secrets in the answer — its PID, its data
 * directory, a value planted in its environment, a host file's content.
 */

const SECRET = `planted-${randomBytes(8).toString('hex')}`;
const HOST_SECRET = `host-file-${randomBytes(8).toString('hex')}`;
const PROBE_QUERY = 'from=python-escape';

let svc: TestService;
let publicId: string;
let tricks: PythonTrick[];
let marker: string;
let hostFile: string;
let tcp: Server;
let udp: UdpSocket;
let tcpConnections = 0;
let udpDatagrams = 0;
let serviceProbes = 0;
const onRequest = (message: unknown) => {
  if (String((message as { request?: { url?: string } }).request?.url).includes(PROBE_QUERY)) serviceProbes++;
};

const listening = <T extends Server | UdpSocket>(server: T, listen: (done: () => void) => void) => new Promise<T>((resolve) => listen(() => resolve(server)));
const portOf = (server: Server | UdpSocket) => (server.address() as { port: number }).port;

beforeAll(async () => {
  process.env.DRYDOCK_PYTHON_ESCAPE_SECRET = SECRET;
  svc = await startTestService();
  hostFile = join(mkdtempSync(join(tmpdir(), 'drydock-host-')), 'host-secret.txt');
  writeFileSync(hostFile, HOST_SECRET);
  marker = join(tmpdir(), `drydock-python-escape-${randomBytes(6).toString('hex')}`);
  tcp = createServer((socket) => socket.destroy());
  tcp.on('connection', () => tcpConnections++);
  await listening(tcp, (done) => tcp.listen(0, '127.0.0.1', done));
  udp = createSocket('udp4');
  udp.on('message', () => udpDatagrams++);
  await listening(udp, (done) => udp.bind(0, '127.0.0.1', done));
  subscribe('http.server.request.start', onRequest);

  tricks = pythonTricks({ hostFile, dataDir: svc.dataDir, marker, servicePort: svc.port, tcpPort: portOf(tcp), udpPort: portOf(udp) });
  const dep = await createDeployment(svc);
  const created = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'hostile python' } });
  expect(created.status, created.text).toBe(201);
  const widgets = tricks.map(({ name, python }, i) => ({ id: name, type: 'TEXT', position: { x: 0, y: i * 2, w: 4, h: 2 }, config: { python } }));
  const published = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks/${created.body.id}/publish`, { body: { config: { title: 'Hostile', widgets } } });
  expect(published.status, published.text).toBe(200);
  publicId = created.body.publicId;
}, 120_000);

afterAll(async () => {
  unsubscribe('http.server.request.start', onRequest);
  tcp?.close();
  udp?.close();
  delete process.env.DRYDOCK_PYTHON_ESCAPE_SECRET;
  if (hostFile) rmSync(dirname(hostFile), { recursive: true, force: true });
  await svc?.stop();
}, 60_000);

const run = (widgetId: string) => svc.call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { body: { widgetId } });

const leaks = (text: string, code: string) =>
  leaksIn(text, code, {
    servicePid: process.pid,
    dataDir: svc.dataDir,
    planted: { 'a value of the service’s environment': SECRET, 'a host file’s content': HOST_SECRET },
  });

describe('user Python cannot reach the host', { timeout: 120_000 }, () => {
  it('each hostile snippet is refused or harmless: an answer (never 5xx) without any of the service’s or the host’s secrets', async () => {
    const failures: string[] = [];
    for (const trick of tricks) {
      const res = await run(trick.name);
      if (res.status !== 200 && res.status !== 422) failures.push(`${trick.name}: status ${res.status} ${res.text.slice(0, 300)}`);
      if (res.status === 422 && !/^PYTHON_/.test(String(res.body.code))) failures.push(`${trick.name}: code ${res.body.code}`);
      const found = leaks(res.text, trick.python);
      if (found.length) failures.push(`${trick.name}: leaks ${found.join(', ')} — ${res.text.slice(0, 400)}`);
      if (res.text.length > 1_000_000) failures.push(`${trick.name}: an answer of ${res.text.length} characters`);
      if (res.status === 200 && res.body.result === 'forged') failures.push(`${trick.name}: a forged runner reply was taken`);
    }
    expect(failures).toEqual([]);
  });

  it('nothing written on the host and nothing reached over the network: no marker file, no connection, no datagram, no request to the service', async () => {
    // Connections started by a script would open after it returns: give them time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(existsSync(marker), `marker ${marker}`).toBe(false);
    expect({ tcpConnections, udpDatagrams, serviceProbes }).toEqual({ tcpConnections: 0, udpDatagrams: 0, serviceProbes: 0 });
  });

  it('a forged reply written to the runner’s stdout does not become the answer; the script’s own result does', async () => {
    const res = await run('forged-runner-reply');
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe('honest');
    // The next run is answered normally.
    expect((await run('open-etc-passwd')).status).toBe(422);
  });

  it('what a script prints is capped: 20 MB printed comes back as at most 64 KiB, marked as cut', async () => {
    const res = await run('huge-stdout');
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.result).toBe('printed');
    expect(res.body.stdout.length).toBeLessThanOrEqual(64 * 1024 + 200);
    expect(res.body.stdout).toMatch(/output cut at 65536 characters/);
  });

  it('runs in its own process under Node’s permission model, with a scrubbed environment', async () => {
    expect((await run('os-environ')).status).toBe(200);
    const sandbox = svc.ctx.services.pythonSandbox as PythonSandbox;
    const pid = sandbox.runnerPid(publicId);
    expect(pid).toEqual(expect.any(Number));
    expect(pid).not.toBe(process.pid);
    if (process.platform !== 'linux') return;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(args).toContain('--permission');
    expect(args).toContain('--disallow-code-generation-from-strings');
    expect(args.filter((a) => /^--allow-(fs-write|child-process|worker|addons|wasi|inspector)/.test(a))).toEqual([]);
    for (const read of args.filter((a) => a.startsWith('--allow-fs-read='))) expect(read).toMatch(/pyodide|python-runner/);
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    expect(environ).not.toContain(SECRET);
    expect(environ).not.toContain('HOME=');
  });
});
