/**
 * The expression grammar of the warehouse emulator's SQL, by precedence: OR, AND, NOT,
 * comparisons and predicates (IS, IN, BETWEEN, LIKE family), `||`, additive, multiplicative,
 * unary and `::` casts, then primaries (literals, CASE, CAST, INTERVAL, EXTRACT, niladic
 * functions, columns and calls with DISTINCT, WITHIN GROUP and OVER). `SqlParser` is the cursor
 * plus this grammar; every statement module parses through it.
 */
import { RESERVED_KEYWORDS } from '../../identifiers';
import type { ExpressionNode, WindowSpecNode } from './ast';
import { position, SqlCursor } from './cursor';
import type { Token } from './tokens';

/** Functions whose first argument may be a bare date part (`DATE_TRUNC(month, d)`). */
const DATE_PART_FUNCTIONS = new Set([
  'DATE_TRUNC', 'TIME_SLICE', 'DATEADD', 'DATEDIFF', 'TIMEADD', 'TIMEDIFF', 'TIMESTAMPADD', 'TIMESTAMPDIFF', 'DATE_PART', 'LAST_DAY', 'TRUNC',
]);
const DATE_PARTS = new Set([
  'YEAR', 'YEARS', 'Y', 'YY', 'YYY', 'YYYY', 'YR', 'YRS', 'QUARTER', 'QUARTERS', 'Q', 'QTR', 'QTRS', 'MONTH', 'MONTHS', 'MM', 'MON', 'MONS',
  'WEEK', 'WEEKS', 'W', 'WK', 'WEEKOFYEAR', 'WOY', 'WY', 'DAY', 'DAYS', 'D', 'DD', 'DAYOFMONTH', 'DAYOFWEEK', 'DOW', 'DAYOFYEAR', 'DOY',
  'HOUR', 'HOURS', 'H', 'HH', 'HR', 'HRS', 'MINUTE', 'MINUTES', 'M', 'MI', 'MIN', 'MINS', 'SECOND', 'SECONDS', 'S', 'SEC', 'SECS',
  'MILLISECOND', 'MS', 'MSEC', 'MICROSECOND', 'US', 'USEC', 'NANOSECOND', 'NS', 'NSEC', 'EPOCH_SECOND', 'EPOCH', 'EPOCH_MILLISECOND',
  'EPOCH_MICROSECOND', 'EPOCH_NANOSECOND', 'YEAROFWEEK', 'YEAROFWEEKISO', 'WEEKISO', 'DAYOFWEEKISO',
]);
/** Reserved words that are also niladic functions. */
const NILADIC_FUNCTIONS = new Set(['CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'LOCALTIME', 'LOCALTIMESTAMP']);
const COMPARISON_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

export class SqlParser extends SqlCursor {
  expression(): ExpressionNode {
    return this.orExpression();
  }

  private orExpression(): ExpressionNode {
    let left = this.andExpression();
    while (this.atWord('OR')) {
      const op = this.next();
      left = { kind: 'binary', op: 'OR', left, right: this.andExpression(), pos: position(op) };
    }
    return left;
  }

  private andExpression(): ExpressionNode {
    let left = this.notExpression();
    while (this.atWord('AND')) {
      const op = this.next();
      left = { kind: 'binary', op: 'AND', left, right: this.notExpression(), pos: position(op) };
    }
    return left;
  }

  private notExpression(): ExpressionNode {
    if (this.atWord('NOT')) {
      const op = this.next();
      return { kind: 'unary', op: 'NOT', operand: this.notExpression(), pos: position(op) };
    }
    return this.comparison();
  }

  private comparison(): ExpressionNode {
    let left = this.concatenation();
    for (;;) {
      const token = this.peek();
      if (token.kind === 'punct' && COMPARISON_OPS.has(token.value)) {
        this.next();
        left = { kind: 'binary', op: token.value, left, right: this.concatenation(), pos: position(token) };
        continue;
      }
      if (this.atWord('IS')) {
        this.next();
        const not = this.acceptWord('NOT');
        if (this.acceptWord('NULL')) left = { kind: 'predicate', op: 'IS NULL', not, expr: left, args: [], pos: position(token) };
        else if (this.acceptWord('TRUE')) left = { kind: 'predicate', op: 'IS TRUE', not, expr: left, args: [], pos: position(token) };
        else if (this.acceptWord('FALSE')) left = { kind: 'predicate', op: 'IS FALSE', not, expr: left, args: [], pos: position(token) };
        else if (this.acceptWord('DISTINCT')) {
          this.expectWord('FROM');
          left = { kind: 'predicate', op: 'IS DISTINCT FROM', not, expr: left, args: [this.concatenation()], pos: position(token) };
        } else this.fail();
        continue;
      }
      const negated = this.atWord('NOT') && ['IN', 'BETWEEN', 'LIKE', 'ILIKE', 'RLIKE', 'REGEXP'].some((w) => this.isWord(this.peek(1), w));
      if (negated) this.next();
      if (this.acceptWord('IN')) {
        const args = this.parenthesisedList(() => this.expression());
        left = { kind: 'predicate', op: 'IN', not: negated, expr: left, args, pos: position(token) };
        continue;
      }
      if (this.acceptWord('BETWEEN')) {
        const low = this.concatenation();
        this.expectWord('AND');
        left = { kind: 'predicate', op: 'BETWEEN', not: negated, expr: left, args: [low, this.concatenation()], pos: position(token) };
        continue;
      }
      const likeOp = ['LIKE', 'ILIKE', 'RLIKE', 'REGEXP'].find((w) => this.atWord(w));
      if (likeOp) {
        this.next();
        const args = [this.concatenation()];
        if (this.acceptWord('ESCAPE')) args.push(this.primary());
        left = { kind: 'predicate', op: likeOp, not: negated, expr: left, args, pos: position(token) };
        continue;
      }
      if (negated) this.fail();
      return left;
    }
  }

  private concatenation(): ExpressionNode {
    let left = this.additive();
    while (this.atPunct('||')) {
      const op = this.next();
      left = { kind: 'binary', op: '||', left, right: this.additive(), pos: position(op) };
    }
    return left;
  }

  private additive(): ExpressionNode {
    let left = this.multiplicative();
    while (this.atPunct('+') || this.atPunct('-')) {
      const op = this.next();
      left = { kind: 'binary', op: op.value, left, right: this.multiplicative(), pos: position(op) };
    }
    return left;
  }

  private multiplicative(): ExpressionNode {
    let left = this.unary();
    while (this.atPunct('*') || this.atPunct('/') || this.atPunct('%')) {
      const op = this.next();
      left = { kind: 'binary', op: op.value, left, right: this.unary(), pos: position(op) };
    }
    return left;
  }

  private unary(): ExpressionNode {
    if (this.atPunct('-') || this.atPunct('+')) {
      const op = this.next();
      return { kind: 'unary', op: op.value, operand: this.unary(), pos: position(op) };
    }
    let expr = this.primary();
    while (this.atPunct('::')) {
      const op = this.next();
      expr = { kind: 'cast', expr, type: this.typeName(), pos: position(op) };
    }
    return expr;
  }

  private primary(): ExpressionNode {
    const token = this.peek();
    switch (token.kind) {
      case 'number':
        this.next();
        return { kind: 'literal', type: 'number', value: token.text, pos: position(token) };
      case 'string':
        this.next();
        return { kind: 'literal', type: 'string', value: token.value, pos: position(token) };
      case 'quoted':
        return this.identifierOrCall();
      case 'punct':
        if (token.value === '(') {
          this.next();
          if (this.atWord('SELECT') || this.atWord('WITH')) this.fail();
          const inner = this.expression();
          this.expectPunct(')');
          return inner;
        }
        return this.fail(token);
      case 'word':
        break;
      default:
        return this.fail(token);
    }
    switch (token.value) {
      case 'TRUE':
      case 'FALSE':
        this.next();
        return { kind: 'literal', type: 'boolean', value: token.value, pos: position(token) };
      case 'NULL':
        this.next();
        return { kind: 'literal', type: 'null', value: 'NULL', pos: position(token) };
      case 'CASE':
        return this.caseExpression();
      case 'CAST':
      case 'TRY_CAST': {
        this.next();
        this.expectPunct('(');
        const expr = this.expression();
        this.expectWord('AS');
        const type = this.typeName();
        this.expectPunct(')');
        return { kind: 'cast', expr, type, pos: position(token) };
      }
      case 'INTERVAL': {
        this.next();
        return { kind: 'interval', value: this.stringLiteral(), pos: position(token) };
      }
      case 'EXTRACT': {
        if (!this.atPunct('(', 1)) break;
        this.next();
        this.next();
        const part = this.peek();
        if (part.kind !== 'word' || !DATE_PARTS.has(part.value)) this.fail(part);
        this.next();
        this.expectWord('FROM');
        const from = this.expression();
        this.expectPunct(')');
        return {
          kind: 'call',
          name: 'EXTRACT',
          distinct: false,
          star: false,
          args: [{ kind: 'keyword', value: part.value, pos: position(part) }, from],
          window: false,
          over: null,
          pos: position(token),
        };
      }
      default:
        break;
    }
    if (NILADIC_FUNCTIONS.has(token.value)) {
      this.next();
      if (this.atPunct('(')) {
        this.next();
        this.expectPunct(')');
      }
      return { kind: 'call', name: token.value, distinct: false, star: false, args: [], window: false, over: null, pos: position(token) };
    }
    if (RESERVED_KEYWORDS.has(token.value)) {
      // LEFT and RIGHT are reserved but are also string functions.
      if ((token.value === 'LEFT' || token.value === 'RIGHT') && this.atPunct('(', 1)) return this.call(this.next());
      return this.fail(token);
    }
    return this.identifierOrCall();
  }

  private identifierOrCall(): ExpressionNode {
    if (this.atPunct('(', 1)) return this.call(this.next());
    const first = this.identifier();
    const parts = [first];
    while (this.atPunct('.')) {
      this.next();
      parts.push(this.identifier());
    }
    return { kind: 'column', parts, pos: first.pos };
  }

  private call(nameToken: Token): ExpressionNode {
    const name = nameToken.kind === 'quoted' ? nameToken.value : nameToken.value.toUpperCase();
    this.expectPunct('(');
    let distinct = false;
    let star = false;
    const args: ExpressionNode[] = [];
    if (this.atPunct('*')) {
      this.next();
      star = true;
    } else if (!this.atPunct(')')) {
      distinct = this.acceptWord('DISTINCT');
      if (!distinct) this.acceptWord('ALL');
      do {
        const token = this.peek();
        const datePartIndex = name === 'LAST_DAY' ? 1 : 0;
        if (
          DATE_PART_FUNCTIONS.has(name) &&
          args.length === datePartIndex &&
          token.kind === 'word' &&
          DATE_PARTS.has(token.value) &&
          (this.atPunct(',', 1) || this.atPunct(')', 1))
        ) {
          this.next();
          args.push({ kind: 'keyword', value: token.value, pos: position(token) });
        } else {
          args.push(this.expression());
        }
      } while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    if (this.acceptWord('WITHIN')) {
      this.expectWord('GROUP');
      this.skipParenthesised();
    }
    if (this.acceptWord('IGNORE') || this.acceptWord('RESPECT')) this.expectWord('NULLS');
    const over = this.acceptWord('OVER') ? this.windowSpec() : null;
    return { kind: 'call', name, distinct, star, args, window: over !== null, over, pos: position(nameToken) };
  }

  /** `( [PARTITION BY [EXCLUDING] exprs] [ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST], ...] [frame] )`. */
  private windowSpec(): WindowSpecNode {
    const open = this.expectPunct('(');
    const partitionBy: ExpressionNode[] = [];
    let excluding = false;
    if (this.acceptWord('PARTITION')) {
      this.expectWord('BY');
      excluding = this.acceptWord('EXCLUDING');
      do partitionBy.push(this.expression());
      while (this.acceptPunct(','));
    }
    const orderBy: { expr: ExpressionNode; descending: boolean }[] = [];
    if (this.acceptWord('ORDER')) {
      this.expectWord('BY');
      do {
        const expr = this.expression();
        const descending = this.acceptWord('DESC');
        if (!descending) this.acceptWord('ASC');
        if (this.acceptWord('NULLS') && !this.acceptWord('FIRST')) this.expectWord('LAST');
        orderBy.push({ expr, descending });
      } while (this.acceptPunct(','));
    }
    let frameText: string | null = null;
    if (this.atWord('ROWS') || this.atWord('RANGE') || this.atWord('GROUPS')) {
      // The frame runs to the closing parenthesis; its grammar is not interpreted here.
      const frameStart = this.peek();
      let depth = 0;
      while (!(depth === 0 && this.atPunct(')'))) {
        const token = this.next();
        if (token.kind === 'eof') this.fail(token);
        if (token.kind === 'punct' && token.value === '(') depth += 1;
        if (token.kind === 'punct' && token.value === ')') depth -= 1;
      }
      frameText = this.sql.slice(frameStart.offset, this.previous().end);
    }
    this.expectPunct(')');
    return { partitionBy, excluding, orderBy, frameText, text: this.sql.slice(open.offset, this.previous().end), pos: position(open) };
  }

  /** Skips a balanced `( ... )` whose content the emulator does not interpret. */
  private skipParenthesised(): void {
    this.expectPunct('(');
    let depth = 1;
    while (depth > 0) {
      const token = this.next();
      if (token.kind === 'eof') this.fail(token);
      if (token.kind === 'punct' && token.value === '(') depth += 1;
      if (token.kind === 'punct' && token.value === ')') depth -= 1;
    }
  }

  private caseExpression(): ExpressionNode {
    const start = this.expectWord('CASE');
    if (this.atWord('END')) this.fail();
    const operand = this.atWord('WHEN') ? null : this.expression();
    const whens: { when: ExpressionNode; then: ExpressionNode }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.expression();
      this.expectWord('THEN');
      whens.push({ when, then: this.expression() });
    }
    if (whens.length === 0) this.fail();
    const otherwise = this.acceptWord('ELSE') ? this.expression() : null;
    this.expectWord('END');
    return { kind: 'case', operand, whens, otherwise, pos: position(start) };
  }

  /** A data type name: `NUMBER(38, 2)`, `VARCHAR`, `DOUBLE PRECISION`, `TIMESTAMP WITH TIME ZONE`. */
  private typeName(): string {
    const first = this.peek();
    if (first.kind !== 'word') this.fail(first);
    this.next();
    const words = [first.value];
    if (first.value === 'DOUBLE' && this.acceptWord('PRECISION')) words.push('PRECISION');
    if ((first.value === 'CHAR' || first.value === 'CHARACTER') && this.acceptWord('VARYING')) words.push('VARYING');
    if (first.value === 'TIMESTAMP') {
      if (this.atWord('WITH', 'TIME', 'ZONE') || this.atWord('WITHOUT', 'TIME', 'ZONE')) {
        words.push(this.next().value, this.next().value, this.next().value);
      } else if (this.atWord('WITH', 'LOCAL', 'TIME', 'ZONE')) {
        words.push(this.next().value, this.next().value, this.next().value, this.next().value);
      }
    }
    let args = '';
    if (this.atPunct('(')) {
      this.next();
      const numbers: string[] = [];
      do {
        const number = this.peek();
        if (number.kind !== 'number') this.fail(number);
        numbers.push(this.next().text);
      } while (this.acceptPunct(','));
      this.expectPunct(')');
      args = `(${numbers.join(',')})`;
    }
    return words.join(' ') + args;
  }
}
