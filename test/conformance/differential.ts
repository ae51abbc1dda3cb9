// One case of the differential suite: the same files compiled by the platform's compiler and by
// Drydock's, and how their results differ — the verdict (valid or not), the entity the errors
// name, or the compiled members of a valid model.
import type { ModelFile } from '../../src-shared/model/types';
import { diffShapes } from './shape';
import { drydockVerdict, platformVerdict, type Verdict } from './verdicts';

export type Disagreement =
  | { kind: 'verdict'; detail: string }
  | { kind: 'entity'; detail: string }
  | { kind: 'shape'; detail: string };

export interface Outcome {
  platform: Verdict;
  drydock: Verdict;
  disagreements: Disagreement[];
}

const summary = (v: Verdict): string => (v.valid ? 'valid' : `invalid (${v.messages.slice(0, 3).join(' | ').slice(0, 500)})`);

export async function compareBoth(files: ModelFile[]): Promise<Outcome> {
  const platform = await platformVerdict(files);
  const drydock = drydockVerdict(files);
  const disagreements: Disagreement[] = [];
  if (platform.valid !== drydock.valid) {
    disagreements.push({ kind: 'verdict', detail: `platform ${summary(platform)}; drydock ${summary(drydock)}` });
  } else if (!platform.valid) {
    // Both refuse: the entity the platform's first error names (later ones are often its
    // consequences, such as a cube that failed to compile missing from a join) must be among
    // those Drydock's errors name.
    const named = [...platform.firstEntities];
    if (named.length > 0 && drydock.entities.size > 0 && !named.some((e) => drydock.entities.has(e))) {
      disagreements.push({ kind: 'entity', detail: `platform names ${named.join(', ')}; drydock names ${[...drydock.entities].join(', ')}` });
    }
  } else if (platform.shape && drydock.shape) {
    for (const line of diffShapes(platform.shape, drydock.shape)) disagreements.push({ kind: 'shape', detail: line });
  }
  return { platform, drydock, disagreements };
}
