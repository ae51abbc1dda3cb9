// Worker-thread side of a change review (issue 26): reading both commits from git, compiling them,
// the semantic diff, the impact and the data diff's planned queries; and, once the queries ran, the
// row-by-row comparison. Runs on a compute thread (workers/compute-worker.ts), never on the HTTP one.
import { compileModel, type ModelFile } from '../../../src-shared/model';
import type { DialectName, QuerySecurity } from '../../../src-shared/model/query';
import { compareRows, prepareReview, type DataDiffLimits, type PreparedReview, type ReviewFacts, type RowsDiff, type SideRows, type Tolerance } from '../../../src-shared/model/review';
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

export type PrepareReviewOutput = { readable: true; review: PreparedReview } | { readable: false; side: 'base' | 'head'; message: string };

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
  return { readable: true, review };
}

export interface CompareReviewInput {
  pairs: { base: SideRows; head: SideRows }[];
  tolerance: Tolerance;
  samples: number;
}

export function compareReviewRows(input: CompareReviewInput): RowsDiff[] {
  return input.pairs.map((pair) => compareRows(pair.base, pair.head, { tolerance: input.tolerance, samples: input.samples }));
}
