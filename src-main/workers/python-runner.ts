// Entry of the Python runner process (see features/embed-sessions/python-sandbox.ts): Pyodide
// (CPython compiled to WebAssembly, loaded offline from node_modules/pyodide) runs dashboard
// widgets' Python, one script at a time, in a process of its own started under Node's permission
// model (features/embed-sessions/python-launch.ts) and locked down further by python-lockdown.ts
// before any script runs. It talks to the service only through its stdin and stdout, one JSON
// object a line (python-protocol.ts); what it may see is the script and its globals.
//
// Limits: the service ends the process when a script overruns its time; Python's heap is the
// WebAssembly memory, which only grows through `WebAssembly.Memory.prototype.grow`, and refusing
// growth past the limit makes malloc fail, so the script gets a MemoryError; the JavaScript heap is
// bounded by --max-old-space-size.
//
// argv: [pyodide directory, memory limit in bytes].
import { Console } from 'node:console';
import { join, parse, sep } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { lockDownAfterLoad, lockDownProcess } from './python-lockdown';
import { capped, OUTPUT_CAP, RESULT_CAP, TRACEBACK_CAP, type RunReply, type RunRequest, type RunnerMessage } from './python-protocol';

interface PyProxyLike {
  set(key: string, value: unknown): void;
  destroy(): void;
}
interface PyodideLike {
  globals: { get(name: string): () => PyProxyLike };
  toPy(value: unknown): unknown;
  runPython(code: string, options?: { globals?: PyProxyLike }): unknown;
  setStdout(options: { write: (buffer: Uint8Array) => number }): void;
  setStderr(options: { write: (buffer: Uint8Array) => number }): void;
  _module: { HEAP8: Int8Array };
}

// The protocol's streams, taken before anything else can touch them; `process.stdout` and
// `process.stdin` are then replaced, so nothing in this process writes protocol lines but `send`.
const protocolOut = process.stdout;
const protocolIn = process.stdin;
const diagnostics = process.stderr;
Object.defineProperty(globalThis, 'console', { value: new Console(diagnostics, diagnostics), writable: false, configurable: false });
const send = (message: RunnerMessage) => protocolOut.write(`${JSON.stringify(message)}\n`);

const [pyodideDir, memoryLimitArg] = process.argv.slice(2);
const memoryLimitBytes = Number(memoryLimitArg);
// Pyodide names the program (sys.executable, $_) after argv[1]: not the path of this install.
process.argv.splice(1);

const PAGE = 65_536;
let limitBytes = Number.POSITIVE_INFINITY;
const grow = WebAssembly.Memory.prototype.grow;
function limitedGrow(this: WebAssembly.Memory, delta: number): number {
  if (this.buffer.byteLength + delta * PAGE > limitBytes) throw new RangeError('The Python memory limit is reached.');
  return grow.call(this, delta);
}
Object.defineProperty(WebAssembly.Memory.prototype, 'grow', { value: limitedGrow, writable: false, configurable: false });

/** Why this process must not run user code, or null: the runtime's own guarantees are checked, not assumed. */
function missingGuarantee(): string | null {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  if (!permission) return "Node's permission model is not active (--permission).";
  for (const scope of ['fs.write', 'child', 'worker', 'addon', 'wasi', 'inspector']) {
    let granted: boolean;
    try {
      granted = permission.has(scope);
    } catch {
      // A scope this runtime does not know of: nothing grants it.
      granted = false;
    }
    if (granted) return `The permission model allows ${scope}.`;
  }
  if (permission.has('fs.read', parse(process.execPath).root)) return 'The permission model allows reading the whole file system.';
  try {
    new Function('')();
    return 'Code generation from strings is allowed (--disallow-code-generation-from-strings).';
  } catch {
    return null;
  }
}

function sink(): void {
  const out = new Writable({ write: (_chunk, _encoding, done) => done() });
  const input = new Readable({ read() {} });
  input.push(null);
  Object.defineProperty(process, 'stdout', { value: out, writable: false, configurable: false });
  Object.defineProperty(process, 'stdin', { value: input, writable: false, configurable: false });
}

async function start(): Promise<PyodideLike> {
  const missing = missingGuarantee();
  if (missing) throw new Error(missing);
  if (!pyodideDir || !(memoryLimitBytes > 0)) throw new Error('The runner needs the Pyodide directory and a memory limit.');
  lockDownProcess();
  const { loadPyodide } = (await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href)) as {
    loadPyodide: (options: Record<string, unknown>) => Promise<PyodideLike>;
  };
  const py = await loadPyodide({
    indexURL: pyodideDir.endsWith(sep) ? pyodideDir : pyodideDir + sep,
    // `import js` gives what jsglobals holds: nothing of this process.
    jsglobals: Object.create(null),
    // Python's stdin is empty: this process's stdin is the service's pipe, not the script's to read.
    stdin: () => null,
    env: {},
    args: [],
  });
  // The runtime's own footprint is not the script's: the limit counts from here.
  limitBytes = py._module.HEAP8.buffer.byteLength + memoryLimitBytes;
  lockDownAfterLoad();
  sink();
  return py;
}

/**
 * What a script writes to one stream, kept up to the cap and a little: bytes beyond are dropped as
 * they come, without being decoded (a 20 MB print costs no more than a short one).
 */
function collector(): { write(buffer: Uint8Array): number; text(): string } {
  const decoder = new TextDecoder();
  let text = '';
  return {
    write(buffer) {
      // A UTF-8 character is at most 4 bytes: this many bytes are enough to pass the cap.
      if (text.length <= OUTPUT_CAP) text += decoder.decode(buffer.subarray(0, 4 * (OUTPUT_CAP + 1 - text.length)), { stream: true });
      return buffer.length;
    },
    text: () => capped(text, OUTPUT_CAP),
  };
}

function run(py: PyodideLike, request: RunRequest): RunReply {
  const stdout = collector();
  const stderr = collector();
  py.setStdout({ write: stdout.write });
  py.setStderr({ write: stderr.write });
  const namespace = py.globals.get('dict')();
  const outputs = () => ({ stdout: stdout.text(), stderr: stderr.text() });
  try {
    for (const [name, value] of Object.entries(request.globals)) namespace.set(name, py.toPy(value));
    py.runPython(request.code, { globals: namespace });
    // `result`, when the script sets it, is the run's answer: it must be JSON.
    const json = py.runPython("import json as __json\n__json.dumps(result) if 'result' in globals() else None", { globals: namespace });
    const resultJson = typeof json === 'string' ? json : null;
    if (resultJson !== null && resultJson.length > RESULT_CAP) {
      const message = `ResultTooLarge: the JSON of \`result\` is ${resultJson.length} characters, more than ${RESULT_CAP}.`;
      return { id: request.id, ok: false, errorType: 'ResultTooLarge', message, traceback: message, ...outputs(), broken: false };
    }
    return { id: request.id, ok: true, resultJson, ...outputs() };
  } catch (error) {
    const e = error as { type?: string; message?: string; name?: string };
    const traceback = capped(String(e.message ?? error), TRACEBACK_CAP);
    const lines = traceback.trim().split('\n');
    // A Python exception carries its type; anything else failed in the runtime itself.
    const broken = typeof e.type !== 'string';
    return { id: request.id, ok: false, errorType: e.type ?? e.name ?? 'Error', message: capped(lines[lines.length - 1] ?? '', TRACEBACK_CAP), traceback, ...outputs(), broken };
  } finally {
    namespace.destroy();
  }
}

function serve(py: PyodideLike): void {
  let pending = '';
  protocolIn.setEncoding('utf8');
  protocolIn.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      const reply = run(py, JSON.parse(line) as RunRequest);
      send(reply);
      // A runtime that failed is not reused: the service starts another.
      if (!reply.ok && reply.broken) protocolOut.end(() => process.exit(1));
    }
  });
  // The service went away: so does the runner.
  protocolIn.on('end', () => process.exit(0));
}

start().then(
  (py) => {
    serve(py);
    send({ ready: true });
  },
  (error: unknown) => {
    send({ ready: false, message: capped(String((error as Error).message ?? error), TRACEBACK_CAP) });
    protocolOut.end(() => process.exit(1));
  },
);
