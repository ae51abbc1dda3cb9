import type { Plugin } from 'vite';

/** The main build's contract modules as data (see contract-snapshot.js). `dir`: src-shared/api. */
export function contractSnapshot(options: { root: string; dir: string }): Plugin;

export interface ContractSnapshot {
  /** An ES module exporting `m<i>$<name>` for each export `name` of `modules[i]`. */
  snapshotSource: string;
  /** The file name the snapshot module reads its data from, beside itself. */
  dataFile: string;
  /** That file's content (JSON). */
  data: string;
  /** The source the main build uses in place of each module of `modules` (by absolute path). */
  generated: Map<string, string>;
  /** The files of `dir` that build schemas, in the order of `m<i>`. */
  modules: string[];
}

/** The snapshot of the contract in `dir` as its sources are now. */
export function snapshotOf(root: string, dir: string): Promise<ContractSnapshot>;
