import { describe, expect, it } from 'vitest';
import {
  parseExpression,
  parseSemanticViewDdl,
  parseStatement,
  parseStatements,
  tokenize,
  WarehouseErrorCodes,
  type ExpressionNode,
} from '../../../../src-main/connectors/warehouse';
import { SALES_DDL, warehouseError } from './fixtures';

const syntax = (sql: string) => warehouseError(() => parseStatements(sql));

describe('tokenizer', () => {
  it('reports line (1-based) and position (0-based) of every token', () => {
    const tokens = tokenize('CREATE\n  SEMANTIC  VIEW');
    expect(tokens.map((t) => [t.value, t.line, t.column])).toEqual([
      ['CREATE', 1, 0],
      ['SEMANTIC', 2, 2],
      ['VIEW', 2, 12],
      ['', 2, 16],
    ]);
  });

  it('skips --, // and /* */ comments without losing positions', () => {
    const tokens = tokenize('a -- one\n// two\n/* three\nfour */ b');
    expect(tokens.filter((t) => t.kind === 'word').map((t) => [t.text, t.line, t.column])).toEqual([
      ['a', 1, 0],
      ['b', 4, 8],
    ]);
  });

  it("decodes '' and backslash escapes in strings, and doubled quotes in quoted identifiers", () => {
    const [string, quoted] = tokenize(`'it''s a \\'test\\' \\\\ \\n' "say ""hi"""`);
    expect(string.value).toBe("it's a 'test' \\ \n");
    expect(quoted.value).toBe('say "hi"');
  });

  it('reads $$ strings verbatim', () => {
    expect(tokenize("$$no 'escapes' here$$")[0].value).toBe("no 'escapes' here");
  });

  it('rejects an unterminated string at end of input', () => {
    const error = warehouseError(() => tokenize("COMMENT = 'open"));
    expect(error.code).toBe(WarehouseErrorCodes.SYNTAX_ERROR);
    expect(error.message).toBe("SQL compilation error:\nsyntax error line 1 at position 15 unexpected '<EOF>'.");
  });

  it('rejects a character that is not SQL', () => {
    expect(syntax('SELECT #').message).toContain("unexpected '#'");
  });
});

describe('CREATE SEMANTIC VIEW grammar', () => {
  it('parses every clause of a complete definition', () => {
    const ast = parseSemanticViewDdl(SALES_DDL);
    expect(ast.orReplace).toBe(true);
    expect(ast.ifNotExists).toBe(false);
    expect(ast.name.parts.map((p) => p.text)).toEqual(['ANALYTICS', 'PUBLIC', 'SALES_SV']);
    expect(ast.tables.map((t) => t.alias?.text)).toEqual(['orders', 'customers', 'nations', 'line_items']);
    expect(ast.tables[0].synonyms).toEqual(['sales orders']);
    expect(ast.tables[0].comment).toBe('All orders');
    expect(ast.tables[1].uniqueKeys.map((k) => k.map((c) => c.text))).toEqual([['c_email']]);
    expect(ast.tables[3].primaryKey?.map((c) => c.text)).toEqual(['l_orderkey', 'l_linenumber']);
    expect(ast.relationships.map((r) => [r.name?.text, r.table.text, r.refTable.text, r.refColumns?.map((c) => c.text) ?? null])).toEqual([
      ['orders_to_customers', 'orders', 'customers', ['c_custkey']],
      ['customers_to_nations', 'customers', 'nations', null],
      ['line_items_to_orders', 'line_items', 'orders', null],
    ]);
    expect(ast.facts.map((f) => f.expressionText)).toEqual(['l_extendedprice * (1 - l_discount)', 'COUNT(line_items.l_linenumber)']);
    expect(ast.dimensions[0].synonyms).toEqual(['customer', 'client']);
    expect(ast.metrics.map((m) => `${m.table?.text}.${m.name.text}`)).toEqual([
      'orders.order_count',
      'orders.average_value',
      'line_items.revenue',
      'orders.customer_count',
    ]);
    expect(ast.metrics[1].comment).toBe('Average order value');
    expect(ast.comment).toBe('Sales analysis');
  });

  it('accepts IF NOT EXISTS, an unaliased table and COPY GRANTS', () => {
    const ast = parseSemanticViewDdl('CREATE SEMANTIC VIEW IF NOT EXISTS v TABLES (ANALYTICS.PUBLIC.ORDERS) DIMENSIONS (orders.d AS o_orderdate) COPY GRANTS');
    expect(ast.ifNotExists).toBe(true);
    expect(ast.tables[0].alias).toBeNull();
    expect(ast.copyGrants).toBe(true);
  });

  it('refuses OR REPLACE together with IF NOT EXISTS', () => {
    const error = syntax('CREATE OR REPLACE SEMANTIC VIEW IF NOT EXISTS v TABLES (t) DIMENSIONS (t.d AS x)');
    expect(error.code).toBe(WarehouseErrorCodes.SYNTAX_ERROR);
    expect(error.message).toContain('OR REPLACE and IF NOT EXISTS are incompatible.');
  });

  it('requires the TABLES clause', () => {
    expect(syntax('CREATE SEMANTIC VIEW v DIMENSIONS (t.d AS x)').message).toBe(
      "SQL compilation error:\nsyntax error line 1 at position 23 unexpected 'DIMENSIONS'.",
    );
  });

  it('keeps the clause order fixed: FACTS after DIMENSIONS is a syntax error at FACTS', () => {
    const error = syntax('CREATE SEMANTIC VIEW v\n  TABLES (t AS db.s.t)\n  DIMENSIONS (t.d AS x)\n  FACTS (t.f AS y)');
    expect(error.message).toBe("SQL compilation error:\nsyntax error line 4 at position 2 unexpected 'FACTS'.");
    expect(error.position).toEqual({ line: 4, column: 2 });
    expect(error.vendorCode).toBe('001003');
    expect(error.sqlState).toBe('42000');
  });

  it('keeps the clause order fixed: COMMENT must come last', () => {
    expect(syntax("CREATE SEMANTIC VIEW v TABLES (t) COMMENT = 'c' METRICS (t.m AS SUM(x))").message).toContain("unexpected 'METRICS'");
  });

  it('rejects an empty clause list', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES ()').message).toContain("unexpected ')'");
  });

  it('rejects a trailing comma in a clause list', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t, ) DIMENSIONS (t.d AS x)').message).toContain("at position 34 unexpected ')'");
  });

  it('rejects a missing closing parenthesis at end of input', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t AS db.s.t').message).toContain("unexpected '<EOF>'");
  });

  it('requires table_alias.name for facts and dimensions', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (d AS x)').message).toContain("unexpected 'AS'");
  });

  it('accepts PUBLIC/PRIVATE on facts and metrics but not on dimensions', () => {
    const ast = parseSemanticViewDdl('CREATE SEMANTIC VIEW v TABLES (t) FACTS (PRIVATE t.f AS x) METRICS (PUBLIC t.m AS SUM(x))');
    expect(ast.facts[0].accessModifier).toBe('PRIVATE');
    expect(ast.metrics[0].accessModifier).toBe('PUBLIC');
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (PRIVATE t.d AS x)').message).toContain("unexpected 't'");
  });

  it('reads `public.x` as a table aliased PUBLIC, not as a modifier', () => {
    const ast = parseSemanticViewDdl('CREATE SEMANTIC VIEW v TABLES (public AS db.s.t) FACTS (public.f AS x) DIMENSIONS (public.d AS x)');
    expect(ast.facts[0].accessModifier).toBeNull();
    expect(ast.facts[0].table?.text).toBe('public');
  });

  it('accepts WITH SYNONYMS with and without "="', () => {
    const ast = parseSemanticViewDdl("CREATE SEMANTIC VIEW v TABLES (t WITH SYNONYMS = ('a', 'b')) DIMENSIONS (t.d AS x WITH SYNONYMS ('c'))");
    expect(ast.tables[0].synonyms).toEqual(['a', 'b']);
    expect(ast.dimensions[0].synonyms).toEqual(['c']);
  });

  it('requires synonyms to be string literals', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t WITH SYNONYMS (a)) DIMENSIONS (t.d AS x)').message).toContain("unexpected 'a'");
  });

  it('rejects an unquoted reserved word as an identifier and accepts it quoted', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (order AS db.s.t) DIMENSIONS (order.d AS x)').message).toContain("unexpected 'order'");
    const ast = parseSemanticViewDdl('CREATE SEMANTIC VIEW v TABLES ("order" AS db.s.t) DIMENSIONS ("order".d AS x)');
    expect(ast.tables[0].alias).toMatchObject({ text: 'order', quoted: true });
  });

  it('rejects an empty quoted identifier', () => {
    expect(syntax('CREATE SEMANTIC VIEW "" TABLES (t) DIMENSIONS (t.d AS x)').message).toContain(`unexpected '""'`);
  });

  it('rejects a name with more than three parts', () => {
    expect(syntax('CREATE SEMANTIC VIEW a.b.c.d TABLES (t) DIMENSIONS (t.d AS x)').message).toContain("unexpected '.'");
  });

  it('parses relationships with ASOF referenced columns', () => {
    const ast = parseSemanticViewDdl('CREATE SEMANTIC VIEW v TABLES (a, b) RELATIONSHIPS (a (x, t) REFERENCES b (y, ASOF u)) DIMENSIONS (a.d AS x)');
    expect(ast.relationships[0].asof).toBe(true);
    expect(ast.relationships[0].name).toBeNull();
  });

  it('parses a metric without a table (a derived metric) but requires a table for facts', () => {
    expect(parseSemanticViewDdl('CREATE SEMANTIC VIEW v TABLES (t) METRICS (total AS t.a + t.b)').metrics[0].table).toBeNull();
  });

  it('keeps the expression text exactly as written, across lines', () => {
    const ast = parseSemanticViewDdl('CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (t.d AS CASE\n  WHEN x > 1 THEN \'big\'\n  ELSE \'small\' END COMMENT = \'c\')');
    expect(ast.dimensions[0].expressionText).toBe("CASE\n  WHEN x > 1 THEN 'big'\n  ELSE 'small' END");
    expect(ast.dimensions[0].comment).toBe('c');
  });

  it('reports malformed expressions at the offending token', () => {
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t) METRICS (t.m AS SUM(x\n)').message).toContain("line 2 at position 1 unexpected '<EOF>'");
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (t.d AS a +)').message).toContain("unexpected ')'");
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (t.d AS a b)').message).toContain("unexpected 'b'");
    expect(syntax('CREATE SEMANTIC VIEW v TABLES (t) DIMENSIONS (t.d AS CASE END)').message).toContain("unexpected 'END'");
  });
});

describe('expressions', () => {
  const kinds = (node: ExpressionNode): string => {
    switch (node.kind) {
      case 'call':
        return `${node.name}${node.distinct ? '[distinct]' : ''}${node.star ? '[*]' : ''}(${node.args.map(kinds).join(',')})`;
      case 'binary':
        return `(${kinds(node.left)} ${node.op} ${kinds(node.right)})`;
      case 'unary':
        return `${node.op} ${kinds(node.operand)}`;
      case 'column':
        return node.parts.map((p) => p.text).join('.');
      case 'literal':
        return `${node.type}:${node.value}`;
      case 'keyword':
        return `kw:${node.value}`;
      case 'cast':
        return `cast(${kinds(node.expr)} as ${node.type})`;
      case 'predicate':
        return `${node.not ? 'not ' : ''}${node.op}(${kinds(node.expr)};${node.args.map(kinds).join(',')})`;
      case 'case':
        return 'case';
      case 'interval':
        return `interval:${node.value}`;
    }
  };

  it('gives * and / precedence over + and -, and AND over OR', () => {
    expect(kinds(parseExpression('a + b * c - d'))).toBe('((a + (b * c)) - d)');
    expect(kinds(parseExpression('a OR b AND NOT c'))).toBe('(a OR (b AND NOT c))');
  });

  it('parses aggregate calls, COUNT(*) and COUNT(DISTINCT ...)', () => {
    expect(kinds(parseExpression('COUNT(DISTINCT t.x)'))).toBe('COUNT[distinct](t.x)');
    expect(kinds(parseExpression('count(*)'))).toBe('COUNT[*]()');
  });

  it('parses casts in both spellings', () => {
    expect(kinds(parseExpression('CAST(x AS NUMBER(10, 2))'))).toBe('cast(x as NUMBER(10,2))');
    expect(kinds(parseExpression('x::timestamp_ntz'))).toBe('cast(x as TIMESTAMP_NTZ)');
    expect(kinds(parseExpression('x::DOUBLE PRECISION'))).toBe('cast(x as DOUBLE PRECISION)');
  });

  it('reads a bare date part as a keyword, not a column', () => {
    expect(kinds(parseExpression('DATE_TRUNC(month, o_orderdate)'))).toBe('DATE_TRUNC(kw:MONTH,o_orderdate)');
    expect(kinds(parseExpression("DATE_TRUNC('month', o_orderdate)"))).toBe('DATE_TRUNC(string:month,o_orderdate)');
    expect(kinds(parseExpression('EXTRACT(year FROM d)'))).toBe('EXTRACT(kw:YEAR,d)');
  });

  it('parses predicates', () => {
    expect(kinds(parseExpression("s NOT IN ('a', 'b')"))).toBe('not IN(s;string:a,string:b)');
    expect(kinds(parseExpression('x BETWEEN 1 AND 2'))).toBe('BETWEEN(x;number:1,number:2)');
    expect(kinds(parseExpression('x IS NOT NULL'))).toBe('not IS NULL(x;)');
    expect(kinds(parseExpression("n ILIKE 'a%'"))).toBe('ILIKE(n;string:a%)');
  });

  it('marks window functions', () => {
    const node = parseExpression('SUM(x) OVER (PARTITION BY y ORDER BY z)');
    expect(node.kind === 'call' && node.window).toBe(true);
  });

  it('accepts LEFT and RIGHT as functions although they are reserved words', () => {
    expect(kinds(parseExpression('LEFT(c_phone, 2)'))).toBe('LEFT(c_phone,number:2)');
  });

  it('rejects subqueries', () => {
    expect(warehouseError(() => parseExpression('(SELECT 1)')).message).toContain("unexpected 'SELECT'");
  });
});

describe('other statements', () => {
  it('parses CREATE VIEW and keeps its query text', () => {
    const statement = parseStatement("CREATE OR REPLACE VIEW ANALYTICS.PUBLIC.MODEL_SV_SRC_ORDERS COMMENT = 'helper' AS SELECT * FROM orders WHERE (a = 1);");
    expect(statement).toMatchObject({ type: 'create_view', orReplace: true, comment: 'helper', queryText: 'SELECT * FROM orders WHERE (a = 1)' });
  });

  it('requires CREATE VIEW to end in a query', () => {
    expect(syntax('CREATE VIEW v AS DELETE FROM t').message).toContain("unexpected 'DELETE'");
    expect(syntax('CREATE VIEW v AS SELECT (1').message).toContain("unexpected '<EOF>'");
  });

  it('parses DROP [IF EXISTS], DESCRIBE/DESC, and USE', () => {
    expect(parseStatement('DROP SEMANTIC VIEW IF EXISTS a.b.c')).toMatchObject({ type: 'drop_semantic_view', ifExists: true });
    expect(parseStatement('DROP VIEW x')).toMatchObject({ type: 'drop_view', ifExists: false });
    expect(parseStatement('DESC SEMANTIC VIEW x')).toMatchObject({ type: 'describe_semantic_view' });
    expect(parseStatement('USE SCHEMA analytics.public')).toMatchObject({ type: 'use', objectKind: 'SCHEMA' });
    expect(parseStatement('USE analytics.public')).toMatchObject({ type: 'use', objectKind: 'SCHEMA' });
    expect(parseStatement('USE WAREHOUSE wh')).toMatchObject({ type: 'use', objectKind: 'WAREHOUSE' });
  });

  it('parses every SHOW SEMANTIC VIEWS option', () => {
    expect(parseStatement("SHOW TERSE SEMANTIC VIEWS LIKE '%sales%' IN SCHEMA analytics.public STARTS WITH 'S' LIMIT 10 FROM 'SA'")).toMatchObject({
      type: 'show_semantic_views',
      terse: true,
      like: '%sales%',
      scope: { kind: 'SCHEMA' },
      startsWith: 'S',
      limit: 10,
      limitFrom: 'SA',
    });
    expect(parseStatement('SHOW SEMANTIC VIEWS IN ACCOUNT')).toMatchObject({ scope: { kind: 'ACCOUNT' } });
    expect(parseStatement('SHOW SEMANTIC VIEWS IN DATABASE')).toMatchObject({ scope: { kind: 'DATABASE', name: null } });
  });

  it('parses SELECT GET_DDL with the optional fully-qualified flag and names the column after the call', () => {
    expect(parseStatement("select get_ddl('semantic_view', 'a.b.\"c\"', true)")).toMatchObject({
      type: 'get_ddl',
      objectType: 'semantic_view',
      objectName: 'a.b."c"',
      fullyQualified: true,
      columnName: `GET_DDL('SEMANTIC_VIEW', 'A.B."C"', TRUE)`,
    });
  });

  it('splits scripts on semicolons', () => {
    expect(parseStatements('DROP VIEW a; DROP VIEW b;;').map((s) => s.text)).toEqual(['DROP VIEW a', 'DROP VIEW b']);
  });

  it('refuses recognised statements the emulator does not execute', () => {
    for (const sql of ['INSERT INTO t VALUES (1)', 'SELECT 1', 'CREATE TABLE t (a INT)', 'SHOW TABLES', 'ALTER SEMANTIC VIEW v RENAME TO w']) {
      expect(syntax(sql).code, sql).toBe(WarehouseErrorCodes.UNSUPPORTED);
    }
  });

  it('rejects what is not SQL at all', () => {
    expect(syntax('HELLO world').message).toBe("SQL compilation error:\nsyntax error line 1 at position 0 unexpected 'HELLO'.");
  });
});
