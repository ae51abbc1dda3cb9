// The two compilers' verdicts on one model, in one shape: valid or not, and which entities
// (cubes, views) and members the errors name. The platform names them in its messages
// (`orders cube: "dimensions.status" …`, `(measures.total.type = x)`); Drydock in each
// diagnostic's `member` (`orders.status`).
import { compileModel } from '../../src-shared/model/compiler';
import type { ModelFile } from '../../src-shared/model/types';
import { platformCompile } from './platform-compiler';
import { drydockShape, platformShape, type ModelShape } from './shape';

export interface Verdict {
  valid: boolean;
  /** Entities the errors name (empty when an error names none). */
  entities: Set<string>;
  /** Entities the first error names: later platform errors are often consequences of it. */
  firstEntities: Set<string>;
  messages: string[];
  /** Compiled members, when valid. */
  shape: ModelShape | null;
}

export async function platformVerdict(files: ModelFile[]): Promise<Verdict> {
  const result = await platformCompile(files.map((f) => ({ fileName: f.path, content: f.content })));
  const entities = new Set<string>();
  const firstEntities = new Set<string>();
  for (const [index, message] of result.errors.entries()) {
    const before = new Set(entities);
    for (const match of message.matchAll(/(?:^|-> )([A-Za-z_][\w-]*) (?:cube|view|view group):/gm)) entities.add(match[1]!);
    for (const match of message.matchAll(/(?:duplicate (?:cube|view) name|in (?:cube|view)) '([^']+)'/g)) entities.add(match[1]!);
    if (index === 0) for (const e of entities) if (!before.has(e)) firstEntities.add(e);
  }
  return { valid: result.valid, entities, firstEntities, messages: result.errors, shape: result.valid ? platformShape(result.cubes as Parameters<typeof platformShape>[0]) : null };
}

export function drydockVerdict(files: ModelFile[]): Verdict {
  const result = compileModel(files);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const entities = new Set<string>();
  for (const d of errors) if (d.member) entities.add(d.member.split('.')[0]!);
  return { valid: errors.length === 0, entities, firstEntities: entities, messages: errors.map((d) => `${d.code} ${d.member ?? ''}: ${d.message}`), shape: errors.length === 0 ? drydockShape(result.model) : null };
}
