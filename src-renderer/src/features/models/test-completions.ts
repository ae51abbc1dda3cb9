// Completion in model test files (`tests/*.yml`, issue 26): the keys the test file schema allows where
// the cursor is (with their descriptions), the REST query keys under `query`, and `cube.member` names
// in the lists of members (`measures`, `dimensions`, `not_null`…). The schema is the one the service,
// `drydock test` and the editor's check hold the files to.
import {
  MODEL_TEST_FILE_SCHEMA,
  type SchemaNode,
} from "../../../../src-shared/model/tests";
import type { Completions, Suggestion } from "./completion-types";
import { yamlContextAt } from "./language";
import type { ModelSymbols } from "./protocol";

/** The query keys (the schema takes any query; the model checks it). */
const QUERY_KEYS: [string, string][] = [
  ["measures", "Measures to compute: `cube.measure` or `view.measure`"],
  ["dimensions", "Dimensions to group by"],
  ["timeDimensions", "Time dimensions with a granularity and a date range"],
  ["filters", "Filters on members: `{ member, operator, values }`"],
  ["segments", "Segments to apply"],
  ["order", "Order of the rows: `[[member, asc|desc]]`"],
  ["limit", "Rows at most"],
  ["offset", "Rows to skip"],
];

/** Lists of member names, and the kinds of member each takes (all when absent). */
const MEMBER_LISTS: Record<string, string[] | undefined> = {
  measures: ["measure"],
  dimensions: ["dimension"],
  segments: ["segment"],
  not_null: undefined,
  unique: undefined,
};
const QUERY_KEYS_AT = new Set(["query"]);

/** The schema node the keys of `path` lead to (list items are walked through). */
function nodeAt(path: string[]): SchemaNode | "query" | null {
  let node: SchemaNode | undefined = MODEL_TEST_FILE_SCHEMA;
  for (const key of path) {
    if (QUERY_KEYS_AT.has(key) && node?.properties?.[key]) return "query";
    node = node?.properties?.[key];
    if (node?.items && !node.properties) node = node.items;
    if (!node) return null;
  }
  return node;
}

const key = (
  name: string,
  documentation: string | undefined,
  i: number,
): Suggestion => ({
  label: name,
  kind: "key",
  insertText: `${name}: `,
  documentation,
  sortText: `${name === "name" ? 0 : 1}${String(i).padStart(3, "0")}`,
});

function memberNames(symbols: ModelSymbols, kinds?: string[]): Suggestion[] {
  return Object.values(symbols.entities).flatMap((entity) =>
    entity.members
      .filter((m) => !kinds || kinds.includes(m.kind))
      .map((m) => ({
        label: `${entity.name}.${m.name}`,
        kind: m.kind,
        insertText: `${entity.name}.${m.name}`,
        detail: `${m.kind}${m.type ? ` · ${m.type}` : ""} of ${entity.name}`,
        sortText: `${entity.kind === "view" ? 1 : 2}${entity.name}.${m.name}`,
      })),
  );
}

export function testFileCompletions(
  text: string,
  lineNumber: number,
  column: number,
  symbols: ModelSymbols,
): Completions | null {
  const ctx = yamlContextAt(text, lineNumber, column);
  if (!ctx) return null;
  if (ctx.kind === "item")
    return ctx.parentKey in MEMBER_LISTS
      ? {
          suggestions: memberNames(symbols, MEMBER_LISTS[ctx.parentKey]),
          startColumn: ctx.startColumn,
        }
      : null;
  if (ctx.kind === "value")
    return ctx.key === "member" || ctx.key === "reference"
      ? { suggestions: memberNames(symbols), startColumn: ctx.startColumn }
      : null;
  const node = nodeAt(ctx.path);
  if (node === "query")
    return {
      suggestions: QUERY_KEYS.filter(
        ([name]) => !ctx.siblings.includes(name),
      ).map(([name, doc], i) => key(name, doc, i)),
      startColumn: ctx.startColumn,
    };
  if (!node?.properties) return null;
  const suggestions = Object.entries(node.properties)
    .filter(([name]) => !ctx.siblings.includes(name))
    .map(([name, child], i) => key(name, child.description, i));
  return { suggestions, startColumn: ctx.startColumn };
}
