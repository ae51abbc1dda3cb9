// Entry of a model shard thread (see platform/workers/pools.ts): keeps the compiled model of the
// branches it validated, least recently used dropped first, so validating again after an edit
// re-checks only the changed files and what depends on them.
//
// A branch's state is keyed by content, not by events: each request names the branch's head
// commit and its uncommitted edits; the shard compares every model file's blob id with the one
// it compiled and feeds only the differences to the incremental compiler. Writes, commits, pulls
// and merges therefore invalidate exactly what they changed, whoever made them.
import { LRUCache } from 'lru-cache';
import type { ValidationResult } from '../../src-shared/api/data-model';
import {
  compileModel,
  createIncrementalCompiler,
  DiagnosticCodes,
  diagnosticJson,
  isModelSourcePath,
  type CompileVerdict,
  type CompiledModel,
  type Diagnostic,
  type IncrementalCompiler,
} from '../../src-shared/model';
import { markReading, type ReadMarker } from '../platform/workers/read-marker';
import { checkTestFiles } from '../features/model-tests/tasks';
import { blobIdOf, modelFilesOfCommit, modelTreeOf, readBlobs } from './model-source';

export interface ValidateInput {
  /** `<deploymentId>:<branch>`. */
  key: string;
  gitdir: string;
  commit: string;
  /** Uncommitted edits: path → content (null: deleted). */
  edits: [string, string | null][];
  /** Where this thread marks the file it reads (see platform/workers/read-marker.ts). */
  marker?: ReadMarker;
  /**
   * Blob ids of files that stopped a thread before (out of heap or time), with why: they are not
   * read again while their content is the same, and each is an error on its file.
   */
  skip?: [string, string][];
}

export type ValidateOutput = Omit<ValidationResult, 'branchName' | 'commit'> & {
  /** Files whose content changed since this shard last compiled the branch (all of them when it had not). */
  changedFiles: number;
};

interface BranchModel {
  compiler: IncrementalCompiler;
  /** path → blob id and length of what the compiler holds. */
  files: Map<string, { id: string; length: number }>;
  /** Total length of the source held. */
  bytes: number;
  output: Omit<ValidateOutput, 'changedFiles'> | null;
  /** The paths `skip` left out when `output` was made. */
  skipped: string;
}

const MAX_BRANCHES = Number(process.env.DRYDOCK_MODEL_CACHE_BRANCHES) || 8;
/** Source text kept per shard (the compiled state is a small multiple of it). */
const MAX_SOURCE_BYTES = (Number(process.env.DRYDOCK_MODEL_CACHE_MB) || 24) * 1024 * 1024;

const branches = new LRUCache<string, BranchModel>({
  max: MAX_BRANCHES,
  maxSize: MAX_SOURCE_BYTES,
  sizeCalculation: (model) => Math.max(1, model.bytes),
});

/**
 * The request this shard serves: where to mark the file being read and the blob id of each file it
 * changes. A shard runs one task at a time (see pools.ts), so one slot serves every compiler here.
 */
const reading: { marker: ReadMarker | null; ids: Map<string, string> } = { marker: null, ids: new Map() };

function onRead(path: string | null): void {
  if (!reading.marker) return;
  markReading(reading.marker, path === null ? null : { path, id: reading.ids.get(path) ?? '' });
}

/** Takes the files `skip` names out of `wanted`; one error on each. */
function leaveOutSkipped(wanted: Map<string, string>, skip: Map<string, string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (skip.size === 0) return out;
  for (const [path, id] of wanted) {
    const why = skip.get(id);
    if (why === undefined) continue;
    wanted.delete(path);
    out.push({
      severity: 'error',
      code: DiagnosticCodes.FILE_TOO_COMPLEX,
      message: `${path} is too complex to read: ${why}; it is not read again until it changes`,
      file: path,
      line: 1,
      column: 1,
    });
  }
  return out;
}

function outputOf(result: CompileVerdict, fileCount: number, skipped: Diagnostic[]): Omit<ValidateOutput, 'changedFiles'> {
  // A stable sort by file keeps each file's own order, as the compiler gave it.
  const diagnostics = skipped.length === 0 ? result.diagnostics : [...skipped, ...result.diagnostics].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const valid = result.valid && skipped.length === 0;
  return {
    valid,
    fileCount,
    errorCount: diagnostics.filter((d) => d.severity === 'error').length,
    warningCount: diagnostics.filter((d) => d.severity === 'warning').length,
    diagnostics: diagnostics.map(diagnosticJson),
  };
}

/** Compiles the branch as the user sees it (head commit plus edits), re-checking only what changed. */
export async function validate(input: ValidateInput): Promise<ValidateOutput> {
  // A copy: the kept tree of the commit is shared by every request naming it.
  const wanted = new Map(await modelTreeOf(input.gitdir, input.commit));
  const editTexts = new Map<string, string>();
  for (const [path, content] of input.edits) {
    if (!isModelSourcePath(path)) continue;
    if (content === null) wanted.delete(path);
    else {
      const id = blobIdOf(content);
      wanted.set(path, id);
      editTexts.set(id, content);
    }
  }
  const skipped = leaveOutSkipped(wanted, new Map(input.skip ?? []));
  const skippedKey = skipped.map((d) => d.file).join('\n');

  let model = branches.get(input.key);
  if (!model) model = { compiler: createIncrementalCompiler({}, { onRead }), files: new Map(), bytes: 0, output: null, skipped: '' };
  const held = model.files;
  const removed = [...held.keys()].filter((path) => !wanted.has(path));
  const changed = [...wanted].filter(([path, id]) => held.get(path)?.id !== id);
  if (removed.length === 0 && changed.length === 0 && model.output && model.skipped === skippedKey) return { ...model.output, changedFiles: 0 };

  const fromGit = changed.filter(([, id]) => !editTexts.has(id));
  const texts = new Map<string, string>(editTexts);
  const read = await readBlobs(input.gitdir, fromGit.map(([, id]) => id));
  fromGit.forEach(([, id], i) => texts.set(id, read[i]!));

  let result: CompileVerdict;
  reading.marker = input.marker ?? null;
  reading.ids = new Map(changed);
  try {
    result = model.compiler.check([
      ...removed.map((path) => ({ path, content: null })),
      ...changed.map(([path, id]) => ({ path, content: texts.get(id)! })),
    ]);
  } catch (error) {
    // A compiler that failed half-way is not trusted again: the next request starts afresh.
    branches.delete(input.key);
    throw error;
  } finally {
    reading.marker = null;
  }
  for (const path of removed) {
    model.bytes -= held.get(path)!.length;
    held.delete(path);
  }
  for (const [path, id] of changed) {
    const length = texts.get(id)!.length;
    model.bytes += length - (held.get(path)?.length ?? 0);
    held.set(path, { id, length });
  }
  model.output = outputOf(result, wanted.size + skipped.length, skipped);
  model.skipped = skippedKey;
  branches.set(input.key, model);
  return { ...model.output, changedFiles: removed.length + changed.length };
}

/** Drops the kept model of branch `key`, or of every branch whose key starts with `prefix` (a deleted deployment). */
export function forget(input: { key: string } | { prefix: string }): number {
  let dropped = 0;
  for (const key of [...branches.keys()]) {
    if ('key' in input ? key === input.key : key.startsWith(input.prefix)) {
      branches.delete(key);
      dropped++;
    }
  }
  return dropped;
}

/** What this shard keeps (for tests and benchmarks). */
export function stats(): { branches: string[]; sourceBytes: number } {
  return { branches: [...branches.keys()], sourceBytes: branches.calculatedSize };
}

/** What a thread loads at start (see WARM_UP_EXPORT in platform/workers/pools.ts). */
export function ready(): true {
  return true;
}

/**
 * Problems of the branch's test files (issue 26), checked against the model this shard holds for
 * it (validated just before), or compiled afresh when it holds none. [] when there are no tests.
 */
export async function checkTests(input: ValidateInput): Promise<Diagnostic[]> {
  return checkTestFiles(input, async (): Promise<CompiledModel> => {
    const held = branches.get(input.key);
    if (held?.output) return held.compiler.result().model;
    const files = new Map((await modelFilesOfCommit(input.gitdir, input.commit)).map((f) => [f.path, f.content]));
    for (const [path, content] of input.edits) {
      if (!isModelSourcePath(path)) continue;
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    return compileModel([...files].map(([path, content]) => ({ path, content }))).model;
  });
}
