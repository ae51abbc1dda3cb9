// A vendor statement's answer (`columns` + rows keyed by column) as the data preview's table and
// chart read results: columns with a kind and a type. Columns the comparison mapped to model members
// take the member's kind; the others are measures when every value is a number (Databricks names
// them `measure(x)`), times when every value reads as a date, dimensions otherwise.
import type { ResultColumnInfo } from '../../../../../src-shared/api/queries';
import type { ComparedColumn } from '../../../../../src-shared/model/query';

const TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function vendorColumns(columns: string[], rows: Record<string, unknown>[], mapped?: ComparedColumn[]): ResultColumnInfo[] {
  return columns.map((name) => {
    const member = mapped?.find((m) => m.column === name);
    const values = rows.map((r) => r[name]).filter((v) => v !== null && v !== undefined);
    const numeric = values.length > 0 && values.every((v) => typeof v === 'number' || (typeof v === 'string' && NUMBER.test(v)));
    const time = values.length > 0 && values.every((v) => typeof v === 'string' && TIME.test(v));
    const kind: ResultColumnInfo['kind'] = member ? member.kind : /^measure\(/i.test(name) || numeric ? 'measure' : 'dimension';
    const type = member ? member.type : time ? 'time' : numeric ? 'number' : 'string';
    return { key: name, title: name, kind: kind === 'dimension' && type === 'time' ? 'timeDimension' : kind, type };
  });
}
