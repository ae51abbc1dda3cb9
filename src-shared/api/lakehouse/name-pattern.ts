// The grammar of the `pattern` scope's name pattern, checked where settings are saved and previews start.
import { MAX_NAME_PATTERN_LENGTH } from './limits';

export type NamePatternCheck = { ok: true; regex: RegExp } | { ok: false; message: string };

const LITERAL = /^[A-Za-z0-9_-]$/;

/**
 * The scope pattern grammar: literals (letters, digits, `_`, `-`), `^` first, `$` last, a bare `.`
 * matching one character and at most one `.*`, at most 128 characters. Without `^`/`$` the pattern
 * may match anywhere in the view name. Anything else is refused with the reason.
 */
export function checkNamePattern(pattern: string): NamePatternCheck {
  if (pattern.length === 0) return { ok: false, message: 'The name pattern is empty.' };
  if (pattern.length > MAX_NAME_PATTERN_LENGTH) {
    return { ok: false, message: `The name pattern has ${pattern.length} characters; at most ${MAX_NAME_PATTERN_LENGTH} are allowed.` };
  }
  let source = '';
  let wildcards = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    const at = `at position ${i + 1}`;
    if (ch === '^') {
      if (i !== 0) return { ok: false, message: `"^" ${at} is only allowed as the first character.` };
      source += '^';
    } else if (ch === '$') {
      if (i !== pattern.length - 1) return { ok: false, message: `"$" ${at} is only allowed as the last character.` };
      source += '$';
    } else if (ch === '.') {
      if (pattern[i + 1] === '*') {
        wildcards++;
        if (wildcards > 1) return { ok: false, message: `A second ".*" ${at}: at most one ".*" is allowed.` };
        source += '.*';
        i++;
      } else {
        source += '.';
      }
    } else if (ch === '*') {
      return { ok: false, message: `"*" ${at} is only allowed right after "." (as ".*").` };
    } else if (LITERAL.test(ch)) {
      source += ch;
    } else {
      return {
        ok: false,
        message: `"${ch}" ${at} is not allowed: a pattern has literals (letters, digits, "_", "-"), "^", "$", "." and at most one ".*".`,
      };
    }
  }
  return { ok: true, regex: new RegExp(source) };
}
