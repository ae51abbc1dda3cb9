// The compile pipeline with incremental re-checking. Every entity (cube, view, view group) caches its resolved
// shape and its diagnostics together with the names it read: shape dependencies (extends, the cubes of a view's
// join paths) and check dependencies (references, join targets). Editing one file invalidates the shapes of the
// names it defines and, transitively, of shapes built from them; then re-checks exactly the entities that read
// an invalidated shape. A full compile is the same engine with every entity dirty, so both give the same result.

import type { ModelLookup } from './analyze';
import { checkCube, checkView, checkViewGroup } from './check';
import type { CheckEnv } from './check';
import { analyzerDiagnostics } from './compile-analyzers';
import { assembleModel, compareDefs, compareDiagnostics, registryDiagnostics, type EntityState, type FileState, type GroupRegistry, type Registry } from './compile-output';
import { DiagnosticCodes as C } from './codes';
import { filesWithinModelLimits, MODEL_LIMITS } from './limits';
import { loadModelFile } from './load-file';
import { diag } from './parse-common';
import { modelFormatOf } from './parse';
import { resolveCube, resolveView } from './resolve';
import type { ResolveEnv } from './resolve';
import type { CubeDef, ViewDef, ViewGroupDef } from './schema';
import type { CompileOptions, CompileResult, CompileVerdict, Diagnostic, ModelFile } from './types';

const GROUP_PREFIX = '#group:';

export interface IncrementalCompiler {
  update(file: ModelFile): CompileResult;
  remove(path: string): CompileResult;
  /** Several files at once (`content: null` removes one), re-checking once for all of them. */
  apply(changes: FileChange[]): CompileResult;
  /**
   * Like `apply`, but answers only the verdict (diagnostics and validity) without assembling the
   * compiled model: what a validation needs, and at 1,000 cubes most of the cost of a one-file
   * re-check is building that model object.
   */
  check(changes: FileChange[]): CompileVerdict;
  result(): CompileResult;
  stats(): { lastRecheckedEntities: number };
}


/** A file's new content (null: the file is removed); `unreadBytes` as in ModelFile. */
export interface FileChange {
  path: string;
  content: string | null;
  unreadBytes?: number;
}

interface Source {
  content: string;
  unreadBytes?: number;
}

const sizeOf = (source: Source) => source.unreadBytes ?? source.content.length;

/** What a source adds to the model's size: a file too large on its own is refused and adds nothing. */
const countedSize = (source: Source) => {
  const size = sizeOf(source);
  return size > MODEL_LIMITS.fileChars ? 0 : size;
};

class Engine {
  /** The files compiled: every model file given, less those past the model's limits (see `leftOut`). */
  private readonly files = new Map<string, FileState>();
  /** Every model file given, compiled or not. */
  private readonly sources = new Map<string, Source>();
  /** Characters of all `sources` (files too large on their own not counted: they are refused anyway). */
  private sourceChars = 0;
  /** Files past MODEL_LIMITS.modelFiles / modelChars (in path order): not compiled, named in one diagnostic. */
  private leftOut: { paths: Set<string>; diagnostic: Diagnostic | null } = { paths: new Set(), diagnostic: null };
  /** Cube/view name → definitions, first one wins (ordered by file path, then position). */
  private readonly registry: Registry = new Map();
  private readonly groupRegistry: GroupRegistry = new Map();
  private readonly entities = new Map<string, EntityState>();
  private readonly shapeDependents = new Map<string, Set<string>>();
  private readonly checkDependents = new Map<string, Set<string>>();
  private readonly allJoinsReaders = new Set<string>();
  private opaqueProject = false;
  /** Files that may define names that cannot be read statically (kept as a count: an edit does not walk every file). */
  private opaqueFiles = 0;
  private lastRechecked = 0;
  private cached: CompileResult | null = null;
  private cachedVerdict: CompileVerdict | null = null;

  constructor(
    private readonly options: CompileOptions,
    private readonly hooks: CompilerHooks = {},
  ) {}

  stats() {
    return { lastRecheckedEntities: this.lastRechecked };
  }

  /** Replace (or, with null content, remove) files, then bring every cache up to date. */
  apply(changes: FileChange[]): void {
    const touched = new Set<string>();
    for (const { path, content, unreadBytes } of changes) {
      if (modelFormatOf(path) === null) continue;
      const old = this.sources.get(path);
      if (old && content !== null && old.content === content && old.unreadBytes === unreadBytes) continue;
      if (old) this.sourceChars -= countedSize(old);
      if (content === null) this.sources.delete(path);
      else {
        const source: Source = unreadBytes === undefined ? { content } : { content, unreadBytes };
        this.sources.set(path, source);
        this.sourceChars += countedSize(source);
      }
      touched.add(path);
    }
    // Files whose inclusion flips because the model crossed (or came back under) its limits.
    const leftOut = this.modelLimits();
    for (const path of this.leftOut.paths) if (!leftOut.paths.has(path)) touched.add(path);
    for (const path of leftOut.paths) if (!this.leftOut.paths.has(path)) touched.add(path);
    const before = this.leftOut.diagnostic;
    const diagnosticChanged = leftOut.diagnostic?.message !== before?.message || leftOut.diagnostic?.file !== before?.file;
    this.leftOut = leftOut;

    const changed = new Set<string>();
    for (const path of touched) {
      const old = this.files.get(path);
      if (old) {
        this.unregister(old, changed);
        this.files.delete(path);
        if (old.facts.opaqueDefinitions) this.opaqueFiles--;
      }
      const source = this.sources.get(path);
      if (!source || leftOut.paths.has(path)) continue;
      this.hooks.onRead?.(path);
      const state = loadModelFile({ path, ...source });
      this.files.set(path, state);
      if (state.facts.opaqueDefinitions) this.opaqueFiles++;
      this.register(state, changed);
    }
    if (touched.size > 0) this.hooks.onRead?.(null);
    if (touched.size === 0 && !diagnosticChanged && (this.cached || this.cachedVerdict)) {
      this.lastRechecked = 0;
      return;
    }
    this.cached = null;
    this.cachedVerdict = null;
    const opaque = this.opaqueFiles > 0;
    const everything = opaque !== this.opaqueProject;
    this.opaqueProject = opaque;
    this.recompute(changed, everything);
  }

  /** Which files the model's limits leave out; a sort by path only when the model is past one. */
  private modelLimits(): { paths: Set<string>; diagnostic: Diagnostic | null } {
    if (this.sources.size <= MODEL_LIMITS.modelFiles && this.sourceChars <= MODEL_LIMITS.modelChars) return { paths: new Set(), diagnostic: null };
    const paths = [...this.sources.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const { left, reason } = filesWithinModelLimits(paths.map((path) => ({ path, size: sizeOf(this.sources.get(path)!) })));
    if (left.length === 0) return { paths: new Set(), diagnostic: null };
    const first = left[0]!.path;
    const diagnostic = diag(
      'error',
      C.TOO_LARGE,
      `The model has ${reason}: ${left.length.toLocaleString('en-US')} files, from ${first} on in path order, are not read`,
      first,
      { line: 1, column: 1 },
    );
    return { paths: new Set(left.map((f) => f.path)), diagnostic };
  }

  private register(state: FileState, changed: Set<string>): void {
    for (const def of state.defs) {
      if (def.kind === 'view_group') {
        const list = this.groupRegistry.get(def.name) ?? [];
        list.push(def);
        list.sort(compareDefs);
        this.groupRegistry.set(def.name, list);
        changed.add(GROUP_PREFIX + def.name);
      } else {
        const list = this.registry.get(def.name) ?? [];
        list.push(def);
        list.sort(compareDefs);
        this.registry.set(def.name, list);
        changed.add(def.name);
      }
    }
  }

  private unregister(state: FileState, changed: Set<string>): void {
    for (const def of state.defs) {
      const key = def.kind === 'view_group' ? GROUP_PREFIX + def.name : def.name;
      const registry = def.kind === 'view_group' ? this.groupRegistry : this.registry;
      const list = (registry.get(def.name) ?? []).filter((d) => d !== def);
      if (list.length) registry.set(def.name, list as never);
      else registry.delete(def.name);
      changed.add(key);
    }
  }

  private winner(key: string): CubeDef | ViewDef | ViewGroupDef | undefined {
    if (key.startsWith(GROUP_PREFIX)) return this.groupRegistry.get(key.slice(GROUP_PREFIX.length))?.[0];
    return this.registry.get(key)?.[0];
  }

  private recompute(changed: Set<string>, everything: boolean): void {
    // Entity states follow the registry winners.
    for (const key of changed) {
      const def = this.winner(key);
      const state = this.entities.get(key);
      if (!def) {
        if (state) this.dropEntity(key, state);
        continue;
      }
      if (!state || state.def !== def) {
        if (state) this.dropEntity(key, state);
        this.entities.set(key, this.newEntity(def));
      }
    }

    // Shapes to rebuild: changed names and, transitively, shapes built from them.
    const shapeDirty = new Set<string>();
    if (everything) for (const key of this.entities.keys()) shapeDirty.add(key);
    const queue = [...changed, ...shapeDirty];
    for (const key of queue) shapeDirty.add(key);
    for (let i = 0; i < queue.length; i++) {
      const key = queue[i]!;
      const dependents = [...(this.shapeDependents.get(key) ?? [])];
      if (!key.startsWith(GROUP_PREFIX)) dependents.push(...this.allJoinsReaders);
      for (const d of dependents) {
        if (shapeDirty.has(d)) continue;
        shapeDirty.add(d);
        queue.push(d);
      }
    }
    for (const key of shapeDirty) {
      const state = this.entities.get(key);
      if (state) state.shapeValid = false;
    }

    // Entities to re-check: dirty shapes and every entity that read one.
    const recheck = new Set<string>();
    for (const key of shapeDirty) {
      if (this.entities.has(key)) recheck.add(key);
      for (const d of this.checkDependents.get(key) ?? []) if (this.entities.has(d)) recheck.add(d);
    }
    for (const key of shapeDirty) if (this.entities.has(key)) this.shapeOf(key);

    const ordered = [...recheck].sort((a, b) => this.rank(a) - this.rank(b) || (a < b ? -1 : 1));
    for (const key of ordered) this.check(key);
    if (this.options.analyzers) for (const key of ordered) if (this.entities.get(key)!.def.kind === 'view') this.analyze(key);
    this.lastRechecked = recheck.size;
  }

  private rank(key: string): number {
    const kind = this.entities.get(key)!.def.kind;
    return kind === 'cube' ? 0 : kind === 'view' ? 1 : 2;
  }

  private newEntity(def: CubeDef | ViewDef | ViewGroupDef): EntityState {
    return {
      def,
      shapeValid: false,
      resolving: false,
      shapeDiagnostics: [],
      shapeDeps: new Set(),
      readsAllJoins: false,
      checkDiagnostics: [],
      checkDeps: new Set(),
    };
  }

  private dropEntity(key: string, state: EntityState): void {
    this.unlink(key, state.shapeDeps, this.shapeDependents);
    this.unlink(key, state.checkDeps, this.checkDependents);
    this.allJoinsReaders.delete(key);
    this.entities.delete(key);
  }

  private unlink(key: string, deps: Set<string>, index: Map<string, Set<string>>): void {
    for (const dep of deps) {
      const set = index.get(dep);
      if (!set) continue;
      set.delete(key);
      if (set.size === 0) index.delete(dep);
    }
  }

  private link(key: string, deps: Set<string>, index: Map<string, Set<string>>): void {
    for (const dep of deps) {
      let set = index.get(dep);
      if (!set) index.set(dep, (set = new Set()));
      set.add(key);
    }
  }

  /** Resolved cube or view of a name, rebuilding it first when invalid. */
  private shapeOf(key: string): EntityState | undefined {
    const state = this.entities.get(key);
    if (!state) return undefined;
    if (state.shapeValid || state.resolving || state.def.kind === 'view_group') return state;
    state.resolving = true;
    this.unlink(key, state.shapeDeps, this.shapeDependents);
    state.shapeDeps = new Set();
    state.readsAllJoins = false;
    const env = this.resolveEnv(state);
    if (state.def.kind === 'cube') {
      const { cube, diagnostics } = resolveCube(state.def, env);
      state.cube = cube;
      state.shapeDiagnostics = diagnostics;
    } else {
      const { resolved, diagnostics } = resolveView(state.def, env);
      state.view = resolved;
      state.shapeDiagnostics = diagnostics;
    }
    state.shapeDeps.delete(key);
    this.link(key, state.shapeDeps, this.shapeDependents);
    if (state.readsAllJoins) this.allJoinsReaders.add(key);
    else this.allJoinsReaders.delete(key);
    state.resolving = false;
    state.shapeValid = true;
    return state;
  }

  private resolveEnv(state: EntityState): ResolveEnv {
    const deps = state.shapeDeps;
    return {
      opaqueProject: this.opaqueProject,
      definition: (name) => {
        deps.add(name);
        const def = this.registry.get(name)?.[0];
        return def;
      },
      cube: (name) => {
        deps.add(name);
        const s = this.shapeOf(name);
        return s?.def.kind === 'cube' ? s.cube : undefined;
      },
      joinTargets: () => {
        state.readsAllJoins = true;
        const graph = new Map<string, string[]>();
        // Sorted so that ties between equally short join chains break the same way in every run.
        for (const name of [...this.entities.keys()].sort()) {
          if (this.entities.get(name)!.def.kind !== 'cube') continue;
          const cube = this.shapeOf(name)?.cube;
          if (cube) graph.set(name, cube.joins.map((j) => j.name));
        }
        return graph;
      },
    };
  }

  private checkEnv(state: EntityState): CheckEnv {
    const deps = state.checkDeps;
    return {
      opaqueProject: this.opaqueProject,
      entity: (name) => {
        deps.add(name);
        const s = this.shapeOf(name);
        if (!s) return undefined;
        return s.def.kind === 'cube' ? s.cube : s.def.kind === 'view' ? s.view?.view : undefined;
      },
    };
  }

  private check(key: string): void {
    const state = this.entities.get(key)!;
    this.unlink(key, state.checkDeps, this.checkDependents);
    state.checkDeps = new Set();
    const env = this.checkEnv(state);
    const def = state.def;
    if (def.kind === 'cube') {
      const { cube, diagnostics } = checkCube(state.cube!, def, env);
      state.checkedCube = cube;
      state.checkDiagnostics = diagnostics;
    } else if (def.kind === 'view') {
      state.checkDiagnostics = checkView(state.view!, env);
    } else {
      state.checkDiagnostics = checkViewGroup(def, env);
    }
    state.checkDeps.delete(key);
    this.link(key, state.checkDeps, this.checkDependents);
  }



  /** Analyzer findings of a view, surfaced as warnings; reads are recorded as check dependencies. */
  private analyze(key: string): void {
    const state = this.entities.get(key)!;
    const deps = state.checkDeps;
    const lookup: ModelLookup = {
      cube: (name) => {
        deps.add(name);
        const s = this.entities.get(name);
        if (!s || s.def.kind !== 'cube') return undefined;
        // The checked cube also reflects what its own checks read (e.g. the joined cube's key columns).
        for (const d of s.checkDeps) deps.add(d);
        return s.checkedCube ?? s.cube;
      },
      view: (name) => {
        deps.add(name);
        const s = this.entities.get(name);
        return s?.def.kind === 'view' ? s.view?.view : undefined;
      },
    };
    const surfaced = analyzerDiagnostics(this.options, lookup, state.def.name);
    deps.delete(key);
    this.link(key, deps, this.checkDependents);
    state.checkDiagnostics = [...state.checkDiagnostics, ...surfaced];
  }

  verdict(): CompileVerdict {
    if (this.cachedVerdict) return this.cachedVerdict;
    const diagnostics: Diagnostic[] = [];
    // Most files and entities have none: skipping the empty lists keeps this pass cheap at 1,000s.
    // Loops, not push(...list): a list can be longer than a call may have arguments.
    const add = (list: Diagnostic[]) => {
      for (const d of list) diagnostics.push(d);
    };
    for (const f of this.files.values()) if (f.diagnostics.length > 0) add(f.diagnostics);
    if (this.leftOut.diagnostic) diagnostics.push(this.leftOut.diagnostic);
    add(registryDiagnostics(this.registry, this.groupRegistry));
    for (const state of this.entities.values()) {
      if (state.shapeDiagnostics.length > 0) add(state.shapeDiagnostics);
      if (state.checkDiagnostics.length > 0) add(state.checkDiagnostics);
    }
    diagnostics.sort(compareDiagnostics);
    this.cachedVerdict = { diagnostics, valid: !diagnostics.some((d) => d.severity === 'error') };
    return this.cachedVerdict;
  }

  result(): CompileResult {
    if (this.cached) return this.cached;
    const { diagnostics, valid } = this.verdict();
    this.cached = { model: assembleModel(this.registry, this.groupRegistry, this.entities, this.files), diagnostics, valid };
    return this.cached;
  }


}

/** What a caller may follow of a compile while it runs. */
export interface CompilerHooks {
  /**
   * Called before a file is read (parsed and normalized), and with null once every changed file
   * is read: a thread that dies of a file knows which one it was (issue 23).
   */
  onRead?: (path: string | null) => void;
}

export function createIncrementalCompiler(options: CompileOptions = {}, hooks: CompilerHooks = {}): IncrementalCompiler {
  const engine = new Engine(options, hooks);
  return {
    update(file) {
      engine.apply([{ path: file.path, content: file.content }]);
      return engine.result();
    },
    remove(path) {
      engine.apply([{ path, content: null }]);
      return engine.result();
    },
    apply(changes) {
      engine.apply(changes);
      return engine.result();
    },
    check(changes) {
      engine.apply(changes);
      return engine.verdict();
    },
    result() {
      return engine.result();
    },
    stats() {
      return engine.stats();
    },
  };
}

/**
 * The verdict of `files` (diagnostics and validity) without assembling the compiled model: what
 * a one-off validation (`drydock validate`) needs, for less time and memory than compileModel.
 */
export function checkModel(files: ModelFile[], options: CompileOptions = {}): CompileVerdict {
  const engine = new Engine(options);
  engine.apply(files);
  return engine.verdict();
}

export function compileModel(files: ModelFile[], options: CompileOptions = {}): CompileResult {
  const engine = new Engine(options);
  engine.apply(files);
  return engine.result();
}
