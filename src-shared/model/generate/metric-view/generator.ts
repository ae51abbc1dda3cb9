// The metric view generator proper: one model view becomes one definition. The view's join paths
// become a tree from the root cube (`source`, nested many-to-one `joins` named after the cubes),
// exposed dimensions and measures become fields whose model SQL is translated — `{CUBE}` and
// cube references to join names, member references inlined, bare columns qualified, quoted
// identifiers backticked. Anything it cannot represent is a blocked reason, never an exception.

import { DiagnosticCodes as C } from '../../codes';
import { plainColumn, scanSql } from '../../references';
import type { CompiledCube, CompiledModel, CompiledView, Dimension, Join, Measure, ViewMember } from '../../types';
import { METRIC_VIEW_SPEC_VERSION, type MetricViewFieldSpec, type MetricViewIssue, type MetricViewJoinSpec, type MetricViewSpec } from './spec';
import { dequote, identifier, parenthesize, qualifyColumns, rewrite, splitTableName, Unsupported } from './sql-text';

const AGGREGATE_TYPES = new Set(['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max']);

interface CubeNode {
  cube: CompiledCube;
  /** Join name (`source` for the root). */
  name: string;
  /** How expressions reach its columns: `source`, `a`, `a.b`. */
  path: string;
  parent: CubeNode | null;
  join: Join | null;
  children: CubeNode[];
}

export class Generator {
  readonly reasons: MetricViewIssue[] = [];
  private readonly nodes = new Map<string, CubeNode>();
  private root: CubeNode | null = null;

  constructor(
    private readonly model: CompiledModel,
    private readonly view: CompiledView,
    private readonly catalog: string | null,
    private readonly rootSource: string | null,
    private readonly withheld: Set<string>,
  ) {}

  private fail(code: string, message: string, member?: string): null {
    this.reasons.push({ code, message: `View '${this.view.name}': ${message}`, ...(member ? { member } : {}) });
    return null;
  }

  run(): MetricViewSpec | null {
    this.buildTree();
    const root = this.root;
    if (!root) return this.fail(C.PUBLISH_AMBIGUOUS_ROOT, 'it has no single root cube to read from');

    const source = this.rootSourceOf(root.cube);
    const joins = root.children.map((child) => this.joinSpec(child)).filter((j): j is MetricViewJoinSpec => j !== null);

    const dimensions: MetricViewFieldSpec[] = [];
    const measures: MetricViewFieldSpec[] = [];
    for (const member of Object.values(this.view.members)) {
      try {
        if (member.kind === 'dimension') dimensions.push(this.dimension(member));
        else if (member.kind === 'measure' && !this.withheld.has(member.name)) measures.push(this.measure(member));
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        this.fail(error.code, error.message, error.member ?? `${this.view.name}.${member.name}`);
      }
    }
    if (this.reasons.length > 0 || source === null) return null;
    if (dimensions.length === 0 && measures.length === 0) {
      return this.fail(C.PUBLISH_UNSUPPORTED, 'it exposes no dimension or measure that a metric view can publish');
    }
    const spec: MetricViewSpec = { version: Number(METRIC_VIEW_SPEC_VERSION), source: source.source, dimensions, measures };
    const comment = this.view.description ?? this.view.title;
    const ordered: MetricViewSpec = {
      version: spec.version,
      ...(comment ? { comment } : {}),
      source: source.source,
      ...(source.filter ? { filter: source.filter } : {}),
      ...(joins.length ? { joins } : {}),
      dimensions,
      measures,
    };
    return ordered;
  }

  /** The view's join paths as a tree from the root; each cube appears once (the analyzer blocks cycles). */
  private buildTree(): void {
    const used = new Set(['source']);
    const joinName = (cube: string): string => {
      let name = cube.toLowerCase() === 'source' ? `${cube}_cube` : cube;
      for (let n = 2; used.has(name.toLowerCase()); n++) name = `${cube}_${n}`;
      used.add(name.toLowerCase());
      return name;
    };
    for (const path of this.view.joinPaths) {
      let parent: CubeNode | null = null;
      for (const cubeName of path) {
        const cube = this.model.cubes[cubeName];
        if (!cube) {
          this.fail(C.UNKNOWN_CUBE, `its join path ${path.join('.')} names unknown cube '${cubeName}'`);
          return;
        }
        const existing = this.nodes.get(cubeName);
        if (existing) {
          parent = existing;
          continue;
        }
        if (parent === null) {
          if (this.root) {
            this.fail(C.PUBLISH_AMBIGUOUS_ROOT, `its join paths start from different cubes (${this.root.cube.name}, ${cubeName})`);
            return;
          }
          this.root = { cube, name: 'source', path: 'source', parent: null, join: null, children: [] };
          this.nodes.set(cubeName, this.root);
          parent = this.root;
          continue;
        }
        const join = parent.cube.joins.find((j) => j.name === cubeName) ?? null;
        if (!join) {
          this.fail(C.VIEW_JOIN_NOT_REPRESENTABLE, `cube '${parent.cube.name}' declares no join to '${cubeName}'`, `${parent.cube.name}.${cubeName}`);
          return;
        }
        const name = joinName(cubeName);
        const node: CubeNode = { cube, name, path: parent.parent === null ? name : `${parent.path}.${name}`, parent, join, children: [] };
        parent.children.push(node);
        this.nodes.set(cubeName, node);
        parent = node;
      }
    }
  }

  // ---- sources ----------------------------------------------------------------------------------------

  /** `source` (and `filter`) of the root: the override, the cube's table, or its SQL. */
  private rootSourceOf(cube: CompiledCube): { source: string; filter?: string } | null {
    if (this.rootSource) return { source: this.rootSource };
    const read = this.tableOrQuery(cube, true);
    return read;
  }

  private tableOrQuery(cube: CompiledCube, isRoot: boolean): { source: string; filter?: string } | null {
    if (cube.sqlTable) {
      const table = this.qualify(cube.sqlTable, cube);
      return table === null ? null : { source: table };
    }
    if (!cube.sql) return this.fail(C.PUBLISH_UNSUPPORTED, `cube '${cube.name}' has neither sql_table nor sql`, cube.name);
    const sql = cube.sql.trim().replace(/;\s*$/, '');
    const scan = scanSql(sql);
    if (scan.refs.length > 0 || scan.templated || scan.contextual) {
      return this.fail(C.PUBLISH_UNSUPPORTED, `the SQL of cube '${cube.name}' uses references or templating; a metric view source must be plain SQL`, cube.name);
    }
    // `SELECT * FROM table [WHERE condition]` reads the table itself; the condition becomes the view's filter.
    const simple = /^select\s+\*\s+from\s+((?:"(?:[^"]|"")+"|`(?:[^`]|``)+`|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"(?:[^"]|"")+"|`(?:[^`]|``)+`|[A-Za-z_][\w$]*)){0,2})\s*(?:where\s+([\s\S]+))?$/i.exec(sql);
    if (simple && (simple[2] === undefined || (isRoot && !/\b(group|order|limit|union|join|having|window|qualify)\b/i.test(simple[2])))) {
      const table = this.qualify(simple[1]!, cube);
      if (table === null) return null;
      if (simple[2] === undefined) return { source: table };
      const filter = qualifyColumns(dequote(simple[2].trim()), 'source');
      return { source: table, filter };
    }
    // Any other query is the source as it is, with its table names qualified by the catalog.
    let failed = false;
    const query = sql.replace(
      /\b(from|join)(\s+)((?:"(?:[^"]|"")+"|`(?:[^`]|``)+`|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"(?:[^"]|"")+"|`(?:[^`]|``)+`|[A-Za-z_][\w$]*)){0,2})/gi,
      (whole, keyword: string, space: string, name: string) => {
        if (name.trim().startsWith('(')) return whole;
        const parts = splitTableName(name);
        if (!parts || parts.length === 1) return whole; // a CTE name or a subquery alias
        const table = this.qualify(name, cube);
        if (table === null) failed = true;
        return `${keyword}${space}${table ?? name}`;
      },
    );
    return failed ? null : { source: dequote(query).replace(/\s*\n\s*/g, ' ').trim() };
  }

  /** `catalog.schema.table` for a model table name, or a blocked reason. */
  private qualify(name: string, cube: CompiledCube): string | null {
    const parts = splitTableName(name.trim());
    if (!parts || parts.length > 3) return this.fail(C.PUBLISH_UNSUPPORTED, `cube '${cube.name}' reads '${name}', which is not a table name`, cube.name);
    if (parts.length === 3) return parts.map(identifier).join('.');
    if (parts.length === 2) {
      if (!this.catalog) {
        return this.fail(
          C.PUBLISH_CATALOG_REQUIRED,
          `cube '${cube.name}' reads two-part source '${name.trim()}' but the data source has no catalog setting`,
          cube.name,
        );
      }
      return [this.catalog, ...parts].map(identifier).join('.');
    }
    return this.fail(C.PUBLISH_UNSUPPORTED, `cube '${cube.name}' reads '${name.trim()}' without a schema; name the table as schema.table or catalog.schema.table`, cube.name);
  }

  private joinSpec(node: CubeNode): MetricViewJoinSpec | null {
    const join = node.join!;
    const parent = node.parent!;
    const where = `join '${parent.cube.name}' → '${node.cube.name}'`;
    if (join.relationship === 'one_to_many') {
      return this.fail(C.VIEW_JOIN_NOT_REPRESENTABLE, `${where} is one-to-many; metric views join many-to-one or one-to-one only`, `${parent.cube.name}.${node.cube.name}`);
    }
    if (!join.equi || join.equi.length === 0) {
      return this.fail(C.VIEW_JOIN_NOT_REPRESENTABLE, `${where} is not an equality join`, `${parent.cube.name}.${node.cube.name}`);
    }
    const read = this.tableOrQuery(node.cube, false);
    if (read === null) return null;
    if (read.filter) return this.fail(C.PUBLISH_UNSUPPORTED, `cube '${node.cube.name}' filters its rows; only the root may`, node.cube.name);
    // In `on`, the parent is named by its own join name (`source` for the root).
    const parentName = parent.parent === null ? 'source' : parent.name;
    const conditions: string[] = [];
    for (const pair of join.equi) {
      try {
        const left = this.joinSide(parent, parentName, pair.source, join);
        const right = this.joinSide(node, node.name, pair.target, join);
        conditions.push(`${left} = ${right}`);
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        return this.fail(C.VIEW_JOIN_NOT_REPRESENTABLE, `${where}: ${error.message}`, `${parent.cube.name}.${node.cube.name}`);
      }
    }
    const children = node.children.map((child) => this.joinSpec(child)).filter((j): j is MetricViewJoinSpec => j !== null);
    return { name: node.name, source: read.source, on: conditions.join(' AND '), ...(children.length ? { joins: children } : {}) };
  }

  private joinSide(node: CubeNode, name: string, side: { member?: string; column?: string }, join: Join): string {
    if (side.member) {
      const dimension = node.cube.dimensions[side.member];
      if (!dimension) throw new Unsupported(C.VIEW_JOIN_NOT_REPRESENTABLE, `'${node.cube.name}.${side.member}' is not a dimension`);
      return this.translate(dimension.sql ?? dimension.name, node, name, 'dimension', new Set([`${node.cube.name}.${side.member}`]));
    }
    if (side.column) return `${name}.${identifier(side.column)}`;
    throw new Unsupported(C.VIEW_JOIN_NOT_REPRESENTABLE, `cannot read a column from '${join.sql}'`);
  }

  // ---- members -------------------------------------------------------------------------------------------

  /** The cube node and definition a view member reads; members the view defines belong to the root. */
  private sourceOf(member: ViewMember): { node: CubeNode; dimension?: Dimension; measure?: Measure } {
    if (member.cube === this.view.name) {
      return { node: this.root!, dimension: this.view.dimensions[member.member], measure: this.view.measures[member.member] };
    }
    const node = this.nodes.get(member.cube);
    if (!node) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `member '${member.name}' comes from cube '${member.cube}', which is not on the view's join paths`);
    return { node, dimension: node.cube.dimensions[member.member], measure: node.cube.measures[member.member] };
  }

  private metadata(member: ViewMember, source: { title?: string; description?: string } | undefined): Pick<MetricViewFieldSpec, 'display_name' | 'comment'> {
    const title = member.title ?? source?.title;
    const description = member.description ?? source?.description;
    return { ...(title ? { display_name: title } : {}), ...(description ? { comment: description } : {}) };
  }

  private dimension(member: ViewMember): MetricViewFieldSpec {
    const { node, dimension } = this.sourceOf(member);
    if (!dimension) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `dimension '${member.name}' has no definition that can be read`);
    if (dimension.type === 'geo' || dimension.type === 'switch' || dimension.case !== undefined) {
      throw new Unsupported(C.PUBLISH_UNSUPPORTED, `dimension '${member.name}' has type '${dimension.type}'${dimension.case !== undefined ? ' with a case definition' : ''}, which a metric view cannot represent`);
    }
    const key = `${node.cube.name}.${dimension.name}`;
    const expr = this.translate(dimension.sql ?? dimension.name, node, node.path, 'dimension', new Set([key]));
    return { name: member.name, expr, ...this.metadata(member, dimension) };
  }

  private measure(member: ViewMember): MetricViewFieldSpec {
    const { node, measure } = this.sourceOf(member);
    if (!measure) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `measure '${member.name}' has no definition that can be read`);
    const expr = this.aggregate(measure, node, new Set([`${node.cube.name}.${measure.name}`]));
    return { name: member.name, expr, ...this.metadata(member, measure) };
  }

  /** The aggregate expression of a measure: `SUM(x)`, `COUNT(DISTINCT x)`, … with its filters. */
  private aggregate(measure: Measure, node: CubeNode, visiting: Set<string>): string {
    const label = `measure '${node.cube.name}.${measure.name}'`;
    if (measure.multiStage || measure.rollingWindow || measure.type === 'rank' || measure.type === 'number_agg') {
      throw new Unsupported(C.PUBLISH_UNSUPPORTED, `${label} is a ${measure.rollingWindow ? 'rolling window' : measure.type === 'rank' ? 'ranking' : 'multi-stage'} calculation`);
    }
    // Inside SUM(…) and the like only dimensions may be referenced; other types are aggregate expressions themselves.
    const context = AGGREGATE_TYPES.has(measure.type) ? 'dimension' : 'measure';
    const argument = measure.sql === undefined ? null : this.translate(measure.sql, node, node.path, context, visiting);
    const filters = measure.filters.map((f) => this.translate(f.sql, node, node.path, 'dimension', visiting));
    const filterClause = filters.length ? ` FILTER (WHERE ${filters.map((f) => (filters.length > 1 ? `(${f})` : f)).join(' AND ')})` : '';
    const needArgument = (): string => {
      if (argument === null) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `${label} (${measure.type}) has no SQL`);
      return argument;
    };
    switch (measure.type) {
      case 'count':
        return `COUNT(${argument ?? '1'})${filterClause}`;
      case 'count_distinct':
        return `COUNT(DISTINCT ${needArgument()})${filterClause}`;
      case 'count_distinct_approx':
        return `APPROX_COUNT_DISTINCT(${needArgument()})${filterClause}`;
      case 'sum':
      case 'avg':
      case 'min':
      case 'max':
        return `${measure.type.toUpperCase()}(${needArgument()})${filterClause}`;
      default:
        // number, string, time, boolean: the SQL is itself an aggregate expression (member references inlined).
        if (filters.length) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `${label} of type '${measure.type}' has filters`);
        return needArgument();
    }
  }

  // ---- expressions -----------------------------------------------------------------------------------------

  /**
   * Model SQL of a member of `node` → metric view expression. `prefix` reaches the node's columns
   * (its path in fields, its join name in `on`). Dimension references are inlined; measure
   * references (in measures) are inlined as their aggregate.
   */
  private translate(sql: string, node: CubeNode, prefix: string, context: 'dimension' | 'measure', visiting: Set<string>): string {
    const scan = scanSql(sql);
    if (scan.templated || scan.contextual) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `the SQL '${sql}' is templated or uses context variables`);
    // A plain column always belongs to the cube, whatever its name.
    const plain = plainColumn(sql);
    if (plain !== null && !sql.includes('{')) return `${prefix}.${identifier(plain)}`;
    const prefixOf = (cube: CubeNode) => (cube === node ? prefix : cube.path);
    return rewrite(sql, {
      reference: (inner) => {
        const path = inner.trim().split('.');
        const last = path[path.length - 1]!;
        if (last.endsWith('()') || /\.sql\(\)$/.test(inner.trim())) {
          throw new Unsupported(C.PUBLISH_UNSUPPORTED, `'{${inner}}' reuses another cube's SQL, which a metric view cannot express`);
        }
        // {CUBE}, {TABLE}, {cube}: a cube's columns follow.
        if (path.length === 1) {
          const name = path[0]!;
          const own = node.cube.dimensions[name] ?? node.cube.measures[name];
          if (!own) {
            if (name === 'CUBE' || name === 'TABLE' || name === node.cube.name) return prefix;
            const other = this.nodes.get(name);
            if (other) return prefixOf(other);
            throw new Unsupported(C.PUBLISH_UNSUPPORTED, `'{${inner}}' names neither a member of '${node.cube.name}' nor a cube of the view`);
          }
        }
        const cubeName = path.length === 1 ? node.cube.name : path[path.length - 2]!;
        const target = cubeName === 'CUBE' || cubeName === 'TABLE' || cubeName === node.cube.name ? node : this.nodes.get(cubeName);
        if (!target) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `'{${inner}}' refers to cube '${cubeName}', which is not joined in the view`);
        const key = `${target.cube.name}.${last}`;
        if (visiting.has(key)) throw new Unsupported(C.PUBLISH_UNSUPPORTED, `'{${inner}}' refers back to itself`);
        const next = new Set([...visiting, key]);
        const dimension = target.cube.dimensions[last];
        if (dimension) {
          const expr = this.translate(dimension.sql ?? dimension.name, target, prefixOf(target), 'dimension', next);
          return parenthesize(expr);
        }
        const measure = target.cube.measures[last];
        if (measure && context === 'measure') return parenthesize(this.aggregate(measure, target, next));
        throw new Unsupported(C.PUBLISH_UNSUPPORTED, `'{${inner}}' is not a ${context === 'measure' ? 'dimension or measure' : 'dimension'} of '${target.cube.name}'`);
      },
      column: (name) => `${prefix}.${name}`,
      qualifier: (name) => {
        if (name === 'CUBE' || name === 'TABLE') return prefix;
        const other = this.nodes.get(name);
        return other ? prefixOf(other) : name;
      },
    });
  }
}
