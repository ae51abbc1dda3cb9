// Compute-thread side of transform syncs: check the dbt manifest, generate the cube files named
// clear of the rest of the branch, check they compile beside it, and find files an earlier sync
// generated for models that are gone.
import { compileModel } from '../../../src-shared/model';
import { modelFilesOfCommit } from '../../workers/model-source';
import { checkManifest, GENERATED_HEADER, generateCubes, ManifestError, type GenerationStats } from './dbt';

const isUnder = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

export type TransformGeneration =
  | { manifestProblem: string }
  | {
      files: { path: string; content: string; cube: string; model: string }[];
      stats: GenerationStats;
      /** The generator's warnings, then compile errors of the generated files beside the branch. */
      warnings: string[];
      /** Paths under the output folder an earlier sync generated that this one does not. */
      removed: string[];
    };

export async function transformGenerate(input: { gitdir: string; commit: string; manifest: unknown; outputPath: string }): Promise<TransformGeneration> {
  const { manifest, outputPath } = input;
  try {
    checkManifest(manifest);
  } catch (error) {
    if (error instanceof ManifestError) return { manifestProblem: error.message };
    throw error;
  }
  const existing = await modelFilesOfCommit(input.gitdir, input.commit);
  const others = existing.filter((f) => !isUnder(f.path, outputPath));
  const compiled = compileModel(others).model;
  const generated = generateCubes(manifest, { outputPath, reservedNames: [...Object.keys(compiled.cubes), ...Object.keys(compiled.views)] });
  const warnings = [...generated.warnings];
  // The generated cubes must compile beside the rest of the branch.
  const check = compileModel([...others, ...generated.files.map((f) => ({ path: f.path, content: f.content }))]);
  const generatedPaths = new Set(generated.files.map((f) => f.path));
  for (const d of check.diagnostics) {
    if (d.severity === 'error' && generatedPaths.has(d.file)) warnings.push(`${d.file}:${d.line}: ${d.message}`);
  }
  const removed = existing
    .filter((f) => isUnder(f.path, outputPath) && !generatedPaths.has(f.path) && f.content.startsWith(GENERATED_HEADER))
    .map((f) => f.path);
  return {
    files: generated.files.map((f) => ({ path: f.path, content: f.content, cube: f.cube, model: f.model })),
    stats: generated.stats,
    warnings,
    removed,
  };
}
