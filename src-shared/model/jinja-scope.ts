// Which definitions of a templated YAML file the Jinja actually touches. A file with Jinja in one
// cube must not make every other cube of the same file "templated" (and so unpushable and
// unpublishable): a definition is templated only when
//   - one of its values is Jinja (an opaque node the reader made from a `{{ }}`), or
//   - a Jinja region (`{{ }}`, `{% %}`, `{# #}`) lies within the lines the definition spans, or
//   - it sits inside a block opened outside it (`{% for %}…{% endfor %}` around definitions,
//     `{% if %}` around one), whose rendering decides whether and how often it exists.

import { lineStartsOf } from './frame';
import type { RawEntity, RawNode } from './types';

export interface JinjaRegion {
  start: number;
  end: number;
}

/** Tags that open a block closed by a matching `{% end… %}`. `set` opens one only in its block form. */
const BLOCK_OPENERS = new Set(['for', 'if', 'macro', 'call', 'filter', 'block', 'with', 'raw', 'autoescape', 'trans']);

function tagKeyword(content: string, region: JinjaRegion): string | null {
  if (content[region.start + 1] !== '%') return null;
  const body = content.slice(region.start + 2, region.end - 2).replace(/^[-+]/, '').trim();
  return /^[a-z_]+/.exec(body)?.[0] ?? null;
}

/** Block depth change of one region: +1 for an opening tag, -1 for an `end…` tag, else 0. */
function depthChange(content: string, region: JinjaRegion): number {
  const keyword = tagKeyword(content, region);
  if (keyword === null) return 0;
  if (keyword.startsWith('end')) return -1;
  if (BLOCK_OPENERS.has(keyword)) return 1;
  // `{% set x %}…{% endset %}` is a block; `{% set x = 1 %}` is not.
  if (keyword === 'set' && !content.slice(region.start, region.end).includes('=')) return 1;
  return 0;
}

function lastLineOf(node: RawNode): number {
  let last = node.line;
  if (node.kind === 'map') for (const entry of node.entries) last = Math.max(last, entry.line, lastLineOf(entry.value));
  else if (node.kind === 'seq') for (const item of node.items) last = Math.max(last, lastLineOf(item));
  return last;
}

function hasJinjaValue(node: RawNode): boolean {
  if (node.kind === 'opaque') return node.reason === 'jinja';
  if (node.kind === 'map') return node.entries.some((entry) => hasJinjaValue(entry.value));
  if (node.kind === 'seq') return node.items.some(hasJinjaValue);
  return false;
}

/** Sets `templated` on each entity of a templated YAML file by the rules above. */
export function markTemplatedEntities(entities: RawEntity[], content: string, regions: readonly JinjaRegion[]): void {
  if (entities.length === 0) return;
  const lineStarts = lineStartsOf(content);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const spans = regions.map((region) => ({ first: lineOf(region.start), last: lineOf(Math.max(region.start, region.end - 1)), change: depthChange(content, region) }));
  for (const entity of entities) {
    const first = entity.def.line;
    const last = lastLineOf(entity.def);
    // Depth of the blocks open where the definition starts (regions that ended on earlier lines).
    let depth = 0;
    let touched = false;
    for (const span of spans) {
      if (span.last < first) depth = Math.max(0, depth + span.change);
      else if (span.first <= last) touched = true;
    }
    entity.templated = depth > 0 || touched || hasJinjaValue(entity.def);
  }
}
