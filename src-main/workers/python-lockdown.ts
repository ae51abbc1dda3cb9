// What the Python runner process (python-runner.ts) closes before any user code runs (issue 23).
//
// The process is started under Node's permission model (features/embed-sessions/python-launch.ts):
// no file read outside Pyodide's own files and the runner's, no file write, no child process, no
// worker thread, no addon, no WASI, no inspector — enforced by Node itself. What the permission
// model leaves open is closed here, in JavaScript, by replacing each entry point with a function
// that throws, defined non-writable and non-configurable so that code which reaches the object
// cannot put the original back (it never gets a reference to it):
// - the network: Node 24 does not enforce network access under --permission, so every way of
//   opening a socket or sending a datagram or a DNS query — net, tls, http(s), http2, dgram, dns,
//   fetch, WebSocket, EventSource — is closed at its lowest public layer (a net.Socket connects
//   only through net.Socket.prototype.connect, which fetch, http and tls all end in);
// - the service's process: process.kill and its binding (signals reach any process of the same
//   user, the service included), _debugProcess (SIGUSR1 would open the service's inspector),
//   os.setPriority;
// - node:sqlite, which opens and writes database files without asking the permission model;
// - code from strings: --disallow-code-generation-from-strings stops eval and Function, and
//   vm and the module loader's compile, which it does not cover, are closed after Pyodide loaded;
// - process.binding/_linkedBinding (what is left of the raw bindings), process.mainModule, the
//   module loader (createRequire, Module._load) and getBuiltinModule, so no other door to these
//   modules is left once Pyodide, which needs them while it loads, is up.
// Each step is checked after it is made; a runner that cannot close one does not start.
import { constants as fsConstants } from 'node:fs';
import { constants as osConstants } from 'node:os';

export class LockdownError extends Error {}

const sealed = new WeakSet<object>();

function refusal(what: string): (...args: unknown[]) => never {
  const refuse = function refused(): never {
    const error = new Error(`${what} is not available to Python widgets (no network, no host access).`) as Error & { code: string };
    error.code = 'ERR_PYTHON_SANDBOX';
    throw error;
  };
  sealed.add(refuse);
  return refuse;
}

/** Defines `target[key]` as `value`, non-writable and non-configurable, and checks that it held. */
function pin(target: object, key: PropertyKey, value: unknown): void {
  // Enumerability is kept: an ES module's named exports of a built-in follow its enumerable keys.
  const enumerable = Object.getOwnPropertyDescriptor(target, key)?.enumerable ?? false;
  try {
    Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable });
  } catch {
    // Checked below: a property that cannot be redefined keeps its old value.
  }
  if ((target as Record<PropertyKey, unknown>)[key] !== value) throw new LockdownError(`Could not close ${String(key)}.`);
}

/** Replaces `target[key]` with a function that throws. */
function close(target: object | undefined, key: PropertyKey, what: string): void {
  if (!target) return;
  pin(target, key, refusal(what));
}

/** Replaces every function found on `target` (a module's exports) with one that throws. */
function closeAll(target: object | undefined, what: string, keep: readonly string[] = []): void {
  if (!target) return;
  for (const key of Object.getOwnPropertyNames(target)) {
    if (keep.includes(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor && typeof descriptor.value === 'function') close(target, key, `${what}.${key}`);
  }
}

function closePrototype(klass: unknown, keys: readonly string[], what: string): void {
  const prototype = (klass as { prototype?: object } | undefined)?.prototype;
  for (const key of keys) close(prototype, key, `${what}.${key}`);
}

type Builtins = Record<string, Record<string, unknown> | undefined>;

function builtin(name: string): Record<string, unknown> | undefined {
  try {
    return process.getBuiltinModule(name) as Record<string, unknown> | undefined;
  } catch {
    return undefined;
  }
}

const DNS_CALLS = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTlsa', 'resolveTxt', 'reverse'];

function closeNetwork(m: Builtins): void {
  closePrototype(m.net?.Socket, ['connect'], 'net.Socket');
  closePrototype(m.net?.Server, ['listen'], 'net.Server');
  for (const key of ['connect', 'createConnection', 'createServer']) close(m.net, key, `net.${key}`);
  closePrototype(m.tls?.TLSSocket, ['connect'], 'tls.TLSSocket');
  for (const key of ['connect', 'createServer']) close(m.tls, key, `tls.${key}`);
  for (const name of ['http', 'https']) {
    for (const key of ['request', 'get', 'createServer']) close(m[name], key, `${name}.${key}`);
    closePrototype(m[name]?.Agent, ['createConnection'], `${name}.Agent`);
  }
  for (const key of ['connect', 'createServer', 'createSecureServer']) close(m.http2, key, `http2.${key}`);
  close(m.dgram, 'createSocket', 'dgram.createSocket');
  closePrototype(m.dgram?.Socket, ['bind', 'connect', 'send'], 'dgram.Socket');
  const promises = m.dns?.promises as Record<string, unknown> | undefined;
  for (const dns of [m.dns, promises]) {
    for (const key of DNS_CALLS) close(dns, key, `dns.${key}`);
    closePrototype(dns?.Resolver, DNS_CALLS, 'dns.Resolver');
    close(dns, 'Resolver', 'dns.Resolver');
  }
  for (const key of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) close(globalThis, key, key);
}

function closeHostAccess(m: Builtins): void {
  // Signals reach any process of the same user: the service is the runner's parent.
  for (const key of ['kill', '_kill', '_debugProcess', '_debugEnd', '_startProfilerIdleNotifier', '_stopProfilerIdleNotifier']) close(process, key, `process.${key}`);
  for (const key of ['execve', 'dlopen', '_linkedBinding', 'chdir', 'loadEnvFile', 'setuid', 'setgid', 'seteuid', 'setegid', 'setgroups', 'initgroups']) {
    close(process, key, `process.${key}`);
  }
  for (const key of ['_getActiveHandles', '_getActiveRequests']) close(process, key, `process.${key}`);
  // Pyodide reads the file-system flags through process.binding('constants') (denied under
  // --permission); the same values come from the public modules, and nothing else is served.
  const constants = Object.freeze({ fs: Object.freeze({ ...fsConstants }), os: Object.freeze({ ...osConstants }) });
  const binding = refusal('process.binding');
  pin(process, 'binding', (name: string) => (name === 'constants' ? constants : binding()));
  for (const key of ['setPriority', 'hostname', 'userInfo', 'homedir', 'networkInterfaces']) close(m.os, key, `os.${key}`);
  // Denied by the permission model already (as WASI is); closed too, as a second layer.
  closeAll(m.child_process, 'child_process');
  close(m.worker_threads, 'Worker', 'worker_threads.Worker');
  for (const key of ['open', 'Session', 'url', 'waitForDebugger']) close(m.inspector, key, `inspector.${key}`);
  // node:sqlite opens and writes files without asking the permission model.
  closeAll(m['node:sqlite'], 'sqlite', ['constants']);
  pin(process, 'mainModule', undefined);
  for (const key of Object.keys(process.env)) delete process.env[key];
  // A custom prepareStackTrace sees the receivers of sloppy-mode frames: keep Node's own.
  pin(Error, 'prepareStackTrace', Error.prepareStackTrace);
}

const NETWORK_MODULES = ['net', 'tls', 'http', 'https', 'http2', 'dgram', 'dns'];
const HOST_MODULES = ['os', 'child_process', 'worker_threads', 'inspector', 'node:sqlite'];

/** The first step, before Pyodide loads: the network, signals, the raw bindings, the environment. */
export function lockDownProcess(): void {
  const modules: Builtins = {};
  for (const name of [...NETWORK_MODULES, ...HOST_MODULES]) modules[name] = builtin(name);
  closeNetwork(modules);
  closeHostAccess(modules);
  syncEsmExports();
}

/** The second step, once Pyodide is loaded: everything that compiles code or loads modules. */
export function lockDownAfterLoad(): void {
  const vm = builtin('vm');
  closeAll(vm, 'vm');
  const module = builtin('module') as (Record<string, unknown> & { Module?: Record<string, unknown> & { prototype: object } }) | undefined;
  for (const key of ['createRequire', 'register', 'registerHooks', 'runMain']) close(module, key, `module.${key}`);
  close(module?.Module, '_load', 'Module._load');
  closePrototype(module?.Module, ['require', '_compile', 'load'], 'Module');
  // Pyodide's loader may leave a `require` of its own on globalThis.
  close(globalThis, 'require', 'require');
  syncEsmExports(module);
  close(process, 'getBuiltinModule', 'process.getBuiltinModule');
}

/** The named exports of `import('node:net')` and the like follow the patched module objects. */
function syncEsmExports(module = builtin('module')): void {
  (module?.syncBuiltinESMExports as (() => void) | undefined)?.();
}

/** Whether `fn` is one of the refusals put in place here (tests and self-checks). */
export function isClosed(fn: unknown): boolean {
  return typeof fn === 'function' && sealed.has(fn);
}
