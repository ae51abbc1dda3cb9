/**
 * The token cursor every parser module of the warehouse emulator reads through: look-ahead,
 * accepting and expecting words and punctuation, identifiers (reserved words refused, lengths
 * checked), qualified names, string literals, parenthesised lists and the small clauses several
 * statements share (IF NOT EXISTS, COMMENT = '...', WITH SYNONYMS (...)). A failed expectation
 * throws Snowflake's syntax error naming the offending token's position.
 */
import { MAX_IDENTIFIER_LENGTH, RESERVED_KEYWORDS } from '../../identifiers';
import { compilationError, syntaxErrorAt, type SourcePosition } from '../errors';
import type { Identifier, QualifiedName } from './ast';
import type { Token } from './tokens';

export class SqlCursor {
  private index = 0;

  constructor(
    /** The whole text being parsed (statement texts are sliced from it). */
    readonly sql: string,
    private readonly tokens: Token[],
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  previous(): Token {
    return this.tokens[Math.max(0, this.index - 1)];
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index += 1;
    return token;
  }

  fail(token: Token = this.peek()): never {
    throw syntaxErrorAt(token, token.kind === 'eof' ? '<EOF>' : token.text);
  }

  isWord(token: Token, word: string): boolean {
    return token.kind === 'word' && token.value === word;
  }

  atWord(...words: string[]): boolean {
    return words.every((word, offset) => this.isWord(this.peek(offset), word));
  }

  acceptWord(...words: string[]): boolean {
    if (!this.atWord(...words)) return false;
    this.index += words.length;
    return true;
  }

  expectWord(word: string): Token {
    if (!this.isWord(this.peek(), word)) this.fail();
    return this.next();
  }

  atPunct(punct: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'punct' && token.value === punct;
  }

  acceptPunct(punct: string): boolean {
    if (!this.atPunct(punct)) return false;
    this.index += 1;
    return true;
  }

  expectPunct(punct: string): Token {
    if (!this.atPunct(punct)) this.fail();
    return this.next();
  }

  atEnd(): boolean {
    return this.peek().kind === 'eof' || this.atPunct(';');
  }

  /** True when the next token can start an identifier. */
  atIdentifier(ahead = 0): boolean {
    const token = this.peek(ahead);
    return (token.kind === 'word' && !RESERVED_KEYWORDS.has(token.value)) || token.kind === 'quoted';
  }

  identifier(): Identifier {
    const token = this.peek();
    if (token.kind === 'word' && !RESERVED_KEYWORDS.has(token.value)) {
      if (token.text.length > MAX_IDENTIFIER_LENGTH) throw compilationError(`Identifier '${token.text.slice(0, 32)}...' is too long.`, token);
      this.next();
      return { text: token.text, quoted: false, pos: position(token) };
    }
    if (token.kind === 'quoted') {
      if (token.value.length === 0 || token.value.length > MAX_IDENTIFIER_LENGTH) this.fail(token);
      this.next();
      return { text: token.value, quoted: true, pos: position(token) };
    }
    return this.fail(token);
  }

  qualifiedName(): QualifiedName {
    const first = this.identifier();
    const parts = [first];
    while (parts.length < 3 && this.atPunct('.')) {
      this.next();
      parts.push(this.identifier());
    }
    return { parts, pos: first.pos };
  }

  identifierList(): Identifier[] {
    this.expectPunct('(');
    const list = [this.identifier()];
    while (this.acceptPunct(',')) list.push(this.identifier());
    this.expectPunct(')');
    return list;
  }

  stringLiteral(): string {
    const token = this.peek();
    if (token.kind !== 'string') this.fail(token);
    this.next();
    return token.value;
  }

  parenthesisedList<T>(item: () => T): T[] {
    this.expectPunct('(');
    const list = [item()];
    while (this.acceptPunct(',')) list.push(item());
    this.expectPunct(')');
    return list;
  }

  /** `IF NOT EXISTS`, refused together with OR REPLACE as Snowflake does. */
  ifNotExists(orReplace: boolean): boolean {
    if (!this.atWord('IF')) return false;
    const at = this.peek();
    this.expectWord('IF');
    this.expectWord('NOT');
    this.expectWord('EXISTS');
    if (orReplace) throw compilationError('OR REPLACE and IF NOT EXISTS are incompatible.', at);
    return true;
  }

  optionalComment(): string | null {
    if (!this.atWord('COMMENT')) return null;
    this.next();
    this.expectPunct('=');
    return this.stringLiteral();
  }

  optionalSynonyms(): string[] {
    if (!this.atWord('WITH', 'SYNONYMS')) return [];
    this.next();
    this.next();
    this.acceptPunct('=');
    return this.parenthesisedList(() => this.stringLiteral());
  }
}

/** A token's position without its other fields (what syntax tree nodes keep). */
export function position(token: SourcePosition): SourcePosition {
  return { line: token.line, column: token.column, offset: token.offset };
}
