// The semantic view generator proper: every cube on the view's join paths becomes a logical
// table (aliased by the cube name, with its single-column primary key; SQL-defined cubes read
// through a helper view), every join along those paths a relationship to the referenced table's
// primary key, every exposed dimension a DIMENSION and every exposed measure an aggregate METRIC,
// with member SQL translated to table aliases and inlined member references. Stored names must
// stay distinct under the data source's case folding.

import { scanSql } from '../../references';
import type { CompiledCube, CompiledModel, CompiledView, Dimension, Measure, ViewMember } from '../../types';
import { renderSemanticView, type LogicalTableSpec, type RelationshipSpec, type SemanticExpressionSpec, type SemanticViewSpec } from './definition';
import { columnOf, modelIdentifier, resolvedName, splitQualifiedName, storedIdentifier, warehouseIdentifier, writeIdentifier, type SqlIdentifier } from './identifiers';
import { HELPER_VIEW_PREFIX, SemanticViewDdlError, type HelperViewDdl, type SemanticViewDdl, type SemanticViewDdlOptions } from './result';

interface CubeRef {
  cube: CompiledCube;
  alias: SqlIdentifier;
}

export class Generator {
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
      ...this.instructions(),
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

  /** The Cortex Analyst instructions a view keeps in `meta` (`ai_sql_generation`, `ai_question_categorization`). */
  private instructions(): { aiSqlGeneration?: string; aiQuestionCategorization?: string } {
    const meta = this.view.meta;
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return {};
    const text = (key: string): string | undefined => {
      const value = (meta as Record<string, unknown>)[key];
      return typeof value === 'string' && value.trim() !== '' ? value : undefined;
    };
    const sql = text('ai_sql_generation');
    const questions = text('ai_question_categorization');
    return { ...(sql ? { aiSqlGeneration: sql } : {}), ...(questions ? { aiQuestionCategorization: questions } : {}) };
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
    const name = `${this.options.helperNamePrefix ?? ''}${HELPER_VIEW_PREFIX}${cube.name.toUpperCase()}`;
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
    if (member.cube === this.view.name && measure.type === 'number' && measure.sql !== undefined) {
      const derived = this.derivedMetric(measure.sql);
      if (derived !== null) return { table: null, name: modelIdentifier(member.name), expression: derived, ...this.comment(member, measure) };
    }
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
   * A measure the view defines that only combines measures the view exposes (`{cube.measure}`)
   * is a derived metric: the references become the exposed metrics (`alias.name`). Null when the
   * SQL reads anything else.
   */
  private derivedMetric(sql: string): string | null {
    const scan = scanSql(sql);
    if (scan.templated || scan.contextual) return null;
    let combinesOnlyMeasures = true;
    const expression = sql.replace(/\{([^{}]*)\}/g, (whole, inner: string) => {
      const [cubeName, name, ...rest] = inner.trim().split('.');
      const exposed = rest.length === 0 && name !== undefined ? Object.values(this.view.members).find((m) => m.kind === 'measure' && m.cube === cubeName && m.member === name) : undefined;
      const owner = exposed ? this.byCube.get(exposed.cube) : undefined;
      if (!exposed || !owner) {
        combinesOnlyMeasures = false;
        return whole;
      }
      return `${writeIdentifier(owner.alias)}.${writeIdentifier(modelIdentifier(exposed.name))}`;
    });
    return combinesOnlyMeasures && expression !== sql ? expression.trim() : null;
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
