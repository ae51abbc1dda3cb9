// Worker-thread side of builds: read the commit's model files from git, compile them, and write
// the snapshot of a successful build. Runs on a compute thread (workers/compute-worker.ts).
import { compileModel, type CompiledModel, type Diagnostic } from '../../../src-shared/model';
import { modelFilesOfCommit } from '../../workers/model-source';
import { readSnapshot, writeSnapshot } from './snapshot';

export interface BuildCommitInput {
  gitdir: string;
  commit: string;
  /** Where the snapshot of a successful build goes. */
  snapshotFile: string;
}

export type BuildCommitOutput =
  | { readable: false; message: string }
  | { readable: true; valid: boolean; diagnostics: Diagnostic[]; errorCount: number; warningCount: number; viewCount: number };

export async function buildCommit(input: BuildCommitInput): Promise<BuildCommitOutput> {
  let files;
  try {
    files = await modelFilesOfCommit(input.gitdir, input.commit);
  } catch (error) {
    return { readable: false, message: (error as Error).message };
  }
  const compiled = compileModel(files);
  if (compiled.valid) writeSnapshot(input.snapshotFile, { files, model: compiled.model });
  return {
    readable: true,
    valid: compiled.valid,
    diagnostics: compiled.diagnostics,
    errorCount: compiled.diagnostics.filter((d) => d.severity === 'error').length,
    warningCount: compiled.diagnostics.filter((d) => d.severity === 'warning').length,
    viewCount: Object.keys(compiled.model.views).length,
  };
}

/** The compiled model of a snapshot, parsed once per thread while it is recently used. */
const models = new Map<string, CompiledModel>();
const KEEP_MODELS = 4;

export function snapshotModel(file: string): CompiledModel {
  let model = models.get(file);
  if (model) {
    models.delete(file);
  } else {
    model = readSnapshot(file).model;
    if (models.size >= KEEP_MODELS) models.delete(models.keys().next().value as string);
  }
  models.set(file, model);
  return model;
}
