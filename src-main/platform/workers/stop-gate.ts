/**
 * Stopping a worker thread only where stopping is safe. A task that is aborted while it runs has
 * its thread terminated (pools.ts). Node aborts the whole process when a thread is terminated inside
 * a zlib call: `zlib.inflateSync` makes a zlib handle and initialises it in two JavaScript steps, and
 * a handle left between them fails an assertion when the thread's environment is freed ("close
 * before init", node_zlib.cc; Node 24.22). Threads inflate git objects all the time (model files,
 * builds, transform syncs), so a cancelled job or a validation out of time could end the service.
 *
 * Each task that can be aborted carries a gate, two Int32 words in memory the two threads share:
 * "stop requested" and "inside zlib". The thread marks itself inside before each zlib call and
 * re-checks the request (throwing instead of entering); the pool requests the stop, waits until the
 * thread is outside, and only then terminates it. With sequentially consistent atomics one of the
 * two always sees the other's mark, so no zlib call is under way when the thread ends.
 */

const STOP = 0;
const INSIDE = 1;

export type StopGate = Int32Array;

export const newStopGate = (): StopGate => new Int32Array(new SharedArrayBuffer(8));

/** The input field that carries a task's gate into its thread (see pools.ts and `gatedTask`). */
export const STOP_GATE_FIELD = '__stopGate';

/** The gate of the task running on this thread (null on the HTTP thread, or for a task without one). */
let current: StopGate | null = null;

/** Thrown in a thread asked to stop, instead of entering zlib; the thread is terminated right after. */
export class TaskStopping extends Error {
  constructor() {
    super('The task was stopped.');
  }
}

/** Runs `fn` (a zlib call) unless this thread's task is being stopped; see the top of this file. */
export function outsideStop<T>(fn: () => T): T {
  const gate = current;
  if (gate === null) return fn();
  Atomics.store(gate, INSIDE, 1);
  try {
    if (Atomics.load(gate, STOP) !== 0) throw new TaskStopping();
    return fn();
  } finally {
    Atomics.store(gate, INSIDE, 0);
  }
}

/** A task export whose input may carry a gate: the gate is this thread's while the task runs. */
export function gatedTask<I, O>(task: (input: I) => O): (input: I) => O {
  return (input: I): O => {
    const gate = (input as Record<string, unknown> | null | undefined)?.[STOP_GATE_FIELD];
    current = gate instanceof Int32Array ? gate : null;
    let result: O;
    try {
      result = task(input);
    } catch (error) {
      current = null;
      throw error;
    }
    if (result instanceof Promise) return result.finally(() => (current = null)) as O;
    current = null;
    return result;
  };
}

/** Asks the task's thread to stop; resolves once it is outside zlib, when terminating it is safe. */
export async function stopSafely(gate: StopGate): Promise<void> {
  Atomics.store(gate, STOP, 1);
  while (Atomics.load(gate, INSIDE) !== 0) await new Promise((resolve) => setTimeout(resolve, 1));
}
