import type { AgentConnector, AgentEntity, AgentMember, AgentReference, AgentReply, AgentRequest } from './types';
import { AgentError, AgentErrorCodes } from './types';

/**
 * A local, deterministic stand-in for the deployment's agent. It cannot reason, so it does what a
 * careful analyst would do first: find the views and cubes of the model that the prompt is about
 * (by the words of their names, titles and descriptions and of their members) and list what they
 * offer. Same prompt and model, same answer.
 */
export class LocalAgentEmulator implements AgentConnector {
  readonly name = 'local-emulator';

  constructor(private readonly options: { maxEntities?: number; maxMembers?: number } = {}) {}

  async ask(request: AgentRequest): Promise<AgentReply> {
    if (request.signal?.aborted) throw new AgentError(AgentErrorCodes.AGENT_CANCELLED, 'The request was cancelled.');
    const content = answer(request, this.options.maxEntities ?? 5, this.options.maxMembers ?? 12);
    return { content: content.text, agent: this.name, references: content.references, usage: null };
  }
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from give how i in is it me my of on or our please show tell ' +
    'that the their them this to us was we what when where which who why with you your per each every all ' +
    'about into over than then there these those get list report summary summarize summarise today yesterday week weekly daily monthly'
  ).split(' '),
);

/** Lower-case words of a text or identifier: `orderStatus` and `order_status` both give `order`, `status`. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map(stem);
}

/** Crude plural folding, enough for `orders`/`order`, `categories`/`category` (leaving `status`, `analysis`). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

interface Scored {
  entity: AgentEntity;
  score: number;
  members: AgentMember[];
}

function score(entity: AgentEntity, wanted: Set<string>): Scored {
  const hits = (text: string | undefined) => (text ? wordsOf(text).filter((w) => wanted.has(w)).length : 0);
  let total = 3 * hits(entity.name) + hits(entity.title) + hits(entity.description);
  const members: AgentMember[] = [];
  for (const m of entity.members) {
    const h = 2 * hits(m.name) + hits(m.title) + hits(m.description);
    if (h > 0) members.push(m);
    total += h;
  }
  return { entity, score: total, members };
}

const code = (name: string) => `\`${name}\``;

function describeMembers(members: AgentMember[], max: number): string {
  const parts: string[] = [];
  for (const kind of ['measure', 'dimension', 'segment'] as const) {
    const ofKind = members.filter((m) => m.kind === kind);
    if (ofKind.length === 0) continue;
    const shown = ofKind.slice(0, max).map((m) => (m.type ? `${code(m.name)} (${m.type})` : code(m.name)));
    const more = ofKind.length > max ? ` and ${ofKind.length - max} more` : '';
    parts.push(`${kind}s ${shown.join(', ')}${more}`);
  }
  return parts.join('; ');
}

function answer(request: AgentRequest, maxEntities: number, maxMembers: number): { text: string; references: AgentReference[] } {
  const { model, prompt } = request;
  const entities = [...model.views, ...model.cubes];
  const header = `Question: ${prompt.trim()}\n\n`;
  if (entities.length === 0) {
    return {
      text: `${header}The data model of this deployment (branch ${model.branch}) has no public views or cubes yet, so there is nothing to answer from.`,
      references: [],
    };
  }
  const wanted = new Set(wordsOf(prompt));
  const ranked = entities
    .map((entity) => score(entity, wanted))
    .filter((s) => s.score > 0)
    // Views first at equal score: they are what users query; then by name for a stable order.
    .sort((a, b) => b.score - a.score || (a.entity.kind === b.entity.kind ? 0 : a.entity.kind === 'view' ? -1 : 1) || (a.entity.name < b.entity.name ? -1 : 1))
    .slice(0, maxEntities);

  if (ranked.length === 0) {
    const overview = model.views.length > 0 ? model.views : model.cubes;
    const names = overview.slice(0, maxMembers).map((e) => code(e.name)).join(', ');
    return {
      text:
        `${header}Nothing in the data model matches the words of this question. ` +
        `The model offers ${model.views.length} view${model.views.length === 1 ? '' : 's'} and ${model.cubes.length} cube${model.cubes.length === 1 ? '' : 's'}` +
        `${names ? `, e.g. ${names}` : ''}. Rephrase the prompt with the names of measures or dimensions to get a focused answer.`,
      references: [],
    };
  }

  const lines = [`${header}Relevant in the data model (branch ${model.branch}):`, ''];
  const references: AgentReference[] = [];
  for (const { entity, members } of ranked) {
    const about = entity.title && entity.title !== entity.name ? ` "${entity.title}"` : '';
    const description = entity.description ? ` — ${entity.description}` : '';
    // Members the prompt names, else everything the entity offers.
    const shown = members.length > 0 ? members : entity.members;
    const offer = describeMembers(shown, maxMembers);
    lines.push(`- ${entity.kind === 'view' ? 'View' : 'Cube'} ${code(entity.name)}${about}${description}${offer ? `: ${offer}` : ''}`);
    references.push({ kind: entity.kind, name: entity.name, members: shown.map((m) => m.name) });
  }
  const first = ranked[0];
  const measure = (first.members.length > 0 ? first.members : first.entity.members).find((m) => m.kind === 'measure');
  const dimension = (first.members.length > 0 ? first.members : first.entity.members).find((m) => m.kind === 'dimension');
  if (measure) {
    lines.push(
      '',
      `To answer it, query ${code(`${first.entity.name}.${measure.name}`)}${dimension ? ` by ${code(`${first.entity.name}.${dimension.name}`)}` : ''}.`,
    );
  }
  return { text: lines.join('\n'), references };
}
