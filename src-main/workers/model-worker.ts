// Entry of a model shard thread (see platform/workers/pools.ts): keeps the compiled model of the
// branches it validated, least recently used dropped first, so validating again after an edit
// re-checks only the changed files and what depends on them.
//
// A branch's state is keyed by content, not by events: each request names the branch's head
// commit and its uncommitted edits; the shard compares every model file's blob id with the one
// it compiled and feeds only the differences to the incremental compiler. Writes, commits, pulls
// and merges therefore invalidate exactly what they changed, whoever made them.
import { resourceLimits, type ResourceLimits } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import type { ValidationResult } from '../../src-shared/api/data-model';
import {
  compileModel,
  createIncrementalCompiler,
  DiagnosticCodes,
  diagnosticJson,
  isModelSourcePath,
  MODEL_LIMITS,
  type CompileVerdict,
  type CompiledModel,
  type Diagnostic,
  type IncrementalCompiler,
} from '../../src-shared/model';
import { markReading, type ReadMarker } from '../platform/workers/read-marker';
import { checkTestFiles } from '../features/model-tests/tasks';
import { gatedTask } from '../platform/workers/stop-gate';
import { movedWith } from '../platform/workers/moved';
import { blobIdOf, filePageWithin, modelFilesOfCommit, modelTreeOf, readBlobs, type FilePage, type PageEntry } from './model-source';
import { GitRepository } from '../platform/repo';

export { blobInfos } from './model-source';

export interface ValidateInput {
  /** `<deploymentId>:<branch>`. */
  key: string;
  /** The branch as the answer names it. */
  branchName: string;
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

/**
 * The answer of `GET …/data-model/validate`, serialised on this thread and moved (not copied) to
 * the HTTP thread, which sends the bytes as they are: at 10,000 cubes a list of diagnostics is
 * never built, cloned or serialised there (issue 28). The counts are for logs and tests.
 */
export interface ValidateOutput {
  body: Uint8Array;
  valid: boolean;
  fileCount: number;
  errorCount: number;
  warningCount: number;
  /** Files whose content changed since this shard last compiled the branch (all of them when it had not). */
  changedFiles: number;
}

type Verdict = Omit<ValidationResult, 'branchName' | 'commit'>;

interface BranchModel {
  compiler: IncrementalCompiler;
  /** path → blob id and length of what the compiler holds. */
  files: Map<string, { id: string; length: number }>;
  /** Total length of the source held. */
  bytes: number;
  /**
   * The commit and the edits (path → blob id, null: deleted) `files` were brought to. While the
   * next request names the same commit, only paths edited then or now can differ: a validate after
   * an edit compares those, not every file of the model.
   */
  commit: string | null;
  edits: Map<string, string | null>;
  output: { verdict: Verdict; json: string } | null;
  /** The paths `skip` left out when `output` was made. */
  skipped: string;
}

const MAX_BRANCHES = Number(process.env.DRYDOCK_MODEL_CACHE_BRANCHES) || 8;
/**
 * Source text kept per shard (the compiled state is about four times it). By default as much as
 * the largest model the compiler reads (MODEL_LIMITS.modelChars), so any model stays compiled
 * between validations; a model larger than this bound would be compiled afresh every time.
 */
const MAX_SOURCE_BYTES = (Number(process.env.DRYDOCK_MODEL_CACHE_MB) || MODEL_LIMITS.modelChars / (1024 * 1024)) * 1024 * 1024;

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

function verdictOf(result: CompileVerdict, fileCount: number, skipped: Diagnostic[]): Verdict {
  // A stable sort by file keeps each file's own order, as the compiler gave it.
  const diagnostics = skipped.length === 0 ? result.diagnostics : [...skipped, ...result.diagnostics].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const valid = result.valid && skipped.length === 0;
  let errorCount = 0;
  let warningCount = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errorCount++;
    else if (d.severity === 'warning') warningCount++;
  }
  return { valid, fileCount, errorCount, warningCount, diagnostics: diagnostics.map(diagnosticJson) };
}

const encoder = new TextEncoder();

/** The answer's bytes: the branch and commit, then the kept verdict's JSON (keys in the contract's order). */
function answer(input: ValidateInput, output: { verdict: Verdict; json: string }, changedFiles: number): ValidateOutput {
  const { valid, fileCount, errorCount, warningCount } = output.verdict;
  // TextEncoder gives the bytes a buffer of their own (Buffer.from may share Node's pool), so they can move.
  const body = encoder.encode(`{"branchName":${JSON.stringify(input.branchName)},"commit":${JSON.stringify(input.commit)},${output.json}`);
  const result: ValidateOutput = { body, valid, fileCount, errorCount, warningCount, changedFiles };
  return movedWith(result, body.buffer);
}

/** The model files as the request sees them (head commit plus edits): path → blob id, and the text of each edited blob. */
function editsOf(input: ValidateInput): { ids: Map<string, string | null>; texts: Map<string, string> } {
  const ids = new Map<string, string | null>();
  const texts = new Map<string, string>();
  for (const [path, content] of input.edits) {
    if (!isModelSourcePath(path)) continue;
    if (content === null) ids.set(path, null);
    else {
      const id = blobIdOf(content);
      ids.set(path, id);
      texts.set(id, content);
    }
  }
  return { ids, texts };
}

/** Compiles the branch as the user sees it (head commit plus edits), re-checking only what changed. */
export const validate = gatedTask(validateBranch);

async function validateBranch(input: ValidateInput): Promise<ValidateOutput> {
  const tree = await modelTreeOf(input.gitdir, input.commit);
  const edits = editsOf(input);
  const skip = new Map(input.skip ?? []);

  let model = branches.get(input.key);
  if (!model) model = { compiler: createIncrementalCompiler({}, { onRead }), files: new Map(), bytes: 0, commit: null, edits: new Map(), output: null, skipped: '' };
  const held = model.files;
  // path → new blob id (null: the file is gone) of every file that differs from what the compiler holds.
  const changes = new Map<string, string | null>();
  let skipped: Diagnostic[] = [];
  if (model.commit === input.commit && skip.size === 0 && model.skipped === '') {
    for (const path of new Set([...model.edits.keys(), ...edits.ids.keys()])) {
      const id = edits.ids.has(path) ? edits.ids.get(path)! : (tree.get(path) ?? null);
      if (id !== (held.get(path)?.id ?? null)) changes.set(path, id);
    }
  } else {
    // A copy: the kept tree of the commit is shared by every request naming it.
    const wanted = new Map(tree);
    for (const [path, id] of edits.ids) {
      if (id === null) wanted.delete(path);
      else wanted.set(path, id);
    }
    skipped = leaveOutSkipped(wanted, skip);
    for (const path of held.keys()) if (!wanted.has(path)) changes.set(path, null);
    for (const [path, id] of wanted) if (held.get(path)?.id !== id) changes.set(path, id);
  }
  const skippedKey = skipped.map((d) => d.file).join('\n');
  if (changes.size === 0 && model.output && model.skipped === skippedKey) {
    model.commit = input.commit;
    model.edits = edits.ids;
    return answer(input, model.output, 0);
  }

  const changed = [...changes].filter((change): change is [string, string] => change[1] !== null);
  const fromGit = changed.filter(([, id]) => !edits.texts.has(id));
  const texts = new Map<string, string>(edits.texts);
  const read = await readBlobs(input.gitdir, fromGit.map(([, id]) => id));
  fromGit.forEach(([, id], i) => texts.set(id, read[i]!));

  let result: CompileVerdict;
  reading.marker = input.marker ?? null;
  reading.ids = new Map(changed);
  try {
    result = model.compiler.check([...changes].map(([path, id]) => ({ path, content: id === null ? null : texts.get(id)! })));
  } catch (error) {
    // A compiler that failed half-way is not trusted again: the next request starts afresh.
    branches.delete(input.key);
    throw error;
  } finally {
    reading.marker = null;
    reading.ids = new Map();
  }
  for (const [path, id] of changes) {
    const length = id === null ? 0 : texts.get(id)!.length;
    model.bytes += length - (held.get(path)?.length ?? 0);
    if (id === null) held.delete(path);
    else held.set(path, { id, length });
  }
  const verdict = verdictOf(result, held.size + skipped.length, skipped);
  // The verdict's JSON without its opening brace: the answer puts the branch and commit first.
  model.output = { verdict, json: JSON.stringify(verdict).slice(1) };
  model.skipped = skippedKey;
  model.commit = input.commit;
  model.edits = edits.ids;
  branches.set(input.key, model);
  return answer(input, model.output, changes.size);
}

/**
 * A page of `GET …/data-model/files?content=true` (see filePageWithin): its files are read, and its
 * JSON made, here; the bytes move to the HTTP thread, which sends them as they are.
 */
export async function filePage(input: { gitdir: string; entries: PageEntry[]; budget: number }): Promise<FilePage> {
  const repo = GitRepository.at(input.gitdir);
  const page = await filePageWithin(input.entries, input.budget, (oid) => repo.readBlob(oid));
  return movedWith(page, page.items.buffer);
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

/** What this shard keeps, and the heap limits it runs with (for tests and benchmarks). */
export function stats(): { branches: string[]; sourceBytes: number; resourceLimits: ResourceLimits } {
  return { branches: [...branches.keys()], sourceBytes: branches.calculatedSize, resourceLimits };
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
