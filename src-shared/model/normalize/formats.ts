// The `format` of a member, by the platform validator's rules: measures take percent, currency,
// number, a named numeric format (`percent_2`, `abbr`, …) or a d3 numeric format (`,.2f`); number
// dimensions those plus the generic formats; time dimensions the generic formats or a strftime
// pattern (`%Y-%m`); other dimensions the generic formats (imageUrl, link, currency, percent,
// number, id, or `{ type: link, label }`).
import type { PlainValue } from '../types';

const GENERIC = new Set(['imageUrl', 'link', 'currency', 'percent', 'number', 'id']);
const NAMED_NUMERIC = /^(?:(?:number|percent|currency|decimal|abbr|accounting)_[0-6]|decimal|abbr|id|accounting)$/;
const NUMERIC_TYPES = new Set(['e', 'f', 'g', 'r', 's', '%', 'p', 'b', 'o', 'd', 'x', 'c', 'n']);
const D3_NUMERIC = /^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(?:\.(\d+))?(~)?([a-zA-Z%])?$/;
const TIME_SPECIFIERS = new Set('aAbBcdHIjmMnpStUwWxXyYZ%efgGLqQsuV'.split(''));

function isD3Numeric(text: string): boolean {
  const match = D3_NUMERIC.exec(text);
  if (!match) return false;
  const [, fill, align, sign, symbol, zero, width, comma, precision, tilde, type] = match;
  if (fill && !align) return false;
  if (type && !NUMERIC_TYPES.has(type.toLowerCase())) return false;
  return Boolean(sign || symbol || zero || width || comma || precision !== undefined || tilde || type);
}

function isTimePattern(text: string): boolean {
  let specifier = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '%') continue;
    const next = text[i + 1];
    if (next === undefined || !TIME_SPECIFIERS.has(next)) return false;
    if (next !== '%') specifier = true;
    i++;
  }
  return specifier;
}

const isLink = (value: PlainValue): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).every((k) => k === 'type' || k === 'label') && (value.type === undefined || value.type === 'link') && typeof value.label === 'string';

/** Null when `format` is allowed for a member of this kind and type; otherwise what is expected. */
export function formatProblem(kind: 'measure' | 'dimension', type: string | undefined, format: PlainValue): string | null {
  if (format === undefined) return null;
  if (kind === 'measure') {
    if (typeof format === 'string' && (['percent', 'currency', 'number'].includes(format) || NAMED_NUMERIC.test(format) || isD3Numeric(format))) return null;
    return 'percent, currency, number, a named numeric format such as percent_2 or abbr, or a d3 numeric format such as ",.2f"';
  }
  if (typeof format === 'string' && GENERIC.has(format)) return null;
  if (isLink(format)) return null;
  if (type === 'number') {
    if (typeof format === 'string' && (NAMED_NUMERIC.test(format) || isD3Numeric(format))) return null;
    return 'imageUrl, link, currency, percent, number, id, { type: link, label }, a named numeric format or a d3 numeric format';
  }
  if (type === 'time') {
    if (typeof format === 'string' && isTimePattern(format)) return null;
    return 'imageUrl, link, currency, percent, number, id, { type: link, label } or a time pattern such as "%Y-%m-%d"';
  }
  return 'imageUrl, link, currency, percent, number, id or { type: link, label }';
}
