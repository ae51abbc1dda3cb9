// The metric view definition as Drydock writes it (metric view specification version 1.1): the
// plain-object shape of `source`, `filter`, `joins`, `dimensions` and `measures`, and its
// rendering as YAML that a YAML 1.1 reader reads back unchanged (keys such as `on` quoted).

import { Document } from 'yaml';

export const METRIC_VIEW_SPEC_VERSION = '1.1';

export interface MetricViewJoinSpec {
  name: string;
  source: string;
  on: string;
  joins?: MetricViewJoinSpec[];
}

export interface MetricViewFieldSpec {
  name: string;
  expr: string;
  display_name?: string;
  comment?: string;
}

/** The definition as a plain object, keys in the order they are written. */
export interface MetricViewSpec {
  version: number;
  comment?: string;
  source: string;
  filter?: string;
  joins?: MetricViewJoinSpec[];
  dimensions: MetricViewFieldSpec[];
  measures: MetricViewFieldSpec[];
}

export interface MetricViewIssue {
  code: string;
  message: string;
  member?: string;
}

/** Renders a definition as YAML that YAML 1.1 readers (the lakehouse's) read back unchanged. */
export function renderMetricViewYaml(spec: MetricViewSpec): string {
  // Under the 1.1 schema, scalars like `on`, `yes` or `n` would read as booleans; they are quoted.
  const document = new Document(spec, { version: '1.1' });
  return document.toString({ lineWidth: 0, singleQuote: true, indentSeq: true });
}
