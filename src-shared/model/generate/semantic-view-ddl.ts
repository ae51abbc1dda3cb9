// Model view → warehouse semantic view DDL (Snowflake's CREATE SEMANTIC VIEW grammar).
//
// One model view becomes one semantic view: every cube on the view's join paths is a logical table
// (aliased by the cube name, with its single-column PRIMARY KEY), every join along those paths a
// relationship from the referencing table's column to the referenced table's primary key, every
// exposed dimension a DIMENSION and every exposed measure an aggregate METRIC. Clauses come in the
// fixed order TABLES, RELATIONSHIPS, FACTS, DIMENSIONS, METRICS, COMMENT. A cube defined by plain
// SQL is read through a helper view `MODEL_SV_SRC_<CUBE>` created first (push rule 3).

import { analyzeWarehousePush, type SkippedFeature, type WarehousePushAnalysis } from '../analyze';
import { scanSql } from '../references';
import type { CompiledCube, CompiledModel, CompiledView, Dimension, Measure, ViewMember } from '../types';

// ---- Snowflake identifiers ----------------------------------------------------------------------

/** Snowflake's reserved keywords: usable as names only when double-quoted. */
export const SNOWFLAKE_RESERVED = new Set([
  'ACCOUNT', 'ALL', 'ALTER', 'AND', 'ANY', 'AS', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CHECK', 'COLUMN', 'CONNECT', 'CONNECTION',
  'CONSTRAINT', 'CREATE', 'CROSS', 'CURRENT', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'DATABASE',
  'DELETE', 'DISTINCT', 'DROP', 'ELSE', 'EXISTS', 'FALSE', 'FOLLOWING', 'FOR', 'FROM', 'FULL', 'GRANT', 'GROUP', 'GSCLUSTER',
  'HAVING', 'ILIKE', 'IN', 'INCREMENT', 'INNER', 'INSERT', 'INTERSECT', 'INTO', 'IS', 'ISSUE', 'JOIN', 'LATERAL', 'LEFT', 'LIKE',
  'LOCALTIME', 'LOCALTIMESTAMP', 'MINUS', 'NATURAL', 'NOT', 'NULL', 'OF', 'ON', 'OR', 'ORDER', 'ORGANIZATION', 'QUALIFY',
  'REGEXP', 'REVOKE', 'RIGHT', 'RLIKE', 'ROW', 'ROWS', 'SAMPLE', 'SCHEMA', 'SELECT', 'SET', 'SOME', 'START', 'TABLE',
  'TABLESAMPLE', 'THEN', 'TO', 'TRIGGER', 'TRUE', 'TRY_CAST', 'UNION', 'UNIQUE', 'UPDATE', 'USING', 'VALUES', 'VIEW', 'WHEN',
  'WHENEVER', 'WHERE', 'WITH',
]);

const UNQUOTED = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** An identifier as written in the DDL, and the name the warehouse stores for it. */
export interface SqlIdentifier {
  text: string;
  quoted: boolean;
}

/**
 * How a model name is written so that it reads back the same: all-lower or all-upper names stay
 * bare (stored upper-case, pulled back lower-case); mixed case, reserved words and other
 * characters are double-quoted so the warehouse keeps them exactly.
 */
export function modelIdentifier(name: string): SqlIdentifier {
  const bare = UNQUOTED.test(name) && !SNOWFLAKE_RESERVED.has(name.toUpperCase()) && (name === name.toLowerCase() || name === name.toUpperCase());
  return { text: name, quoted: !bare };
}

/** A name the user typed for a warehouse object (semantic view, schema): bare when it may be, i.e. upper-cased. */
export function warehouseIdentifier(name: string): SqlIdentifier {
  return { text: name, quoted: !(UNQUOTED.test(name) && !SNOWFLAKE_RESERVED.has(name.toUpperCase())) };
}

/** An exact stored name (from the warehouse): bare only when reading it bare gives it back. */
export function storedIdentifier(name: string): SqlIdentifier {
  return { text: name, quoted: !(/^[A-Z_][A-Z0-9_$]*$/.test(name) && !SNOWFLAKE_RESERVED.has(name)) };
}

export const writeIdentifier = (id: SqlIdentifier): string => (id.quoted ? `"${id.text.replace(/"/g, '""')}"` : id.text);

/** The stored name: bare identifiers are upper-cased; quoted ones too when QUOTED_IDENTIFIERS_IGNORE_CASE is on. */
export const resolvedName = (id: SqlIdentifier, quotedIdentifiersIgnoreCase: boolean): string =>
  !id.quoted || quotedIdentifiersIgnoreCase ? id.text.toUpperCase() : id.text;

export const sqlString = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

// ---- the definition, and its printer ------------------------------------------------------------

export interface LogicalTableSpec {
  alias: SqlIdentifier;
  /** Qualified base table (or helper view) as SQL text. */
  table: string;
  primaryKey: SqlIdentifier[];
  comment?: string;
}

export interface RelationshipSpec {
  name: SqlIdentifier;
  table: SqlIdentifier;
  columns: SqlIdentifier[];
  refTable: SqlIdentifier;
  refColumns: SqlIdentifier[];
}

export interface SemanticExpressionSpec {
  table: SqlIdentifier;
  name: SqlIdentifier;
  expression: string;
  comment?: string;
  /** Facts and metrics may be PRIVATE; dimensions never are. */
  private?: boolean;
}

export interface SemanticViewSpec {
  /** Qualified name as SQL text. */
  name: string;
  tables: LogicalTableSpec[];
  relationships: RelationshipSpec[];
  facts: SemanticExpressionSpec[];
  dimensions: SemanticExpressionSpec[];
  metrics: SemanticExpressionSpec[];
  comment?: string;
}

const commentClause = (comment: string | undefined) => (comment ? ` COMMENT = ${sqlString(comment)}` : '');
const columnList = (columns: SqlIdentifier[]) => `(${columns.map(writeIdentifier).join(', ')})`;

/** `CREATE OR REPLACE SEMANTIC VIEW` in the grammar's fixed clause order; empty optional clauses are left out. */
export function renderSemanticView(spec: SemanticViewSpec): string {
  if (spec.tables.length === 0) throw new Error('A semantic view needs at least one logical table.');
  if (spec.dimensions.length === 0 && spec.metrics.length === 0) throw new Error('A semantic view needs at least one dimension or metric.');
  const clause = (keyword: string, items: string[]) => (items.length === 0 ? '' : `\n  ${keyword} (\n${items.map((i) => `    ${i}`).join(',\n')}\n  )`);
  const expression = (e: SemanticExpressionSpec) =>
    `${e.private ? 'PRIVATE ' : ''}${writeIdentifier(e.table)}.${writeIdentifier(e.name)} AS ${e.expression}${commentClause(e.comment)}`;
  return (
    `CREATE OR REPLACE SEMANTIC VIEW ${spec.name}` +
    clause(
      'TABLES',
      spec.tables.map(
        (t) =>
          `${writeIdentifier(t.alias)} AS ${t.table}${t.primaryKey.length ? ` PRIMARY KEY ${columnList(t.primaryKey)}` : ''}${commentClause(t.comment)}`,
      ),
    ) +
    clause(
      'RELATIONSHIPS',
      spec.relationships.map(
        (r) => `${writeIdentifier(r.name)} AS ${writeIdentifier(r.table)} ${columnList(r.columns)} REFERENCES ${writeIdentifier(r.refTable)} ${columnList(r.refColumns)}`,
      ),
    ) +
    clause('FACTS', spec.facts.map(expression)) +
    clause('DIMENSIONS', spec.dimensions.map((d) => expression({ ...d, private: false }))) +
    clause('METRICS', spec.metrics.map(expression)) +
    (spec.comment ? `\n  COMMENT = ${sqlString(spec.comment)}` : '')
  );
}

// ---- model view → definition --------------------------------------------------------------------

export const HELPER_VIEW_PREFIX = 'MODEL_SV_SRC_';

export interface SemanticViewDdlOptions {
  /** Name of the semantic view to create (the request's prefix + the model view name). */
  name: string;
  /** Database and schema the semantic view is created in (stored names). */
  database: string;
  schema: string;
  /** Schema of the helper views of SQL-defined cubes (default `PUBLIC`), in `database`. */
  helperSchema?: string;
  /** Schema for one-part `sql_table` names (default: `schema`). */
  defaultSchema?: string;
  /** The data source's QUOTED_IDENTIFIERS_IGNORE_CASE setting (default false). */
  quotedIdentifiersIgnoreCase?: boolean;
  /** The push analysis of the view when the caller already ran it. */
  analysis?: WarehousePushAnalysis;
}

export interface HelperViewDdl {
  /** The cube the helper view stands in for. */
  cube: string;
  /** Stored name of the helper view. */
  name: string;
  ddl: string;
}

export interface SemanticViewDdl {
  /** The model view. */
  view: string;
  /** Stored name of the semantic view (what SHOW SEMANTIC VIEWS will list). */
  name: string;
  database: string;
  schema: string;
  /** Helper views to create first, in order. */
  helperViews: HelperViewDdl[];
  /** The CREATE OR REPLACE SEMANTIC VIEW statement. */
  ddl: string;
  /** Every statement to run, helper views first. */
  statements: string[];
  /** Features of the view the push leaves out (rule 6). */
  skipped: SkippedFeature[];
  skippedDetails: { feature: SkippedFeature; items: string[] }[];
  /** Things that are pushed but change on the way (e.g. names folded by QUOTED_IDENTIFIERS_IGNORE_CASE). */
  warnings: string[];
  spec: SemanticViewSpec;
}

/** A view that cannot be expressed as a semantic view; `reasons` say why (analyzer diagnostics or generator findings). */
export class SemanticViewDdlError extends Error {
  constructor(
    readonly code: 'MODEL_NOT_PUSHABLE' | 'IDENTIFIER_CASE_COLLISION' | 'UNKNOWN_VIEW',
    message: string,
    readonly reasons: { code: string; message: string; member?: string }[] = [],
  ) {
    super(message);
    this.name = 'SemanticViewDdlError';
  }
}

interface CubeRef {
  cube: CompiledCube;
  alias: SqlIdentifier;
}

/** Column named by a member SQL that is a plain column (`id`, `"Id"`, `{CUBE}.id`, `CUBE."Id"`), with its quoting. */
export function columnOf(sql: string | undefined): SqlIdentifier | null {
  if (!sql) return null;
  const m = /^\s*(?:\{(?:CUBE|TABLE)\}\.|(?:CUBE|TABLE)\.)?(?:"((?:[^"]|"")+)"|([A-Za-z_][\w$]*))\s*$/.exec(sql);
  if (!m) return null;
  return m[1] !== undefined ? { text: m[1].replace(/""/g, '"'), quoted: true } : { text: m[2]!, quoted: false };
}

/** Splits `db.schema."Table"` into its parts as written; null when it is not a dotted identifier list. */
export function splitQualifiedName(text: string): string[] | null {
  const parts: string[] = [];
  const re = /\s*("(?:[^"]|"")+"|[A-Za-z_][\w$]*)\s*(\.|$)/y;
  let index = 0;
  while (index < text.length) {
    re.lastIndex = index;
    const m = re.exec(text);
    if (!m) return null;
    parts.push(m[1]!);
    index = re.lastIndex;
    if (m[2] === '') break;
  }
  return parts.length >= 1 && parts.length <= 3 && index >= text.length ? parts : null;
}

class Generator {
  private readonly reasons: { code: string; message: string; member?: string }[] = [];
  readonly warnings: string[] = [];
  private readonly byCube = new Map<string, CubeRef>();
  /** Stored names of the semantic members each table gets (cube name → names). */
  private readonly memberNames = new Map<string, Set<string>>();
  private readonly qiic: boolean;

  constructor(
    private readonly model: CompiledModel,
    private readonly view: CompiledView,
    private readonly options: SemanticViewDdlOptions,
  ) {
    this.qiic = options.quotedIdentifiersIgnoreCase ?? false;
  }

  private fail(code: string, message: string, member?: string): void {
    this.reasons.push({ code, message, ...(member ? { member } : {}) });
  }

  run(): Omit<SemanticViewDdl, 'skipped' | 'skippedDetails'> {
    const view = this.view;
    const cubes = this.scopeCubes();
    for (const cube of cubes) this.byCube.set(cube.name, { cube, alias: modelIdentifier(cube.name) });

    const helperViews: HelperViewDdl[] = [];
    const tables: LogicalTableSpec[] = [];
    for (const { cube, alias } of this.byCube.values()) {
      const pk = cube.primaryKey ? columnOf(cube.dimensions[cube.primaryKey]?.sql) : null;
      if (!pk) this.fail('MODEL_PUSH_PRIMARY_KEY', `cube '${cube.name}' has no single-column primary key`, cube.name);
      let table: string | null = null;
      if (cube.sqlTable) {
        table = this.qualifiedTable(cube);
      } else if (cube.sql) {
        const helper = this.helperView(cube);
        if (helper) {
          helperViews.push(helper);
          table = [this.options.database, this.options.helperSchema ?? 'PUBLIC', helper.name].map((p) => writeIdentifier(storedIdentifier(p))).join('.');
        }
      } else {
        this.fail('MODEL_PUSH_NO_SOURCE', `cube '${cube.name}' has neither sql_table nor sql`, cube.name);
      }
      if (table && pk) tables.push({ alias, table, primaryKey: [pk], ...(cube.description ? { comment: cube.description } : {}) });
    }

    const relationships = this.relationships();
    for (const member of Object.values(view.members)) {
      if (member.kind !== 'dimension' && member.kind !== 'measure') continue;
      const owner = this.sourceOf(member)?.owner;
      if (!owner) continue;
      const names = this.memberNames.get(owner.cube.name) ?? new Set<string>();
      names.add(resolvedName(modelIdentifier(member.name), this.qiic));
      this.memberNames.set(owner.cube.name, names);
    }
    const dimensions: SemanticExpressionSpec[] = [];
    const metrics: SemanticExpressionSpec[] = [];
    for (const member of Object.values(view.members)) {
      if (member.kind === 'dimension') {
        const spec = this.dimension(member);
        if (spec) dimensions.push(spec);
      } else if (member.kind === 'measure') {
        const spec = this.metric(member);
        if (spec) metrics.push(spec);
      }
    }
    if (dimensions.length === 0 && metrics.length === 0) this.fail('MODEL_PUSH_EMPTY_VIEW', `view '${view.name}' exposes no dimension or measure`);
    this.checkNames(tables, relationships, [...dimensions, ...metrics]);

    if (this.reasons.length > 0) {
      throw new SemanticViewDdlError(
        'MODEL_NOT_PUSHABLE',
        `View '${view.name}' cannot be pushed as a semantic view: ${this.reasons.map((r) => r.message).join('; ')}.`,
        this.reasons,
      );
    }

    const nameId = warehouseIdentifier(this.options.name);
    const storedName = resolvedName(nameId, this.qiic);
    const spec: SemanticViewSpec = {
      name: [writeIdentifier(storedIdentifier(this.options.database)), writeIdentifier(storedIdentifier(this.options.schema)), writeIdentifier(nameId)].join('.'),
      tables,
      relationships,
      facts: [],
      dimensions,
      metrics,
      ...(view.description ? { comment: view.description } : {}),
    };
    const ddl = renderSemanticView(spec);
    return {
      view: view.name,
      name: storedName,
      database: this.options.database,
      schema: this.options.schema,
      helperViews,
      ddl,
      statements: [...helperViews.map((h) => h.ddl), ddl],
      warnings: this.warnings,
      spec,
    };
  }

  /** Cubes on the view's join paths, in first-seen order. */
  private scopeCubes(): CompiledCube[] {
    const seen = new Map<string, CompiledCube>();
    for (const path of this.view.joinPaths) {
      for (const name of path) {
        const cube = this.model.cubes[name];
        if (cube && !seen.has(name)) seen.set(name, cube);
      }
    }
    return [...seen.values()];
  }

  private qualifiedTable(cube: CompiledCube): string | null {
    const parts = splitQualifiedName(cube.sqlTable!);
    if (!parts) {
      this.fail('MODEL_PUSH_TABLE_NAME', `cube '${cube.name}': sql_table '${cube.sqlTable}' is not a table name`, cube.name);
      return null;
    }
    const database = writeIdentifier(storedIdentifier(this.options.database));
    const schema = writeIdentifier(storedIdentifier(this.options.defaultSchema ?? this.options.schema));
    const full = parts.length === 3 ? parts : parts.length === 2 ? [database, ...parts] : [database, schema, ...parts];
    return full.join('.');
  }

  private helperView(cube: CompiledCube): HelperViewDdl | null {
    const sql = cube.sql!.trim().replace(/;\s*$/, '');
    const scan = scanSql(sql);
    if (scan.refs.length > 0 || scan.templated || scan.contextual) {
      this.fail('MODEL_PUSH_TEMPLATED_SQL', `the SQL of cube '${cube.name}' uses references or templating; a helper view needs plain SQL`, cube.name);
      return null;
    }
    if (!/^[A-Za-z_][\w$]*$/.test(cube.name)) {
      this.fail('MODEL_PUSH_HELPER_NAME', `cube '${cube.name}' cannot name a helper view`, cube.name);
      return null;
    }
    const name = `${HELPER_VIEW_PREFIX}${cube.name.toUpperCase()}`;
    const qualified = [this.options.database, this.options.helperSchema ?? 'PUBLIC', name].map((p) => writeIdentifier(storedIdentifier(p))).join('.');
    return { cube: cube.name, name, ddl: `CREATE OR REPLACE VIEW ${qualified} AS\n${sql}` };
  }

  private relationships(): RelationshipSpec[] {
    const out: RelationshipSpec[] = [];
    const names = new Set<string>();
    const done = new Set<string>();
    for (const path of this.view.joinPaths) {
      for (let i = 1; i < path.length; i++) {
        const from = this.byCube.get(path[i - 1]!);
        const to = this.byCube.get(path[i]!);
        if (!from || !to || done.has(`${from.cube.name}>${to.cube.name}`)) continue;
        done.add(`${from.cube.name}>${to.cube.name}`);
        const join = from.cube.joins.find((j) => j.name === to.cube.name);
        const where = `join '${from.cube.name}' → '${to.cube.name}'`;
        if (!join || !join.equi || join.equi.length !== 1) {
          this.fail('MODEL_PUSH_JOIN_NOT_EQUI', `${where} is not a single equality of columns`, `${from.cube.name}.${to.cube.name}`);
          continue;
        }
        // The "one" side is referenced, through its primary key.
        const referencedIsTarget = join.relationship !== 'one_to_many';
        const [referencing, referenced] = referencedIsTarget ? [from, to] : [to, from];
        const pair = join.equi[0]!;
        const referencingSide = referencedIsTarget ? pair.source : pair.target;
        const referencedSide = referencedIsTarget ? pair.target : pair.source;
        const column = this.joinColumn(referencing.cube, referencingSide);
        const pkColumn = referenced.cube.primaryKey ? columnOf(referenced.cube.dimensions[referenced.cube.primaryKey]?.sql) : null;
        const referencedColumn = this.joinColumn(referenced.cube, referencedSide);
        if (!column) {
          this.fail('MODEL_PUSH_JOIN_NOT_EQUI', `${where}: the '${referencing.cube.name}' side is an expression, not a column`, `${from.cube.name}.${to.cube.name}`);
          continue;
        }
        if (!pkColumn || !referencedColumn || referencedColumn.text !== pkColumn.text) {
          this.fail('MODEL_PUSH_JOIN_NOT_PRIMARY_KEY', `${where} does not reference the primary key of '${referenced.cube.name}'`, `${from.cube.name}.${to.cube.name}`);
          continue;
        }
        let name = `${referencing.cube.name}_to_${referenced.cube.name}`;
        for (let n = 2; names.has(name.toUpperCase()); n++) name = `${referencing.cube.name}_to_${referenced.cube.name}_${n}`;
        names.add(name.toUpperCase());
        out.push({ name: modelIdentifier(name), table: referencing.alias, columns: [column], refTable: referenced.alias, refColumns: [pkColumn] });
      }
    }
    return out;
  }

  private joinColumn(cube: CompiledCube, side: { member?: string; column?: string }): SqlIdentifier | null {
    if (side.member) return columnOf(cube.dimensions[side.member]?.sql);
    if (side.column) return columnOf(side.column);
    return null;
  }

  private sourceOf(member: ViewMember): { owner: CubeRef; dimension?: Dimension; measure?: Measure } | null {
    if (member.cube === this.view.name) {
      // A member the view defines itself belongs to the view's root table.
      const root = this.byCube.get(this.view.root ?? this.view.joinPaths[0]?.[0] ?? '');
      if (!root) return null;
      return { owner: root, dimension: this.view.dimensions[member.member], measure: this.view.measures[member.member] };
    }
    const owner = this.byCube.get(member.cube);
    if (!owner) return null;
    return { owner, dimension: owner.cube.dimensions[member.member], measure: owner.cube.measures[member.member] };
  }

  private comment(member: ViewMember, source: { description?: string } | undefined): { comment?: string } {
    const text = member.description ?? source?.description;
    return text ? { comment: text } : {};
  }

  private dimension(member: ViewMember): SemanticExpressionSpec | null {
    const source = this.sourceOf(member);
    if (!source?.dimension) {
      this.fail('MODEL_PUSH_UNKNOWN_MEMBER', `dimension '${member.name}' has no definition the push can read`, member.name);
      return null;
    }
    const expression = this.translate(source.dimension.sql ?? source.dimension.name, source.owner, member.name, new Set());
    if (expression === null) return null;
    return { table: source.owner.alias, name: modelIdentifier(member.name), expression, ...this.comment(member, source.dimension) };
  }

  private metric(member: ViewMember): SemanticExpressionSpec | null {
    const source = this.sourceOf(member);
    if (!source?.measure) {
      this.fail('MODEL_PUSH_UNKNOWN_MEMBER', `measure '${member.name}' has no definition the push can read`, member.name);
      return null;
    }
    const measure = source.measure;
    const argument = measure.sql === undefined ? null : this.translate(measure.sql, source.owner, member.name, new Set());
    if (measure.sql !== undefined && argument === null) return null;
    let expression: string;
    switch (measure.type) {
      case 'count':
        expression = argument === null ? 'COUNT(*)' : `COUNT(${argument})`;
        break;
      case 'count_distinct':
        if (argument === null) {
          this.fail('MODEL_PUSH_MEASURE_UNSUPPORTED', `measure '${member.name}' (count_distinct) has no SQL`, member.name);
          return null;
        }
        expression = `COUNT(DISTINCT ${argument})`;
        break;
      case 'sum':
      case 'avg':
      case 'min':
      case 'max':
        if (argument === null) {
          this.fail('MODEL_PUSH_MEASURE_UNSUPPORTED', `measure '${member.name}' (${measure.type}) has no SQL`, member.name);
          return null;
        }
        expression = `${measure.type.toUpperCase()}(${argument})`;
        break;
      default:
        this.fail('MODEL_PUSH_MEASURE_UNSUPPORTED', `measure '${member.name}' has type '${measure.type}'`, member.name);
        return null;
    }
    return { table: source.owner.alias, name: modelIdentifier(member.name), expression, ...this.comment(member, measure) };
  }

  /**
   * Model SQL → warehouse expression: `{CUBE}`/`CUBE.`/`{cube}` become table aliases and member
   * references are inlined (parenthesised) with their own SQL, since the semantic view holds only
   * the view's exposed members.
   */
  private translate(sql: string, owner: CubeRef, memberName: string, visiting: Set<string>): string | null {
    const scan = scanSql(sql);
    if (scan.templated || scan.contextual) {
      this.fail('MODEL_PUSH_TEMPLATED_SQL', `the SQL of '${memberName}' is templated`, memberName);
      return null;
    }
    let failed = false;
    const aliasOf = (cubeName: string): string | null => {
      const ref = cubeName === 'CUBE' || cubeName === 'TABLE' ? owner : this.byCube.get(cubeName);
      if (!ref) {
        failed = true;
        this.fail('MODEL_PUSH_REFERENCE', `the SQL of '${memberName}' references cube '${cubeName}', which is not joined in the view`, memberName);
        return null;
      }
      return writeIdentifier(ref.alias);
    };
    // `{CUBE}.column` / `{cube}.column`: a qualified name means a member of that table first, so a
    // column sharing its name with another member of the own table is written unqualified (column first).
    const columnRef = (cubeName: string, quote: string, column: string, whole: string): string => {
      const ref = cubeName === 'CUBE' || cubeName === 'TABLE' || cubeName === owner.cube.name ? owner : this.byCube.get(cubeName);
      if (!ref) return whole;
      const id: SqlIdentifier = quote ? { text: column, quoted: true } : { text: column, quoted: false };
      const written = writeIdentifier(id);
      const clashes = this.memberNames.get(ref.cube.name)?.has(resolvedName(id, this.qiic)) ?? false;
      if (clashes && ref === owner && resolvedName(id, this.qiic) !== resolvedName(modelIdentifier(memberName), this.qiic)) return written;
      return `${writeIdentifier(ref.alias)}.${written}`;
    };
    let out = sql.replace(/\{\s*([A-Za-z_]\w*)\s*\}\.("?)([A-Za-z_][\w$]*)\2/g, (whole, cubeName: string, quote: string, column: string) => {
      if (cubeName !== 'CUBE' && cubeName !== 'TABLE' && !this.byCube.has(cubeName)) return whole;
      if (cubeName !== 'CUBE' && cubeName !== 'TABLE' && owner.cube.dimensions[cubeName] !== undefined) return whole;
      return columnRef(cubeName, quote, column, whole);
    });
    out = out.replace(/(^|[^\w$."])(CUBE|TABLE)\.("?)([A-Za-z_][\w$]*)\3/g, (whole, before: string, cubeName: string, quote: string, column: string) =>
      `${before}${columnRef(cubeName, quote, column, whole.slice(before.length))}`,
    );
    out = out.replace(/\{([^{}]*)\}/g, (whole, inner: string) => {
      const path = inner.trim().split('.');
      // `{name}` is the cube's own member when it has one, else a cube.
      const ownMember = path.length === 1 && owner.cube.dimensions[path[0]!] !== undefined;
      if (path.length === 1 && !ownMember && (path[0] === 'CUBE' || path[0] === 'TABLE' || this.byCube.has(path[0]!))) return aliasOf(path[0]!) ?? whole;
      // {member} / {CUBE.member} / {cube.member}
      const [cubeName, name] = path.length === 1 ? ['CUBE', path[0]!] : path.length === 2 ? [path[0]!, path[1]!] : [null, null];
      if (cubeName === null || name === null || name.endsWith('()')) {
        failed = true;
        this.fail('MODEL_PUSH_REFERENCE', `the SQL of '${memberName}' uses '${whole}', which a semantic view cannot express`, memberName);
        return whole;
      }
      const target = cubeName === 'CUBE' || cubeName === owner.cube.name ? owner : this.byCube.get(cubeName);
      const dimension = target?.cube.dimensions[name];
      if (!target || !dimension) {
        failed = true;
        this.fail('MODEL_PUSH_REFERENCE', `the SQL of '${memberName}' references '${inner.trim()}', which is not a dimension of a cube in the view`, memberName);
        return whole;
      }
      const key = `${target.cube.name}.${name}`;
      if (visiting.has(key)) {
        failed = true;
        this.fail('MODEL_PUSH_REFERENCE', `the SQL of '${memberName}' references itself through '${key}'`, memberName);
        return whole;
      }
      const inner2 = this.translate(dimension.sql ?? dimension.name, target, memberName, new Set([...visiting, key]));
      if (inner2 === null) {
        failed = true;
        return whole;
      }
      return /^[\w$."]+$/.test(inner2) ? inner2 : `(${inner2})`;
    });
    return failed ? null : out.trim();
  }

  /** Names the warehouse stores must stay distinct; QUOTED_IDENTIFIERS_IGNORE_CASE folds quoted ones too. */
  private checkNames(tables: LogicalTableSpec[], relationships: RelationshipSpec[], members: SemanticExpressionSpec[]): void {
    const check = (kind: string, ids: SqlIdentifier[]) => {
      const seen = new Map<string, string>();
      for (const id of ids) {
        const stored = resolvedName(id, this.qiic);
        const previous = seen.get(stored);
        if (previous !== undefined && previous !== id.text) {
          this.fail(
            'IDENTIFIER_CASE_COLLISION',
            `${kind} names '${previous}' and '${id.text}' are both stored as ${stored}` +
              (this.qiic ? ' because the data source ignores the case of quoted identifiers (QUOTED_IDENTIFIERS_IGNORE_CASE)' : ''),
            id.text,
          );
        }
        seen.set(stored, id.text);
        if (this.qiic && id.quoted && id.text !== id.text.toUpperCase()) {
          this.warnings.push(
            `${kind} '${id.text}' is stored as ${stored}: the data source ignores the case of quoted identifiers (QUOTED_IDENTIFIERS_IGNORE_CASE), so a pull names it '${stored.toLowerCase()}'`,
          );
        }
      }
    };
    check('table', tables.map((t) => t.alias));
    check('relationship', relationships.map((r) => r.name));
    check('member', members.map((m) => m.name));
    if (this.qiic) {
      const quotedColumn = [...members.map((m) => m.expression), ...tables.flatMap((t) => t.primaryKey.filter((c) => c.quoted).map((c) => `"${c.text}"`))].find(
        (text) => /"[^"]*[a-z][^"]*"/.test(text) && /"[^"]*[A-Z][^"]*"/.test(text),
      );
      if (quotedColumn) {
        this.warnings.push(
          'the model quotes mixed-case column names, but the data source ignores the case of quoted identifiers (QUOTED_IDENTIFIERS_IGNORE_CASE): the warehouse resolves them upper-cased',
        );
      }
    }
  }
}

/**
 * The DDL that pushes `viewName` as a semantic view. Throws `SemanticViewDdlError` with the
 * analyzer's reasons when the view is not pushable.
 */
export function generateSemanticViewDdl(model: CompiledModel, viewName: string, options: SemanticViewDdlOptions): SemanticViewDdl {
  const view = model.views[viewName];
  if (!view) throw new SemanticViewDdlError('UNKNOWN_VIEW', `The model has no view named '${viewName}'.`);
  const analysis = options.analysis ?? analyzeWarehousePush(model, viewName);
  if (!analysis.pushable) {
    throw new SemanticViewDdlError(
      'MODEL_NOT_PUSHABLE',
      `View '${viewName}' cannot be pushed as a semantic view: ${analysis.issues.map((i) => i.message).join('; ')}.`,
      analysis.issues.map((i) => ({ code: i.reason ?? i.code, message: i.message, ...(i.member ? { member: i.member } : {}) })),
    );
  }
  const generated = new Generator(model, view, options).run();
  return { ...generated, skipped: analysis.skipped, skippedDetails: analysis.skippedDetails };
}
