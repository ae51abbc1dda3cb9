// Drives the platform's own data-model compiler (@cubejs-backend/schema-compiler, a dev
// dependency) offline, as a reference for Drydock's compiler. Two things it normally needs are
// stood in for at their boundary: the native extension (only used for Jinja templates and
// Python, which these models never contain), and the worker-thread pool that transpiles files
// (the same transpile functions are run in this thread instead, which keeps a compile at a few
// hundred milliseconds instead of a worker start per compile). Everything else — the YAML and JS
// transpilers, CubeValidator, CubeSymbols, CubeEvaluator, the join graph — is the platform's code.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface PlatformFile {
  fileName: string;
  content: string;
}

export interface PlatformVerdict {
  valid: boolean;
  /** Each error as the platform reports it, e.g. `orders cube: "dimensions.bad" does not match …`. */
  errors: string[];
  warnings: string[];
  /** Every cube and view as the platform's evaluator holds it (members, joins, SQL functions). */
  cubes: unknown[];
}

type Transpile = Record<string, (data: unknown) => unknown>;
interface PlatformCompiler {
  cubeEvaluator: { cubeList?: unknown[] };
  compiler: { compile(): Promise<void>; errorsReporter?: { getErrors(): { message: string }[]; getWarnings(): { message?: string }[] } };
}

let prepareCompiler: ((repo: unknown, options: unknown) => PlatformCompiler) | null = null;

const WORKER = '@cubejs-backend/schema-compiler/dist/src/compiler/transpilers/transpiler_worker';

/**
 * A fresh copy of the transpiler worker's functions. The worker keeps its error reporter in module
 * state (a real worker lives for one compile), so each compile loads the module anew.
 */
function freshTranspiler(): Transpile {
  const workerpool = require('workerpool') as { worker: (methods: Transpile) => void };
  let methods: Transpile | null = null;
  const realWorker = workerpool.worker;
  workerpool.worker = (m: Transpile) => {
    methods = m;
  };
  try {
    delete require.cache[require.resolve(WORKER)];
    require(WORKER);
  } finally {
    workerpool.worker = realWorker;
  }
  if (!methods) throw new Error('The platform transpiler did not register its functions.');
  return methods;
}

/** Loads the compiler once, with its transpile step running in this thread. */
function load(): (repo: unknown, options: unknown) => PlatformCompiler {
  if (prepareCompiler) return prepareCompiler;
  const workerpool = require('workerpool') as { pool: unknown };
  workerpool.pool = () => {
    const transpile = freshTranspiler();
    return {
      exec: async (name: string, args: unknown[]) => transpile[name]!(args[0]),
      terminate: async () => undefined,
    };
  };
  prepareCompiler = (require('@cubejs-backend/schema-compiler') as { prepareCompiler: typeof prepareCompiler }).prepareCompiler;
  return prepareCompiler!;
}

const noNative = {
  newJinjaEngine: () => ({
    loadTemplate: () => {
      throw new Error('Jinja templates are not compiled by the conformance harness.');
    },
    renderTemplate: () => {
      throw new Error('Jinja templates are not compiled by the conformance harness.');
    },
  }),
  loadPythonContext: () => {
    throw new Error('Python model files are not compiled by the conformance harness.');
  },
};

/** Compiles `files` (paths such as `model/cubes/orders.yml`) with the platform's compiler. */
export async function platformCompile(files: PlatformFile[]): Promise<PlatformVerdict> {
  const prepare = load();
  const repo = { localPath: () => '/conformance', dataSchemaFiles: async () => files };
  const compiler = prepare(repo, { adapter: 'postgres', nativeInstance: noNative });
  let failure: unknown = null;
  try {
    await compiler.compiler.compile();
  } catch (error) {
    failure = error;
  }
  const reporter = compiler.compiler.errorsReporter;
  const errors = reporter ? reporter.getErrors().map((e) => e.message) : [];
  if (failure && errors.length === 0) errors.push(String((failure as Error).message ?? failure));
  const warnings = reporter ? reporter.getWarnings().map((w) => w.message ?? String(w)) : [];
  const valid = failure === null && errors.length === 0;
  return { valid, errors, warnings, cubes: valid ? (compiler.cubeEvaluator.cubeList ?? []) : [] };
}
