// Worker-thread side of a change review (issue 26): reading both commits from git, compiling them,
// the semantic diff, the impact and the data diff's planned queries; and, once the queries ran, the
// row-by-row comparison. Runs on a compute thread (workers/compute-worker.ts), never on the HTTP one.
import { compileModel, type ModelFile } from '../../../src-shared/model';
import type { DialectName, QuerySecurity } from '../../../src-shared/model/query';
import {
  batchStatements,
  compareRows,
  pickRows,
  prepareReview,
  type DataDiffLimits,
  type PlannedSide,
  type PreparedReview,
  type ReviewFacts,
  type RowsDiff,
  type SidePick,
  type SideRows,
  type StatementBatch,
  type Tolerance,
} from '../../../src-shared/model/review';
import { modelFilesOfCommit } from '../../workers/model-source';

export interface PrepareReviewInput {
  gitdir: string;
  baseCommit: string;
  headCommit: string;
  facts: ReviewFacts;
  security: QuerySecurity | null;
  /** ISO time queries' relative date ranges resolve against (the same on both sides). */
  now: string;
  dialects: Record<string, DialectName>;
  limits: DataDiffLimits;
  dataDiff: boolean;
}

export type PrepareReviewOutput = { readable: true; review: PreparedReview; batch: StatementBatch } | { readable: false; side: 'base' | 'head'; message: string };

type PlannedOk = Extract<PlannedSide, { ok: true }>;

/** The sides the data diff runs: both sides of each query that planned on both and differ. */
export function runnableSides(review: PreparedReview): PlannedOk[] {
  return review.queries.filter((q) => q.base.ok && q.head.ok && !q.sameSql).flatMap((q) => [q.base, q.head] as PlannedOk[]);
}

export async function prepareModelReview(input: PrepareReviewInput): Promise<PrepareReviewOutput> {
  const read = async (side: 'base' | 'head', commit: string): Promise<{ files: ModelFile[] } | { side: 'base' | 'head'; message: string }> => {
    try {
      return { files: await modelFilesOfCommit(input.gitdir, commit) };
    } catch (error) {
      return { side, message: (error as Error).message };
    }
  };
  const [base, head] = await Promise.all([read('base', input.baseCommit), read('head', input.headCommit)]);
  if (!('files' in base)) return { readable: false, ...base };
  if (!('files' in head)) return { readable: false, ...head };
  const review = prepareReview(compileModel(base.files), compileModel(head.files), input.facts, {
    security: input.security,
    now: new Date(input.now),
    dialects: input.dialects,
    limits: input.limits,
    dataDiff: input.dataDiff,
  });
  return { readable: true, review, batch: batchStatements(runnableSides(review)) };
}

/** One side's rows: a statement's rows (by index into `results`) and where the side's are in them. */
export interface SideSource {
  columns: SideRows['columns'];
  result: number;
  pick: SidePick;
}

export interface CompareReviewInput {
  /** Rows of each statement that ran. */
  results: unknown[][][];
  pairs: { base: SideSource; head: SideSource }[];
  tolerance: Tolerance;
  samples: number;
}

export function compareReviewRows(input: CompareReviewInput): RowsDiff[] {
  const rowsOf = (side: SideSource): SideRows => ({ columns: side.columns, rows: pickRows(input.results[side.result]!, side.pick) });
  return input.pairs.map((pair) => compareRows(rowsOf(pair.base), rowsOf(pair.head), { tolerance: input.tolerance, samples: input.samples }));
}
