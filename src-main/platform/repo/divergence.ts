import { gitFs } from './durable-fs';
import git from 'isomorphic-git';

/** Commits only one side has: `ahead` (local only) and `behind` (upstream only). */
export interface Divergence {
  ahead: number;
  behind: number;
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  return git.isDescendent({ fs: gitFs, gitdir, oid: descendant, ancestor, depth: -1 });
}

const LOCAL = 1;
const UPSTREAM = 2;
const BOTH = LOCAL | UPSTREAM;

// Commits never change: a pair of heads always has the same answer.
const memo = new Map<string, Divergence>();
const MEMO_SIZE = 2000;

/**
 * Counts the commits each side has that the other lacks, like `git rev-list --left-right --count`.
 * Walks both histories newest first, painting each commit with the side(s) that reach it, and
 * stops once every commit still queued is reached by both (all older history is shared). Null
 * when the walk would exceed `limit` commits.
 */
export async function divergence(gitdir: string, local: string, upstream: string, limit = 20_000): Promise<Divergence | null> {
  if (local === upstream) return { ahead: 0, behind: 0 };
  const key = `${gitdir}\0${local}\0${upstream}`;
  const known = memo.get(key);
  if (known) return known;
  const cache = {};
  const flags = new Map<string, number>([
    [local, LOCAL],
    [upstream, UPSTREAM],
  ]);
  const times = new Map<string, number>();
  const parents = new Map<string, string[]>();
  const load = async (oid: string): Promise<void> => {
    if (times.has(oid)) return;
    const { commit } = await git.readCommit({ fs: gitFs, gitdir, oid, cache });
    times.set(oid, commit.committer.timestamp);
    parents.set(oid, commit.parent);
  };
  let queue: string[] = [local, upstream];
  await Promise.all(queue.map(load));
  let steps = 0;
  while (queue.length > 0 && queue.some((oid) => flags.get(oid) !== BOTH)) {
    if (++steps > limit) return null;
    // Newest first (ties by id, so the walk is deterministic).
    let best = 0;
    for (let i = 1; i < queue.length; i++) {
      const a = times.get(queue[i])!;
      const b = times.get(queue[best])!;
      if (a > b || (a === b && queue[i] > queue[best])) best = i;
    }
    const oid = queue[best];
    queue = queue.filter((_, i) => i !== best);
    const mark = flags.get(oid)!;
    for (const parent of parents.get(oid)!) {
      const before = flags.get(parent) ?? 0;
      const after = before | mark;
      if (after === before) continue;
      flags.set(parent, after);
      await load(parent);
      if (!queue.includes(parent)) queue.push(parent);
    }
  }
  let ahead = 0;
  let behind = 0;
  for (const mark of flags.values()) {
    if (mark === LOCAL) ahead++;
    else if (mark === UPSTREAM) behind++;
  }
  const result = { ahead, behind };
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, result);
  return result;
}
