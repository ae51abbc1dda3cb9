// YAML aliases for the raw tree (parse.ts), which expands them itself (issue 23): which node each
// alias names, and how many values a document makes once its aliases are expanded — counted on the
// document as written, in one pass, so a file whose aliases multiply ("billion laughs") is refused
// before any of the expansion is built.

import { isAlias, isMap, isScalar, isSeq, visit } from 'yaml';
import type { Alias, Document, Node as YamlNode } from 'yaml';

/**
 * Alias → the node it names: the last node before it (in document order) with that anchor, as
 * `Alias.resolve` finds it. That method walks the whole document for every alias; one walk for
 * all of them keeps a file of many aliases linear.
 */
export function aliasTargets(doc: Document): Map<Alias, YamlNode | undefined> {
  const targets = new Map<Alias, YamlNode | undefined>();
  const anchors = new Map<string, YamlNode>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) targets.set(node, anchors.get(node.source));
      else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  return targets;
}

/**
 * Values the raw tree of `root` holds once expanded (`nodes`), and how many of them come from
 * aliases (`aliased`). Counted as the converter builds: a scalar, list or map is one value, a
 * missing value none, an alias the values of what it names. An alias inside what it names never
 * ends: Infinity.
 */
export function expansionOf(root: YamlNode, targets: Map<Alias, YamlNode | undefined>): { nodes: number; aliased: number } {
  /** Values of a node's subtree, aliases followed; memoized per node, since aliases share subtrees. */
  const sizes = new Map<YamlNode, number>();
  const sizeOf = (node: YamlNode | null | undefined): number => {
    if (node == null) return 0;
    if (isAlias(node)) return sizeOf(targets.get(node));
    const known = sizes.get(node);
    if (known !== undefined) return known;
    sizes.set(node, Infinity); // met again before it is done: an alias inside its own anchor
    let size = 1;
    if (isSeq(node)) for (const item of node.items) size += sizeOf(item as YamlNode);
    else if (isMap(node)) for (const pair of node.items) size += sizeOf(pair.value as YamlNode | null);
    sizes.set(node, size);
    return size;
  };
  // Values from aliases: every alias written outside another alias brings what it names, expanded.
  let aliased = 0;
  const walk = (node: YamlNode | null | undefined): void => {
    if (node == null || isScalar(node)) return;
    if (isAlias(node)) aliased += sizeOf(targets.get(node));
    else if (isSeq(node)) for (const item of node.items) walk(item as YamlNode);
    else if (isMap(node)) for (const pair of node.items) walk(pair.value as YamlNode | null);
  };
  walk(root);
  return { nodes: sizeOf(root), aliased };
}
