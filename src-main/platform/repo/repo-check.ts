/**
 * The check a repository gets when it is first opened after a run that did not stop cleanly (issue
 * 23): what was written since then is read back, what can be repaired is, the rest is reported.
 *
 * - Leftovers of interrupted writes go: temporary files (durable-fs.ts names), a pack without its
 *   index.
 * - Loose objects written since `since` (by modification time; all of them when `since` is null,
 *   up to `maxObjects`) are inflated and hashed. A damaged one is written again when `recover`
 *   knows its content (a blob still held as an uncommitted edit), else removed: a missing object is
 *   what git and every reader here understand, an empty file is not.
 * - Every ref is followed through the objects checked (older objects were whole when the last run
 *   ended and point only at older ones). A ref whose history reaches a missing object moves back to
 *   its newest whole head in its reflog or first-parent history; a remote-tracking ref without one
 *   is dropped (the next fetch brings it back); a branch without one is reported.
 * - Reflog lines naming an object that is not whole are dropped, so `git fsck` passes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fsyncDirectory, isLooseObject, looseObjectFile, writeFileDurably } from './durable-fs';
import { writeLooseBlob } from './loose-object';
import { INDEX_MAGIC } from './packed-object';
import { parseTreeObject } from './tree-object';
import { inflateAsync } from './zlib-async';

const ZERO_OID = '0'.repeat(40);
const OID = /^[0-9a-f]{40}$/;
/** Files changed this long before `since` are still checked (coarse file-system clocks). */
const CLOCK_SLACK_MS = 5_000;
/** Loose objects checked at most per repository and start; the rest is reported as not checked. */
export const DEFAULT_MAX_OBJECTS = 20_000;
/** First-parent steps looked back for a whole head. */
const MAX_STEPS_BACK = 1_000;
/** Objects inflated at once (libuv's thread pool has four threads). */
const LANES = 4;

export interface RepoCheckOptions {
  /** Check objects and refs changed from this time on (ms since the epoch); null: everything. */
  since: number | null;
  maxObjects?: number;
  /** The content of a blob, when known elsewhere (uncommitted edits kept in a database). */
  recover?: (oid: string) => Uint8Array | null;
  /**
   * git's own lock files (`refs/heads/main.lock`, `packed-refs.lock`…) older than this are left by
   * a writer that died (the run being checked): removed, or the next branch move would wait them out.
   */
  locksBefore?: number;
}

export interface RepoCheckReport {
  /** Loose objects read back. */
  checkedObjects: number;
  /** Loose objects left unchecked because of `maxObjects`. */
  uncheckedObjects: number;
  /** Damaged objects written again from a known content. */
  rewritten: string[];
  /** Damaged objects removed (nothing knew their content). */
  removed: string[];
  /** Temporary files and orphan packs removed. */
  leftovers: number;
  /** Refs moved back to a whole head. */
  movedBack: { ref: string; from: string; to: string }[];
  /** Remote-tracking refs dropped (no whole head known; the next fetch restores them). */
  dropped: string[];
  /** Refs still reaching a missing object: nothing whole to move them back to. */
  unrepaired: { ref: string; head: string; missing: string }[];
  durationMs: number;
}

interface Scan {
  /** Whole loose objects checked: id → the ids they point at. */
  links: Map<string, string[]>;
  /** Their files (made durable before anything new names them: the run that wrote them never flushed them). */
  files: string[];
  /** Loose object ids older than `since` (whole when the last clean run ended). */
  old: Set<string>;
  damaged: Set<string>;
  checked: number;
  unchecked: number;
}

/** Ids an object points at: a commit's tree and parents, a tree's entries (not submodules), a tag's target. */
function linksOf(type: string, content: Uint8Array): string[] {
  if (type === 'blob') return [];
  if (type === 'tree') return parseTreeObject(content).filter((e) => e.type !== 'commit').map((e) => e.oid);
  const text = Buffer.from(content).toString('utf8');
  const end = text.indexOf('\n\n');
  return (end < 0 ? text : text.slice(0, end))
    .split('\n')
    .map((line) => /^(?:tree|parent|object) ([0-9a-f]{40})$/.exec(line)?.[1])
    .filter((oid): oid is string => oid !== undefined);
}

/** The whole object in a loose file's bytes: its type and content, or null when it is not `oid`. */
async function readLoose(oid: string, bytes: Buffer): Promise<{ type: string; content: Uint8Array } | null> {
  if (bytes.length === 0) return null;
  try {
    const inflated = await inflateAsync(bytes);
    if (!isLooseObject(oid, inflated)) return null;
    const nul = inflated.indexOf(0);
    return { type: inflated.subarray(0, inflated.indexOf(0x20)).toString('latin1'), content: inflated.subarray(nul + 1) };
  } catch {
    return null;
  }
}

async function syncObjects(files: string[]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const handle = await fs.promises.open(file, 'r+').catch(() => null);
      if (!handle) continue;
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, files.length) }, lane));
  for (const dir of new Set(files.map((file) => dirname(file)))) await fsyncDirectory(dir);
}

function removeLeftovers(gitdir: string, locksBefore: number | undefined): number {
  let removed = 0;
  const rm = (file: string) => {
    try {
      fs.rmSync(file, { force: true });
      removed++;
    } catch {
      // still in use elsewhere: the next check takes it
    }
  };
  const temporary = /\.[0-9a-f]{16}\.lock$/;
  const staleLock = (path: string, name: string) =>
    locksBefore !== undefined && name.endsWith('.lock') && (fs.statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < locksBefore;
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 12) walk(path, depth + 1);
      } else if (temporary.test(entry.name) || entry.name.startsWith('tmp_obj_') || staleLock(path, entry.name)) rm(path);
    }
  };
  for (const name of fs.readdirSync(gitdir)) {
    const path = join(gitdir, name);
    if (temporary.test(name) || staleLock(path, name)) rm(path);
    else if (name === 'refs' || name === 'logs') walk(path, 0);
  }
  const objects = join(gitdir, 'objects');
  for (const name of safeReaddir(objects)) {
    if (/^[0-9a-f]{2}$/.test(name)) for (const file of safeReaddir(join(objects, name))) if (file.startsWith('tmp_obj_')) rm(join(objects, name, file));
  }
  // A pack is written, then its index: a pack without one was cut off (its objects come again with the next fetch).
  const packs = join(objects, 'pack');
  const packFiles = safeReaddir(packs);
  for (const name of packFiles) {
    if (temporary.test(name)) rm(join(packs, name));
    else if (name.endsWith('.pack') && !packFiles.includes(name.replace(/\.pack$/, '.idx'))) rm(join(packs, name));
    else if (name.endsWith('.idx') && !packFiles.includes(name.replace(/\.idx$/, '.pack'))) rm(join(packs, name));
  }
  return removed;
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

async function scanLooseObjects(gitdir: string, since: number | null, maxObjects: number): Promise<Scan> {
  const scan: Scan = { links: new Map(), files: [], old: new Set(), damaged: new Set(), checked: 0, unchecked: 0 };
  const objects = join(gitdir, 'objects');
  const queue: { oid: string; file: string }[] = [];
  for (const dir of safeReaddir(objects)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const name of safeReaddir(join(objects, dir))) {
      if (!/^[0-9a-f]{38}$/.test(name)) continue;
      const oid = dir + name;
      const file = join(objects, dir, name);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) continue;
      if (since !== null && st.mtimeMs < since - CLOCK_SLACK_MS && st.size > 0) scan.old.add(oid);
      else if (queue.length < maxObjects) queue.push({ oid, file });
      else scan.unchecked++;
    }
  }
  let next = 0;
  const lane = async () => {
    while (next < queue.length) {
      const { oid, file } = queue[next++]!;
      const object = await readLoose(oid, await fs.promises.readFile(file).catch(() => Buffer.alloc(0)));
      scan.checked++;
      if (!object) scan.damaged.add(oid);
      else {
        scan.links.set(oid, linksOf(object.type, object.content));
        scan.files.push(file);
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return scan;
}

/** Ids of the objects in the repository's packs (from their version-2 indexes). */
function packedObjects(gitdir: string): Set<string> {
  const ids = new Set<string>();
  const packs = join(gitdir, 'objects', 'pack');
  for (const name of safeReaddir(packs)) {
    if (!name.endsWith('.idx')) continue;
    const idx = fs.readFileSync(join(packs, name));
    if (idx.length < 8 + 256 * 4 || idx.readUInt32BE(0) !== INDEX_MAGIC || idx.readUInt32BE(4) !== 2) continue;
    const count = idx.readUInt32BE(8 + 255 * 4);
    const start = 8 + 256 * 4;
    for (let i = 0; i < count && start + (i + 1) * 20 <= idx.length; i++) ids.add(idx.toString('hex', start + i * 20, start + (i + 1) * 20));
  }
  return ids;
}

/** Every ref of the repository (loose files win over packed-refs): name → id. */
function readRefs(gitdir: string): Map<string, string> {
  const refs = new Map<string, string>();
  const packed = (() => {
    try {
      return fs.readFileSync(join(gitdir, 'packed-refs'), 'utf8');
    } catch {
      return '';
    }
  })();
  for (const line of packed.split('\n')) {
    const match = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line);
    if (match) refs.set(match[2]!, match[1]!);
  }
  const walk = (dir: string, name: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const ref = `${name}/${entry.name}`;
      if (entry.isDirectory()) walk(path, ref);
      else if (!entry.name.endsWith('.lock')) {
        const value = fs.readFileSync(path, 'utf8').trim();
        if (OID.test(value)) refs.set(ref, value);
      }
    }
  };
  if (fs.existsSync(join(gitdir, 'refs'))) walk(join(gitdir, 'refs'), 'refs');
  return refs;
}

/** Symbolic refs under refs/remotes (`refs/remotes/origin/HEAD` → `refs/remotes/origin/main`). */
function remoteSymrefs(gitdir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, name: string) => {
    for (const entry of safeDirents(dir)) {
      const path = join(dir, entry.name);
      const ref = `${name}/${entry.name}`;
      if (entry.isDirectory()) walk(path, ref);
      else if (!entry.name.endsWith('.lock')) {
        const match = /^ref: (refs\/\S+)\s*$/.exec(fs.readFileSync(path, 'utf8'));
        if (match) out.set(ref, match[1]!);
      }
    }
  };
  walk(join(gitdir, 'refs', 'remotes'), 'refs/remotes');
  return out;
}

/** Reflog entries of a ref, newest first: the heads it had. */
function reflogHeads(gitdir: string, ref: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(join(gitdir, 'logs', ...ref.split('/')), 'utf8');
  } catch {
    return [];
  }
  const heads: string[] = [];
  for (const line of text.split('\n').reverse()) {
    const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) /.exec(line);
    if (match) heads.push(match[2]!, match[1]!);
  }
  return heads.filter((oid) => oid !== ZERO_OID);
}

/**
 * Checks (and repairs what it can of) the bare repository at `gitdir`; see the module comment.
 * Meant to run while nothing else writes to the repository.
 */
export async function checkRepository(gitdir: string, options: RepoCheckOptions): Promise<RepoCheckReport> {
  const started = performance.now();
  const report: RepoCheckReport = { checkedObjects: 0, uncheckedObjects: 0, rewritten: [], removed: [], leftovers: 0, movedBack: [], dropped: [], unrepaired: [], durationMs: 0 };
  report.leftovers = removeLeftovers(gitdir, options.locksBefore);
  const scan = await scanLooseObjects(gitdir, options.since, options.maxObjects ?? DEFAULT_MAX_OBJECTS);
  report.checkedObjects = scan.checked;
  report.uncheckedObjects = scan.unchecked;
  // What the run being checked wrote may still sit in the page cache, never fsynced: make it durable now.
  await syncObjects(scan.files);

  for (const oid of scan.damaged) {
    const content = options.recover?.(oid) ?? null;
    const blobId = content ? createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex') : null;
    if (content && blobId === oid) {
      await writeLooseBlob(gitdir, content);
      scan.links.set(oid, []);
      report.rewritten.push(oid);
    } else {
      fs.rmSync(looseObjectFile(gitdir, oid), { force: true });
      report.removed.push(oid);
    }
  }
  const packed = packedObjects(gitdir);

  // Whole means: the object is there, and so is everything it points at.
  const whole = new Map<string, boolean>();
  const firstMissing = new Map<string, string>();
  const isWhole = (root: string): boolean => {
    const stack: { oid: string; expanded: boolean }[] = [{ oid: root, expanded: false }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (whole.has(frame.oid)) {
        stack.pop();
        continue;
      }
      const links = scan.links.get(frame.oid);
      if (links === undefined) {
        // Not read back now: whole if it is there (older than this run, packed, or past the limit), unless removed as damaged.
        const there = !scan.damaged.has(frame.oid) && (scan.old.has(frame.oid) || packed.has(frame.oid) || fs.existsSync(looseObjectFile(gitdir, frame.oid)));
        whole.set(frame.oid, there);
        if (!there) firstMissing.set(frame.oid, frame.oid);
        stack.pop();
        continue;
      }
      if (!frame.expanded) {
        frame.expanded = true;
        for (const link of links) if (!whole.has(link)) stack.push({ oid: link, expanded: false });
        continue;
      }
      const broken = links.find((link) => whole.get(link) === false);
      whole.set(frame.oid, broken === undefined);
      if (broken !== undefined) firstMissing.set(frame.oid, firstMissing.get(broken) ?? broken);
      stack.pop();
    }
    return whole.get(root) ?? false;
  };
  for (const [ref, head] of readRefs(gitdir)) {
    if (isWhole(head)) continue;
    const candidates = [...reflogHeads(gitdir, ref)];
    // First-parent history of the damaged head, when its commit can still be read.
    for (let at = scan.links.get(head), steps = 0; at && steps < MAX_STEPS_BACK; steps++) {
      const parent = at.length > 1 ? at[1] : undefined;
      if (!parent) break;
      candidates.push(parent);
      at = scan.links.get(parent);
    }
    const good = candidates.find((oid) => oid !== head && isWhole(oid));
    const refFile = join(gitdir, ...ref.split('/'));
    if (good) {
      await writeFileDurably(refFile, `${good}\n`);
      report.movedBack.push({ ref, from: head, to: good });
    } else if (ref.startsWith('refs/remotes/')) {
      fs.rmSync(refFile, { force: true });
      report.dropped.push(ref);
    } else {
      report.unrepaired.push({ ref, head, missing: firstMissing.get(head) ?? head });
    }
  }
  // A remote's HEAD names one of its branches: once that one is gone, so is the HEAD (git fsck fails on it).
  const refs = readRefs(gitdir);
  for (const [ref, target] of remoteSymrefs(gitdir)) {
    if (!refs.has(target)) {
      fs.rmSync(join(gitdir, ...ref.split('/')), { force: true });
      report.dropped.push(ref);
    }
  }
  if (report.movedBack.length > 0 || report.dropped.length > 0) await fsyncDirectory(join(gitdir, 'refs'));
  if (whole.size > 0) await pruneReflogs(gitdir, (oid) => oid === ZERO_OID || isWhole(oid));
  report.durationMs = performance.now() - started;
  return report;
}

/** Drops reflog lines that name an object `keep` refuses (git fsck fails on them). */
async function pruneReflogs(gitdir: string, keep: (oid: string) => boolean): Promise<void> {
  const walk = async (dir: string) => {
    for (const entry of safeDirents(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (!entry.name.endsWith('.lock')) {
        const text = fs.readFileSync(path, 'utf8');
        const lines = text.split('\n');
        const kept = lines.filter((line) => {
          const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) /.exec(line);
          return !match || (keep(match[1]!) && keep(match[2]!));
        });
        if (kept.length !== lines.length) await writeFileDurably(path, kept.join('\n'));
      }
    }
  };
  await walk(join(gitdir, 'logs'));
}

function safeDirents(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
