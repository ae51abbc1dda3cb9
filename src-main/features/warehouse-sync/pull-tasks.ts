// Compute-thread side of warehouse pulls: model files for the pulled semantic views, named clear
// of the cubes and views the branch already defines outside the output folder.
import { compileModel } from '../../../src-shared/model';
import { modelFilesFromSemanticViews, type GeneratedModelFile, type PulledSemanticView } from '../../../src-shared/model/generate/model-from-semantic-view';
import { modelFilesOfCommit } from '../../workers/model-source';

export async function pulledModelFiles(input: {
  gitdir: string;
  /** The branch head the files go on top of. */
  commit: string;
  outputPath: string;
  pulled: PulledSemanticView[];
  quotedIdentifiersIgnoreCase: boolean;
  dataSource: string;
}): Promise<GeneratedModelFile[]> {
  const existing = await modelFilesOfCommit(input.gitdir, input.commit);
  const others = existing.filter((f) => !(f.path === input.outputPath || f.path.startsWith(`${input.outputPath}/`)));
  const compiled = compileModel(others).model;
  return modelFilesFromSemanticViews(input.pulled, {
    outputPath: input.outputPath,
    reservedNames: [...Object.keys(compiled.cubes), ...Object.keys(compiled.views)],
    quotedIdentifiersIgnoreCase: input.quotedIdentifiersIgnoreCase,
    dataSource: input.dataSource,
  });
}
