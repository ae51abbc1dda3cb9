import { LakehouseError } from './types';

/** Quotes one identifier for Databricks SQL: backticks, with embedded backticks doubled. */
export function quoteIdentifier(name: string): string {
  if (name.length === 0) throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', 'An identifier cannot be empty.');
  return '`' + name.replaceAll('`', '``') + '`';
}

/** `catalog`.`schema`.`name`, each part quoted. */
export function quoteQualifiedName(...parts: string[]): string {
  return parts.map(quoteIdentifier).join('.');
}

/**
 * A Databricks string literal. Literals process backslash escapes, so backslashes and
 * single quotes are both escaped with a backslash.
 */
export function sqlStringLiteral(value: string): string {
  return "'" + value.replaceAll('\\', '\\\\').replaceAll("'", "\\'") + "'";
}

/**
 * Splits a dotted name (`catalog.schema.table`, parts optionally in backticks with `` `` ``
 * for a literal backtick) into its unquoted parts. Throws on empty parts or unbalanced quotes.
 */
export function parseQualifiedName(text: string): string[] {
  const parts: string[] = [];
  let index = 0;
  const input = text.trim();
  if (input.length === 0) throw invalidName(text, 'it is empty');
  while (index <= input.length) {
    let part = '';
    if (input[index] === '`') {
      index += 1;
      let closed = false;
      while (index < input.length) {
        const ch = input[index];
        if (ch === '`') {
          if (input[index + 1] === '`') {
            part += '`';
            index += 2;
            continue;
          }
          index += 1;
          closed = true;
          break;
        }
        part += ch;
        index += 1;
      }
      if (!closed) throw invalidName(text, 'a backtick is not closed');
    } else {
      while (index < input.length && input[index] !== '.') {
        const ch = input[index];
        if (ch === '`') throw invalidName(text, 'a backtick appears inside an unquoted part');
        part += ch;
        index += 1;
      }
      part = part.trim();
    }
    if (part.length === 0) throw invalidName(text, 'it has an empty part');
    parts.push(part);
    if (index >= input.length) break;
    if (input[index] !== '.') throw invalidName(text, `unexpected "${input[index]}" after a quoted part`);
    index += 1;
    if (index >= input.length) throw invalidName(text, 'it ends with a dot');
  }
  return parts;
}

function invalidName(text: string, why: string): LakehouseError {
  return new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `"${text}" is not a valid object name: ${why}.`);
}

/** Parses a source that must name a table: `catalog.schema.table` exactly. */
export function parseThreePartName(text: string): [string, string, string] {
  const parts = parseQualifiedName(text);
  if (parts.length !== 3) {
    throw new LakehouseError(
      'LAKEHOUSE_INVALID_DEFINITION',
      `"${text}" must be a three-part name catalog.schema.table (it has ${parts.length} part${parts.length === 1 ? '' : 's'}).`,
    );
  }
  return [parts[0], parts[1], parts[2]];
}
