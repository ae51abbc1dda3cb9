// Entry of the Python sandbox thread (see features/embed-sessions/python-sandbox.ts): Pyodide
// (CPython compiled to WebAssembly, loaded offline from node_modules) runs a dashboard widget's
// Python code. The thread has no file system or network access of its own to give the script
// beyond what Pyodide's in-memory file system holds, and two limits:
// - time: the host sets the shared interrupt flag, and Python raises KeyboardInterrupt at its next
//   bytecode; a script stuck in C code is ended by terminating the thread;
// - memory: Python's heap is the WebAssembly memory, which only grows through
//   `WebAssembly.Memory.prototype.grow`. Refusing growth past the limit makes malloc fail, so the
//   script gets a MemoryError instead of taking the machine's memory.
import { parentPort, workerData } from 'node:worker_threads';

export interface PythonWorkerData {
  /** One byte shared with the host: 2 (SIGINT) asks Python to stop. */
  interrupt: SharedArrayBuffer;
  /** How much the WebAssembly memory may grow beyond what the loaded runtime uses. */
  memoryLimitBytes: number;
}

export interface PythonRunMessage {
  id: number;
  code: string;
  /** Plain JSON values bound as Python globals (e.g. `filters`, `widget`). */
  globals: Record<string, unknown>;
}

export type PythonRunReply =
  | { id: number; ok: true; resultJson: string | null; stdout: string; stderr: string }
  | { id: number; ok: false; errorType: string; message: string; traceback: string; stdout: string; stderr: string };

const PAGE = 65_536;
let limitBytes = Number.POSITIVE_INFINITY;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function limitedGrow(this: WebAssembly.Memory, delta: number): number {
  if (this.buffer.byteLength + delta * PAGE > limitBytes) throw new RangeError('The Python memory limit is reached.');
  return grow.call(this, delta);
};

interface PyProxyLike {
  set(key: string, value: unknown): void;
  destroy(): void;
}
interface PyodideLike {
  globals: { get(name: string): () => PyProxyLike };
  toPy(value: unknown): unknown;
  runPython(code: string, options?: { globals?: PyProxyLike }): unknown;
  setStdout(options: { batched: (text: string) => void }): void;
  setStderr(options: { batched: (text: string) => void }): void;
  setInterruptBuffer(buffer: Uint8Array): void;
  _module: { HEAP8: Int8Array };
}

const data = workerData as PythonWorkerData;
const interrupt = new Uint8Array(data.interrupt);

async function start(): Promise<void> {
  const { loadPyodide } = (await import('pyodide')) as unknown as { loadPyodide: (options?: Record<string, unknown>) => Promise<PyodideLike> };
  const py = await loadPyodide();
  py.setInterruptBuffer(interrupt);
  // The runtime's own footprint is not the script's: the limit counts from here.
  limitBytes = py._module.HEAP8.buffer.byteLength + data.memoryLimitBytes;

  parentPort!.on('message', (message: PythonRunMessage) => {
    let stdout = '';
    let stderr = '';
    py.setStdout({ batched: (text) => (stdout += `${text}\n`) });
    py.setStderr({ batched: (text) => (stderr += `${text}\n`) });
    Atomics.store(interrupt, 0, 0);
    const namespace = py.globals.get('dict')();
    let reply: PythonRunReply;
    try {
      for (const [name, value] of Object.entries(message.globals)) namespace.set(name, py.toPy(value));
      py.runPython(message.code, { globals: namespace });
      // `result`, when the script sets it, is the run's answer: it must be JSON.
      const json = py.runPython("import json as __json\n__json.dumps(result) if 'result' in globals() else None", { globals: namespace });
      reply = { id: message.id, ok: true, resultJson: typeof json === 'string' ? json : null, stdout, stderr };
    } catch (error) {
      const e = error as { type?: string; message?: string; name?: string };
      const traceback = String(e.message ?? error);
      const lines = traceback.trim().split('\n');
      reply = { id: message.id, ok: false, errorType: e.type ?? e.name ?? 'Error', message: lines[lines.length - 1] ?? '', traceback, stdout, stderr };
    } finally {
      Atomics.store(interrupt, 0, 0);
      namespace.destroy();
    }
    parentPort!.postMessage(reply);
  });
  parentPort!.postMessage({ ready: true });
}

start().catch((error: unknown) => {
  parentPort!.postMessage({ ready: false, message: (error as Error).message ?? String(error) });
});
