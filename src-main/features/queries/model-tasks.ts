// The compile behind a data API query's model, on a compute thread: reading a branch's model files
// from git and compiling them takes hundreds of milliseconds for a big model, which the HTTP thread
// must not spend (a cold branch used to be compiled there on its first query).
import { compileModel, isModelSourcePath, type CompiledModel, type ModelFile } from '../../../src-shared/model';
import { modelTreeOf, readBlobs } from '../../workers/model-source';

export interface QueryModelInput {
  gitdir: string;
  commit: string;
  /** Uncommitted edits laid over the commit: path → text, or null for a deleted file. */
  edits: [string, string | null][];
}

export type QueryModelOutput = { valid: true; model: CompiledModel } | { valid: false; errorCount: number; firstErrors: string };

/** The model files of `commit` with `edits` applied (model sources only, sorted by path), compiled. */
export async function compileQueryModel(input: QueryModelInput): Promise<QueryModelOutput> {
  const tree = await modelTreeOf(input.gitdir, input.commit);
  const files = new Map<string, { oid: string } | { content: string }>([...tree].map(([path, oid]) => [path, { oid }]));
  for (const [path, content] of input.edits) {
    if (!isModelSourcePath(path)) continue;
    if (content === null) files.delete(path);
    else files.set(path, { content });
  }
  const paths = [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const fromGit = paths.filter((path) => 'oid' in files.get(path)!);
  const texts = await readBlobs(
    input.gitdir,
    fromGit.map((path) => (files.get(path) as { oid: string }).oid),
  );
  const read = new Map(fromGit.map((path, i) => [path, texts[i]!]));
  const modelFiles: ModelFile[] = paths.map((path) => {
    const file = files.get(path)!;
    return { path, content: 'content' in file ? file.content : read.get(path)! };
  });
  const result = compileModel(modelFiles);
  if (result.valid) return { valid: true, model: result.model };
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  return {
    valid: false,
    errorCount: errors.length,
    firstErrors: errors
      .slice(0, 3)
      .map((d) => `${d.file}:${d.line}: ${d.message}`)
      .join('; '),
  };
}
