// What reading one model file, and a whole model, may cost (issue 23). A model file is user input:
// a few hundred bytes of YAML aliases ("billion laughs") or JavaScript constants can ask for
// gigabytes once expanded. Every bound sits far above real models — the 10,000-cube benchmark
// model is 50 MB over 12,500 files (4 KB a file), real single files reach a few MB — so only a file
// built to exhaust the reader meets one. A file over a bound is a diagnostic on that file and is
// otherwise left out; the rest of the model is compiled as usual.

export const MODEL_LIMITS = {
  /** Characters (UTF-16 code units, about bytes for ASCII) of one model file: 8 MiB. */
  fileChars: 8 * 1024 * 1024,
  /**
   * Characters of all model files of a model together: 128 MiB, over twice the largest benchmark
   * model; compiling takes about 20 times the source in memory, which the worker threads allow.
   */
  modelChars: 128 * 1024 * 1024,
  /** Model files of a model: four times the largest benchmark model. */
  modelFiles: 50_000,
  /**
   * Nodes (maps, lists, values) one file may read into: an 8 MiB file of ordinary YAML or JS
   * makes well under 1,000,000 (a line of `key: value` is one or two).
   */
  fileNodes: 1_000_000,
  /**
   * Nodes one YAML file may make by repeating anchored content through aliases (`*name`), on top
   * of the nodes it writes itself. A shared list of a few dozen dimensions reused by a hundred
   * cubes is a few thousand; ten levels of ten aliases would be 10,000,000,000.
   */
  aliasNodes: 100_000,
  /** Characters of one string a JavaScript model file builds from its constants (template literals). */
  jsStringChars: 1024 * 1024,
  /** Problems listed for one file by the reader; the rest are counted in one more diagnostic. */
  fileDiagnostics: 1_000,
} as const;

/** A file that asks more of the reader than MODEL_LIMITS allows: becomes MODEL_FILE_TOO_COMPLEX on that file. */
export class ModelFileTooComplex extends Error {
  constructor(
    message: string,
    /** 1-based position where the reader stopped. */
    readonly line = 1,
    readonly column = 1,
  ) {
    super(message);
    this.name = 'ModelFileTooComplex';
  }
}

/** Counts nodes against a budget; `take` throws ModelFileTooComplex once it is spent. */
export class NodeBudget {
  private nodes = 0;
  private aliased = 0;

  constructor(
    private readonly what: string,
    private readonly maxNodes: number = MODEL_LIMITS.fileNodes,
    private readonly maxAliased: number = MODEL_LIMITS.aliasNodes,
  ) {}

  take(line: number, column: number): void {
    if (++this.nodes > this.maxNodes) throw this.tooMany(line, column);
  }

  private tooMany(line: number, column: number): ModelFileTooComplex {
    return new ModelFileTooComplex(`${this.what} has more than ${this.maxNodes.toLocaleString('en-US')} values`, line, column);
  }

  private tooManyAliased(line: number, column: number): ModelFileTooComplex {
    return new ModelFileTooComplex(
      `${this.what} expands its aliases into more than ${this.maxAliased.toLocaleString('en-US')} values (an anchor repeated through aliases that repeat it again)`,
      line,
      column,
    );
  }

  /** Refuses at once a document known to expand into `nodes` values, `aliased` of them from aliases. */
  expect(nodes: number, aliased: number, line: number, column: number): void {
    if (aliased > this.maxAliased) throw this.tooManyAliased(line, column);
    if (nodes > this.maxNodes) throw this.tooMany(line, column);
  }

  /** A node made by repeating an anchor's content (a YAML alias). */
  takeAliased(line: number, column: number): void {
    if (++this.aliased > this.maxAliased) throw this.tooManyAliased(line, column);
    this.take(line, column);
  }
}

/**
 * True for the errors a reader meets on input built to exhaust it: its own budget, a stack too
 * deep for the nesting, a string longer than JavaScript allows.
 */
export function isExhaustion(error: unknown): error is Error {
  if (error instanceof ModelFileTooComplex) return true;
  return error instanceof RangeError && /call stack|stack space|string length|array length|Invalid typed array|allocation/i.test(error.message);
}

/**
 * Which files of a model (sorted by path) are compiled: the first `modelFiles` whose sizes add up
 * to at most `modelChars`; the others are left out and named by the caller in one diagnostic.
 */
export function filesWithinModelLimits<F extends { path: string; size: number }>(files: F[]): { kept: F[]; left: F[]; reason: string | null } {
  const kept: F[] = [];
  const left: F[] = [];
  let total = 0;
  let reason: string | null = null;
  for (const file of files) {
    // A file too large on its own is reported on that file by the compiler; it does not count here.
    const size = file.size > MODEL_LIMITS.fileChars ? 0 : file.size;
    if (reason === null && kept.length >= MODEL_LIMITS.modelFiles) reason = `more than ${MODEL_LIMITS.modelFiles.toLocaleString('en-US')} model files`;
    if (reason === null && total + size > MODEL_LIMITS.modelChars) reason = `more than ${MODEL_LIMITS.modelChars / 1024 / 1024} MiB of model source`;
    if (reason !== null) {
      left.push(file);
      continue;
    }
    total += size;
    kept.push(file);
  }
  return { kept, left, reason };
}
