/**
 * Worker threads for CPU-heavy work, so the HTTP thread only routes, reads SQLite and answers.
 *
 * - the compute pool (piscina): stateless tasks — compiling a commit for a build, generating
 *   semantic-view DDL and metric-view YAML, converting dbt manifests, rendering exports, hashing
 *   uploads. Any free thread takes the next task.
 * - model shards: long-lived single-thread pools that keep each branch's compiled model between
 *   validations (see `features/data-model/validation.ts`). A branch always goes to the same shard,
 *   so its state stays where it was built and never crosses threads.
 *
 * Threads start on first use and end after a while without work, so an idle service holds none.
 * A task aborted through its signal leaves the queue, or, when already running, its thread is
 * terminated and replaced (the work stops at once), never inside a zlib call (stop-gate.ts).
 *
 * Every thread has a heap limit (issue 23): model files are user input, and a thread that runs out
 * ends with ERR_WORKER_OUT_OF_MEMORY, rejecting its task, instead of taking the service with it;
 * piscina starts a new thread for the next task.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { newStopGate, stopSafely, STOP_GATE_FIELD } from './stop-gate';

/**
 * piscina loads with the first pool opened, not with the service (start time, issue 10: it costs
 * about as much as a tenth of a start, and most starts never run a task in the first seconds).
 */
let piscinaClass: typeof Piscina | undefined;
const loadPiscina = (): typeof Piscina => (piscinaClass ??= (createRequire(import.meta.url)('piscina') as typeof import('piscina')).Piscina);

export interface WorkerPoolsOptions {
  /** Bundled entry of the compute threads (a `?modulePath` import). */
  computeEntry: string;
  /** Bundled entry of the model shard threads. */
  modelEntry: string;
  /** Compute threads at most (default: the cores, between 2 and 4). */
  computeThreads?: number;
  /** Model shards (default 2). */
  modelShards?: number;
  /** How long a model shard keeps its branches without any request (default 10 minutes). */
  modelIdleMs?: number;
  /** Old-generation heap of each thread in MB (default workerHeapMb()). */
  heapMb?: number;
}

/**
 * Heap of one worker thread, 3 GB unless DRYDOCK_WORKER_HEAP_MB says otherwise (read when a pool
 * opens): compiling takes about 20 times the model's source, and a model may have 128 MiB
 * (MODEL_LIMITS.modelChars).
 */
export const workerHeapMb = (): number => Number(process.env.DRYDOCK_WORKER_HEAP_MB) || 3072;

/**
 * Young generation of each thread in MB. A compile makes a model's worth of short-lived parse
 * trees; with its default, sized from the 3 GB old generation (192 MB), V8 let them pile up, which
 * at 10,000 cubes put over 100 MB more on a first validate's peak resident memory (issue 28) and
 * saved no measurable time.
 */
export const YOUNG_GENERATION_MB = 6;

/**
 * Young generation of the model shards, whose cold validate is waited for: with 6 MB, a 10,000-cube
 * first validate spent about 330 ms of its thread in some 470 scavenges, most of what each one met
 * still alive. With 24 MB it took 24–460 ms less in each of seven runs alternating with 6 MB
 * (medians 2,584 and 2,930 ms) for 10–15 MB more peak memory (issue 28).
 */
export const MODEL_SHARD_YOUNG_GENERATION_MB = 24;

/** True for the rejection of a task whose thread ran out of heap. */
export const isOutOfMemory = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

export interface RunOptions {
  signal?: AbortSignal | null;
  /** ArrayBuffers to move to the worker instead of copying. */
  transferList?: ArrayBuffer[];
}

/**
 * The export piscina loads when a thread starts (its `name` option is the default task's export,
 * not a label). It must exist: piscina first `require()`s the entry and, when the named export is
 * missing, `import()`s it again; a task arriving meanwhile `require()`s the module while that
 * import is in flight, which aborts Node 20 (`v8::Module::IsGraphAsync … instantiated module`).
 * Both entries export `ready`, so a thread only ever takes the synchronous require path.
 */
export const WARM_UP_EXPORT = 'ready';

const cores = (): number => {
  try {
    return availableParallelism();
  } catch {
    return 2;
  }
};

/**
 * The input and the signal piscina is given for a task aborted through `signal`: the input carries
 * a stop gate, and piscina's own signal aborts (terminating a running thread) only once the thread
 * is outside zlib (stop-gate.ts). An input that is not a plain object is passed as it is.
 */
function gated(input: unknown, signal: AbortSignal | null | undefined): [unknown, AbortSignal | null] {
  if (!signal) return [input, null];
  if (input === null || typeof input !== 'object' || Array.isArray(input) || signal.aborted) return [input, signal];
  const gate = newStopGate();
  const stop = new AbortController();
  signal.addEventListener('abort', () => void stopSafely(gate).then(() => stop.abort(signal.reason)), { once: true });
  return [{ ...input, [STOP_GATE_FIELD]: gate }, stop.signal];
}

export class WorkerPools {
  private compute: Piscina | null = null;
  private readonly shards: (Piscina | null)[];
  private closed = false;

  constructor(private readonly options: WorkerPoolsOptions) {
    this.shards = new Array<Piscina | null>(Math.max(1, options.modelShards ?? 2)).fill(null);
  }

  /** Loads the thread pool library without starting a thread (an idle moment after the start is the time for it). */
  prepare(): void {
    loadPiscina();
  }

  get shardCount(): number {
    return this.shards.length;
  }

  /** Runs the named export of the compute entry with `input`. */
  runCompute<O>(name: string, input: unknown, options: RunOptions = {}): Promise<O> {
    this.compute ??= this.open({
      filename: this.options.computeEntry,
      name: WARM_UP_EXPORT,
      minThreads: 0,
      maxThreads: this.options.computeThreads ?? Math.max(2, Math.min(4, cores())),
      idleTimeout: 30_000,
    });
    const [task, signal] = gated(input, options.signal);
    return this.compute.run(task, { name, signal, transferList: options.transferList }) as Promise<O>;
  }

  /** Runs the named export of the model entry on shard `shard` (0 ≤ shard < shardCount). */
  runOnShard<O>(shard: number, name: string, input: unknown, options: RunOptions = {}): Promise<O> {
    const pool = (this.shards[shard] ??= this.open({
      filename: this.options.modelEntry,
      name: WARM_UP_EXPORT,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: this.options.modelIdleMs ?? 10 * 60_000,
      youngGenerationMb: MODEL_SHARD_YOUNG_GENERATION_MB,
    }));
    const [task, signal] = gated(input, options.signal);
    return pool.run(task, { name, signal, transferList: options.transferList }) as Promise<O>;
  }

  /** Tasks queued or running on a shard (for choosing the least busy one). */
  shardLoad(shard: number): number {
    const pool = this.shards[shard];
    if (!pool) return 0;
    return pool.queueSize + (pool.threads.length - pool.idleThreads);
  }

  /** Ends every thread; queued tasks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [this.compute, ...this.shards].filter((p): p is Piscina => p !== null);
    this.compute = null;
    this.shards.fill(null);
    await Promise.all(pools.map((pool) => pool.destroy()));
  }

  private open({ youngGenerationMb = YOUNG_GENERATION_MB, ...options }: ConstructorParameters<typeof Piscina>[0] & { filename: string; youngGenerationMb?: number }): Piscina {
    if (this.closed) throw new Error('The worker pools are closed.');
    // Worker threads inherit process.execArgv; a loader or inspector flag of the parent is not for them.
    const Pool = loadPiscina();
    const resourceLimits = { maxOldGenerationSizeMb: this.options.heapMb ?? workerHeapMb(), maxYoungGenerationSizeMb: youngGenerationMb };
    return new Pool({ ...options, execArgv: [], closeTimeout: 1_000, resourceLimits });
  }
}
