/**
 * Snowflake data types as the emulator reports them in DESCRIBE's DATA_TYPE: synonyms folded to
 * the canonical spelling (INT -> NUMBER(38,0), STRING -> VARCHAR(16777216), ...), and a small
 * inference over expressions so facts, dimensions and metrics carry a plausible type.
 */
import type { ExpressionNode } from './ddl-parser';

export const MAX_VARCHAR = 16777216;
/** What the emulator reports for an expression whose type it does not derive. */
export const UNKNOWN_TYPE = 'VARIANT';

/** Canonical Snowflake spelling of a type name, or null when it is not a Snowflake type. */
export function normalizeDataType(text: string): string | null {
  const match = /^\s*([A-Za-z_][A-Za-z0-9_ ]*?)\s*(?:\(\s*([0-9]+)\s*(?:,\s*([0-9]+)\s*)?\))?\s*$/.exec(text);
  if (!match) return null;
  const name = match[1].toUpperCase().replace(/\s+/g, ' ');
  const first = match[2] === undefined ? undefined : Number(match[2]);
  const second = match[3] === undefined ? undefined : Number(match[3]);
  switch (name) {
    case 'NUMBER':
    case 'DECIMAL':
    case 'DEC':
    case 'NUMERIC': {
      const precision = first ?? 38;
      const scale = second ?? 0;
      if (precision < 1 || precision > 38 || scale > precision) return null;
      return `NUMBER(${precision},${scale})`;
    }
    case 'INT':
    case 'INTEGER':
    case 'BIGINT':
    case 'SMALLINT':
    case 'TINYINT':
    case 'BYTEINT':
      return first === undefined ? 'NUMBER(38,0)' : null;
    case 'FLOAT':
    case 'FLOAT4':
    case 'FLOAT8':
    case 'DOUBLE':
    case 'DOUBLE PRECISION':
    case 'REAL':
      return 'FLOAT';
    case 'VARCHAR':
    case 'STRING':
    case 'TEXT':
    case 'NVARCHAR':
    case 'NVARCHAR2':
    case 'CHAR VARYING':
    case 'CHARACTER VARYING':
    case 'NCHAR VARYING':
      return `VARCHAR(${first ?? MAX_VARCHAR})`;
    case 'CHAR':
    case 'CHARACTER':
    case 'NCHAR':
      return `VARCHAR(${first ?? 1})`;
    case 'BOOLEAN':
      return 'BOOLEAN';
    case 'DATE':
      return 'DATE';
    case 'TIME':
      return `TIME(${first ?? 9})`;
    case 'DATETIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_NTZ':
    case 'TIMESTAMP WITHOUT TIME ZONE':
      return `TIMESTAMP_NTZ(${first ?? 9})`;
    case 'TIMESTAMP_LTZ':
    case 'TIMESTAMP WITH LOCAL TIME ZONE':
      return `TIMESTAMP_LTZ(${first ?? 9})`;
    case 'TIMESTAMP_TZ':
    case 'TIMESTAMP WITH TIME ZONE':
      return `TIMESTAMP_TZ(${first ?? 9})`;
    case 'VARIANT':
    case 'OBJECT':
    case 'ARRAY':
    case 'GEOGRAPHY':
    case 'GEOMETRY':
      return first === undefined ? name : null;
    case 'BINARY':
    case 'VARBINARY':
      return `BINARY(${first ?? 8388608})`;
    default:
      return null;
  }
}

function numberParts(type: string | null): { precision: number; scale: number } | null {
  const match = type ? /^NUMBER\((\d+),(\d+)\)$/.exec(type) : null;
  return match ? { precision: Number(match[1]), scale: Number(match[2]) } : null;
}

const isFloat = (type: string | null): boolean => type === 'FLOAT';
const isTemporal = (type: string | null): boolean => !!type && /^(DATE|TIME|TIMESTAMP_)/.test(type);

/** Functions whose result type does not depend on their arguments. */
const FIXED_RESULT: Record<string, string> = {
  COUNT: 'NUMBER(18,0)',
  COUNT_IF: 'NUMBER(18,0)',
  APPROX_COUNT_DISTINCT: 'NUMBER(18,0)',
  HLL: 'NUMBER(18,0)',
  LENGTH: 'NUMBER(18,0)',
  LEN: 'NUMBER(18,0)',
  YEAR: 'NUMBER(4,0)',
  QUARTER: 'NUMBER(1,0)',
  MONTH: 'NUMBER(2,0)',
  WEEK: 'NUMBER(2,0)',
  WEEKOFYEAR: 'NUMBER(2,0)',
  DAY: 'NUMBER(2,0)',
  DAYOFMONTH: 'NUMBER(2,0)',
  DAYOFWEEK: 'NUMBER(1,0)',
  DAYOFYEAR: 'NUMBER(3,0)',
  HOUR: 'NUMBER(2,0)',
  MINUTE: 'NUMBER(2,0)',
  SECOND: 'NUMBER(2,0)',
  EXTRACT: 'NUMBER(9,0)',
  DATE_PART: 'NUMBER(9,0)',
  DATEDIFF: 'NUMBER(18,0)',
  TIMEDIFF: 'NUMBER(18,0)',
  TIMESTAMPDIFF: 'NUMBER(18,0)',
  TO_DATE: 'DATE',
  DATE: 'DATE',
  TRY_TO_DATE: 'DATE',
  CURRENT_DATE: 'DATE',
  LAST_DAY: 'DATE',
  TO_TIMESTAMP: 'TIMESTAMP_NTZ(9)',
  TO_TIMESTAMP_NTZ: 'TIMESTAMP_NTZ(9)',
  TO_TIMESTAMP_LTZ: 'TIMESTAMP_LTZ(9)',
  TO_TIMESTAMP_TZ: 'TIMESTAMP_TZ(9)',
  CURRENT_TIMESTAMP: 'TIMESTAMP_LTZ(9)',
  CONCAT: `VARCHAR(${MAX_VARCHAR})`,
  CONCAT_WS: `VARCHAR(${MAX_VARCHAR})`,
  LISTAGG: `VARCHAR(${MAX_VARCHAR})`,
  TO_VARCHAR: `VARCHAR(${MAX_VARCHAR})`,
  TO_CHAR: `VARCHAR(${MAX_VARCHAR})`,
  UPPER: `VARCHAR(${MAX_VARCHAR})`,
  LOWER: `VARCHAR(${MAX_VARCHAR})`,
  INITCAP: `VARCHAR(${MAX_VARCHAR})`,
  TRIM: `VARCHAR(${MAX_VARCHAR})`,
  LTRIM: `VARCHAR(${MAX_VARCHAR})`,
  RTRIM: `VARCHAR(${MAX_VARCHAR})`,
  SUBSTR: `VARCHAR(${MAX_VARCHAR})`,
  SUBSTRING: `VARCHAR(${MAX_VARCHAR})`,
  LEFT: `VARCHAR(${MAX_VARCHAR})`,
  RIGHT: `VARCHAR(${MAX_VARCHAR})`,
  REPLACE: `VARCHAR(${MAX_VARCHAR})`,
  MONTHNAME: 'VARCHAR(3)',
  DAYNAME: 'VARCHAR(3)',
  TO_BOOLEAN: 'BOOLEAN',
  BOOLAND_AGG: 'BOOLEAN',
  BOOLOR_AGG: 'BOOLEAN',
  ARRAY_AGG: 'ARRAY',
  OBJECT_AGG: 'OBJECT',
  STDDEV: 'FLOAT',
  STDDEV_POP: 'FLOAT',
  STDDEV_SAMP: 'FLOAT',
  VARIANCE: 'FLOAT',
  VAR_POP: 'FLOAT',
  VAR_SAMP: 'FLOAT',
  CORR: 'FLOAT',
};

/** Functions returning the type of their first argument. */
const SAME_AS_FIRST_ARG = new Set(['MIN', 'MAX', 'ANY_VALUE', 'MODE', 'ABS', 'COALESCE', 'IFNULL', 'NVL', 'NULLIF', 'ZEROIFNULL', 'DATEADD', 'TIMEADD', 'TIMESTAMPADD', 'LAG', 'LEAD', 'FIRST_VALUE', 'LAST_VALUE', 'NTH_VALUE']);

/**
 * Infers an expression's Snowflake type. `columnType` resolves a column reference (to a base
 * column or to another fact, dimension or metric); null means "not known".
 */
export function inferDataType(expr: ExpressionNode, columnType: (node: Extract<ExpressionNode, { kind: 'column' }>) => string | null): string | null {
  const infer = (node: ExpressionNode): string | null => inferDataType(node, columnType);
  switch (expr.kind) {
    case 'column':
      return columnType(expr);
    case 'literal':
      if (expr.type === 'string') return `VARCHAR(${Math.max(1, expr.value.length)})`;
      if (expr.type === 'boolean') return 'BOOLEAN';
      if (expr.type === 'number') {
        if (/[eE]/.test(expr.value)) return 'FLOAT';
        const [whole, fraction = ''] = expr.value.split('.');
        const digits = whole.replace(/^0+/, '').length + fraction.length;
        return `NUMBER(${Math.min(38, Math.max(1, digits))},${fraction.length})`;
      }
      return null;
    case 'keyword':
      return null;
    case 'interval':
      return null;
    case 'cast':
      return normalizeDataType(expr.type);
    case 'predicate':
      return 'BOOLEAN';
    case 'unary':
      return expr.op === 'NOT' ? 'BOOLEAN' : infer(expr.operand);
    case 'case': {
      for (const branch of [...expr.whens.map((w) => w.then), ...(expr.otherwise ? [expr.otherwise] : [])]) {
        const type = infer(branch);
        if (type) return type;
      }
      return null;
    }
    case 'binary': {
      if (['AND', 'OR', '=', '<>', '!=', '<', '>', '<=', '>='].includes(expr.op)) return 'BOOLEAN';
      if (expr.op === '||') return `VARCHAR(${MAX_VARCHAR})`;
      const left = infer(expr.left);
      const right = infer(expr.right);
      if ((expr.op === '+' || expr.op === '-') && isTemporal(left)) return left;
      if (isFloat(left) || isFloat(right)) return 'FLOAT';
      const l = numberParts(left);
      const r = numberParts(right);
      if (!l || !r) return null;
      if (expr.op === '+' || expr.op === '-') return `NUMBER(38,${Math.max(l.scale, r.scale)})`;
      if (expr.op === '*') return `NUMBER(38,${Math.min(37, l.scale + r.scale)})`;
      if (expr.op === '/') return `NUMBER(38,${Math.min(37, Math.max(6, l.scale))})`;
      return `NUMBER(38,${Math.max(l.scale, r.scale)})`;
    }
    case 'call': {
      if (FIXED_RESULT[expr.name]) return FIXED_RESULT[expr.name];
      const first = expr.args.find((arg) => arg.kind !== 'keyword');
      const firstType = first ? infer(first) : null;
      if (expr.name === 'SUM') {
        if (isFloat(firstType)) return 'FLOAT';
        const parts = numberParts(firstType);
        return parts ? `NUMBER(38,${parts.scale})` : null;
      }
      if (expr.name === 'AVG' || expr.name === 'MEDIAN') {
        if (isFloat(firstType)) return 'FLOAT';
        const parts = numberParts(firstType);
        return parts ? `NUMBER(38,${Math.min(37, parts.scale + (expr.name === 'AVG' ? 6 : 3))})` : null;
      }
      if (expr.name === 'ROUND' || expr.name === 'TRUNC' || expr.name === 'TRUNCATE') {
        if (isTemporal(firstType)) return firstType;
        const scaleArg = expr.args[1];
        const scale = scaleArg?.kind === 'literal' && scaleArg.type === 'number' ? Number(scaleArg.value) : 0;
        return isFloat(firstType) ? 'FLOAT' : `NUMBER(38,${Math.max(0, Math.min(37, scale))})`;
      }
      if (expr.name === 'DATE_TRUNC' || expr.name === 'TIME_SLICE') {
        const value = expr.args.find((arg, index) => index > 0 && arg.kind !== 'keyword');
        return value ? infer(value) : null;
      }
      if (expr.name === 'IFF' && expr.args.length === 3) return infer(expr.args[1]) ?? infer(expr.args[2]);
      if (SAME_AS_FIRST_ARG.has(expr.name)) {
        if (expr.name === 'DATEADD' || expr.name === 'TIMEADD' || expr.name === 'TIMESTAMPADD') return expr.args[2] ? infer(expr.args[2]) : null;
        for (const arg of expr.args) {
          const type = infer(arg);
          if (type) return type;
        }
        return null;
      }
      return null;
    }
  }
}
