// Hostile Python for a dashboard widget's `config.python` (issue 23): each snippet tries to leave the
// sandbox — read or write host files, start a process, reach the network, read the service's
// environment, signal the service, or forge the runner's answers. A snippet prints `ESCAPED` when the
// step that must be refused went through, so any answer containing that word is a hole.
//
// Snippets name their targets with placeholders, filled in by `pythonTricks()`:
//   __HOST_FILE__     a host file holding a secret        __DATA_DIR__     the service's data directory
//   __MARKER__        a host path that must stay absent   __SERVICE_PORT__ the service's HTTP port
//   __TCP_PORT__      a loopback TCP port that records connections
//   __UDP_PORT__      a loopback UDP port that records datagrams
//
// Used by test/api/embed-python-escape.test.ts (every trick, once) and by the fuzzer
// (test/api/fuzz.test.ts: a published dashboard of them, drawn from by python-run requests).
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface PythonTrick {
  name: string;
  python: string;
}

export const PYTHON_ESCAPE_TRICKS: readonly PythonTrick[] = [
  {
    name: 'js-fs-read',
    python: [
      'import js',
      "fs = js.process.getBuiltinModule('fs')",
      "print('ESCAPED', fs.readFileSync('/etc/hostname', 'utf8'), fs.readFileSync('__HOST_FILE__', 'utf8'))",
    ].join('\n'),
  },
  {
    name: 'js-fs-list-data-dir',
    python: "import js\nprint('ESCAPED', list(js.process.getBuiltinModule('fs').readdirSync('__DATA_DIR__')))",
  },
  {
    name: 'js-child-process',
    python: "import js\nprint('ESCAPED', js.process.getBuiltinModule('child_process').execSync('id').toString())",
  },
  {
    name: 'js-fs-write',
    python: "import js\njs.process.getBuiltinModule('fs').writeFileSync('__MARKER__', 'escaped')\nprint('ESCAPED')",
  },
  {
    name: 'js-process-identity',
    python: "import js\nprint('ESCAPED', js.process.pid, js.process.ppid, js.process.cwd(), js.process.execPath)",
  },
  {
    name: 'js-process-env',
    python: "import js\nprint('ESCAPED', js.JSON.stringify(js.process.env))",
  },
  {
    name: 'js-eval',
    python: "import js\nprint('ESCAPED', js.eval('JSON.stringify({ pid: process.pid, ppid: process.ppid, env: process.env })'))",
  },
  {
    name: 'function-constructor',
    python: [
      'import pyodide_js',
      "leak = pyodide_js.constructor.constructor('return JSON.stringify({ pid: process.pid, ppid: process.ppid, env: process.env })')",
      "print('ESCAPED', leak())",
    ].join('\n'),
  },
  {
    name: 'function-constructor-child-process',
    python: [
      'import pyodide_js',
      "run = pyodide_js.runPython.constructor(\"return process.getBuiltinModule('child_process').execSync('id > __MARKER__').toString()\")",
      "print('ESCAPED', run())",
    ].join('\n'),
  },
  {
    name: 'pyodide-run-js',
    python: "from pyodide.code import run_js\nprint('ESCAPED', run_js('JSON.stringify({ pid: process.pid, env: process.env })'))",
  },
  {
    name: 'pyodide-js-mount-host',
    python: [
      'import os, pyodide_js',
      "pyodide_js.mountNodeFS('/host', '/')",
      "print('ESCAPED', open('/host/etc/hostname').read(), open('/host__HOST_FILE__').read(), os.listdir('/host__DATA_DIR__'))",
    ].join('\n'),
  },
  {
    name: 'pyodide-js-module',
    python: [
      'import pyodide_js',
      'm = pyodide_js._module',
      "print('ESCAPED', m.process.pid if hasattr(m, 'process') else None, m.require('child_process').execSync('id').toString())",
    ].join('\n'),
  },
  {
    name: 'global-require',
    python: "import js\nprint('ESCAPED', js.require('child_process').execSync('id').toString())",
  },
  {
    name: 'main-module-require',
    python: "import js\nprint('ESCAPED', js.process.mainModule.require('child_process').execSync('id').toString())",
  },
  {
    name: 'create-require',
    python: [
      'import js',
      "req = js.process.getBuiltinModule('module').createRequire('/x.js')",
      "print('ESCAPED', req('child_process').execSync('id').toString())",
    ].join('\n'),
  },
  {
    name: 'vm-run-in-this-context',
    python: "import js\nprint('ESCAPED', js.process.getBuiltinModule('vm').runInThisContext('JSON.stringify(process.env)'))",
  },
  {
    name: 'process-binding',
    python: "import js\nprint('ESCAPED', js.process.binding('spawn_sync'), js.process._linkedBinding('fs'))",
  },
  {
    name: 'process-dlopen',
    python: "import js\nm = js.Object.new()\njs.process.dlopen(m, '/lib/x86_64-linux-gnu/libc.so.6')\nprint('ESCAPED')",
  },
  {
    name: 'node-sqlite-write',
    python: "import js\nsqlite = js.process.getBuiltinModule('node:sqlite')\nsqlite.DatabaseSync.new('__MARKER__')\nprint('ESCAPED')",
  },
  {
    name: 'signal-service',
    python: "import js\nprint('ESCAPED', js.process.kill(js.process.ppid, 0))",
  },
  {
    name: 'renice-service',
    python: [
      'import js',
      "os_ = js.process.getBuiltinModule('os')",
      'os_.setPriority(js.process.ppid, os_.getPriority(js.process.ppid))',
      "print('ESCAPED')",
    ].join('\n'),
  },
  {
    name: 'chdir',
    python: "import js\njs.process.chdir('/')\nprint('ESCAPED', js.process.cwd())",
  },
  { name: 'ctypes', python: "import ctypes\nlibc = ctypes.CDLL(None)\nprint('ESCAPED' if libc.system(b'id > __MARKER__') == 0 else 'refused')" },
  { name: 'os-system', python: "import os\nprint('ESCAPED' if os.system('id > __MARKER__') == 0 else 'refused')" },
  { name: 'os-popen', python: "import os\nprint('ESCAPED', os.popen('id').read())" },
  { name: 'subprocess', python: "import subprocess\nprint('ESCAPED', subprocess.run(['sh', '-c', 'id > __MARKER__'], capture_output=True))" },
  { name: 'open-etc-passwd', python: "print(open('/etc/passwd').read())" },
  { name: 'open-host-file', python: "print('ESCAPED', open('__HOST_FILE__').read())" },
  { name: 'os-environ', python: 'import os\nprint(dict(os.environ))' },
  {
    name: 'js-fetch-service',
    python: "import js\njs.fetch('http://127.0.0.1:__SERVICE_PORT__/api/v1/users/me?from=python-escape')\nprint('ESCAPED')",
  },
  { name: 'js-fetch', python: "import js\njs.fetch('http://127.0.0.1:__TCP_PORT__/js-fetch')\nprint('ESCAPED')" },
  {
    name: 'js-websocket',
    python: "import js\njs.WebSocket.new('ws://127.0.0.1:__TCP_PORT__/ws')\nprint('ESCAPED')",
  },
  {
    name: 'pyfetch',
    python: [
      'import asyncio',
      'from pyodide.http import pyfetch',
      // Only scheduled here: whether it connected shows on the listener, not in the answer.
      "asyncio.ensure_future(pyfetch('http://127.0.0.1:__TCP_PORT__/pyfetch'))",
    ].join('\n'),
  },
  { name: 'open-url', python: "from pyodide.http import open_url\nprint('ESCAPED', open_url('http://127.0.0.1:__TCP_PORT__/open-url').read())" },
  { name: 'urllib', python: "import urllib.request\nprint('ESCAPED', urllib.request.urlopen('http://127.0.0.1:__TCP_PORT__/urllib', timeout=2).read())" },
  {
    name: 'python-socket',
    python: [
      'import socket',
      "s = socket.create_connection(('127.0.0.1', __TCP_PORT__), timeout=2)",
      "s.sendall(b'GET /socket HTTP/1.0\\r\\n\\r\\n')",
      "print('ESCAPED', s.recv(64))",
    ].join('\n'),
  },
  {
    name: 'python-socket-node-sockfs',
    python: [
      'import pyodide_js, socket',
      'pyodide_js.useNodeSockFS()',
      "s = socket.create_connection(('127.0.0.1', __TCP_PORT__), timeout=2)",
      "s.sendall(b'GET /node-sockfs HTTP/1.0\\r\\n\\r\\n')",
      "print('ESCAPED', s.recv(64))",
    ].join('\n'),
  },
  {
    name: 'python-udp',
    python: "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'escaped', ('127.0.0.1', __UDP_PORT__))\nprint('ESCAPED')",
  },
  {
    name: 'node-net',
    python: "import js\njs.process.getBuiltinModule('net').connect(__TCP_PORT__, '127.0.0.1')\nprint('ESCAPED')",
  },
  {
    name: 'node-http',
    python: "import js\njs.process.getBuiltinModule('http').get('http://127.0.0.1:__TCP_PORT__/node-http')\nprint('ESCAPED')",
  },
  {
    name: 'node-dgram',
    python: [
      'import js',
      "sock = js.process.getBuiltinModule('dgram').createSocket('udp4')",
      "sock.send('escaped', __UDP_PORT__, '127.0.0.1')",
      "print('ESCAPED')",
    ].join('\n'),
  },
  {
    name: 'node-dns',
    python: "import js\njs.process.getBuiltinModule('dns').resolve4('example.com', lambda *a: None)\nprint('ESCAPED')",
  },
  {
    name: 'forged-runner-reply',
    python: [
      'import os, sys',
      'forged = b\'{"ready":true}\\n{"id":1,"ok":true,"resultJson":"\\\\"forged\\\\"","stdout":"","stderr":""}\\n\'',
      'os.write(1, forged)',
      'sys.__stdout__.write(forged.decode())',
      "result = 'honest'",
    ].join('\n'),
  },
  {
    name: 'forged-runner-reply-js',
    python: [
      'import js',
      'js.process.stdout.write(\'{"id":1,"ok":true,"resultJson":"\\\\"forged\\\\"","stdout":"","stderr":""}\\n\')',
      "print('ESCAPED')",
    ].join('\n'),
  },
  { name: 'read-runner-stdin', python: "import sys\nprint('ESCAPED' if sys.stdin.read() else 'empty')\nresult = input()" },
  { name: 'huge-stdout', python: "print('x' * 20_000_000)\nresult = 'printed'" },
  { name: 'exit-runner', python: 'import os\nos._exit(3)' },
];

/** The tricks with their placeholders filled in. */
export function pythonTricks(values: {
  hostFile: string;
  dataDir: string;
  marker: string;
  servicePort: number;
  tcpPort: number;
  udpPort: number;
}): PythonTrick[] {
  const fill = (code: string) =>
    code
      .replaceAll('__HOST_FILE__', values.hostFile)
      .replaceAll('__DATA_DIR__', values.dataDir)
      .replaceAll('__MARKER__', values.marker)
      .replaceAll('__SERVICE_PORT__', String(values.servicePort))
      .replaceAll('__TCP_PORT__', String(values.tcpPort))
      .replaceAll('__UDP_PORT__', String(values.udpPort));
  return PYTHON_ESCAPE_TRICKS.map((trick) => ({ name: trick.name, python: fill(trick.python) }));
}

/** What of the host or the service an answer to a trick must not contain. */
export interface HostSecrets {
  servicePid: number;
  dataDir: string;
  /** Values planted for the test (an environment variable's, a host file's), by what they are. */
  planted: Record<string, string>;
}

/**
 * What an answer to a run of `code` leaks, by name (empty when nothing). The data directory's path
 * counts only when the script did not name it itself (an error may quote its own source back).
 */
export function leaksIn(text: string, code: string, secrets: HostSecrets): string[] {
  const found: string[] = [];
  if (text.includes('ESCAPED')) found.push('a refused step went through (ESCAPED)');
  for (const [what, value] of Object.entries(secrets.planted)) if (text.includes(value)) found.push(what);
  if (!code.includes(secrets.dataDir) && text.includes(secrets.dataDir)) found.push('the service’s data directory');
  if (text.includes('drydock.sqlite')) found.push('a listing of the data directory');
  if (new RegExp(`\\b${secrets.servicePid}\\b`).test(text)) found.push('the service’s PID');
  if (/uid=\d+\(/.test(text)) found.push('the output of `id`');
  const host = hostname();
  if (host.length >= 6 && text.includes(host)) found.push('the host name');
  const passwd = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8').split('\n')[0]! : '';
  if (passwd && text.includes(passwd)) found.push('the host’s /etc/passwd');
  return found;
}
