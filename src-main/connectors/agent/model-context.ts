import type { CompiledModel, MemberBase } from '../../../src-shared/model';
import type { AgentEntity, AgentMember, AgentMemberKind, AgentModelContext } from './types';

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function member(kind: AgentMemberKind, m: MemberBase & { type?: string }): AgentMember {
  return {
    name: m.name,
    kind,
    ...(m.type ? { type: m.type } : {}),
    ...(m.title ? { title: m.title } : {}),
    ...(m.description ? { description: m.description } : {}),
  };
}

/** The public cubes and views of a compiled model, as the agent sees them (sorted by name). */
export function modelContextFrom(
  compiled: CompiledModel,
  where: { deploymentId: number; branch: string; commit: string | null },
): AgentModelContext {
  const cubes: AgentEntity[] = Object.values(compiled.cubes)
    .filter((cube) => cube.public)
    .map((cube) => ({
      kind: 'cube' as const,
      name: cube.name,
      ...(cube.title ? { title: cube.title } : {}),
      ...(cube.description ? { description: cube.description } : {}),
      members: [
        ...Object.values(cube.dimensions).filter((d) => d.public).map((d) => member('dimension', d)),
        ...Object.values(cube.measures).filter((m) => m.public).map((m) => member('measure', m)),
        ...Object.values(cube.segments).filter((s) => s.public).map((s) => member('segment', s)),
      ],
    }))
    .sort(byName);
  const views: AgentEntity[] = Object.values(compiled.views)
    .filter((view) => view.public)
    .map((view) => ({
      kind: 'view' as const,
      name: view.name,
      ...(view.title ? { title: view.title } : {}),
      ...(view.description ? { description: view.description } : {}),
      members: Object.values(view.members)
        .filter((m): m is typeof m & { kind: AgentMemberKind } => m.kind !== 'hierarchy')
        .map((m) => ({
          name: m.name,
          kind: m.kind,
          ...(m.type ? { type: m.type } : {}),
          ...(m.title ? { title: m.title } : {}),
          ...(m.description ? { description: m.description } : {}),
        })),
    }))
    .sort(byName);
  return { ...where, cubes, views };
}

/**
 * A compact text rendering of the model for an LLM's system prompt, cut at `maxChars` (views
 * first: they are what users query).
 */
export function describeModel(context: AgentModelContext, maxChars = 24_000): string {
  const lines: string[] = [];
  for (const entity of [...context.views, ...context.cubes]) {
    const about = [entity.title, entity.description].filter(Boolean).join(' — ');
    lines.push(`${entity.kind} ${entity.name}${about ? `: ${about}` : ''}`);
    for (const m of entity.members) {
      const info = [m.type, m.description].filter(Boolean).join(', ');
      lines.push(`  - ${m.kind} ${m.name}${info ? ` (${info})` : ''}`);
    }
  }
  let text = '';
  for (const line of lines) {
    if (text.length + line.length + 1 > maxChars) {
      text += '… (model description truncated)\n';
      break;
    }
    text += `${line}\n`;
  }
  return text;
}
