// The worker's state: the branch's model files (saved content with unsaved editor buffers on top) in
// the same compiler the service validates with, with the push/publish analyzers on.
import { compileModel, createIncrementalCompiler, isModelSourcePath, type CompileOptions, type CompiledCube, type CompiledModel, type CompiledView, type IncrementalCompiler } from '../../../../src-shared/model';
import { TestFileCheck } from './test-files';
import { cubeSymbol, entitiesOf, entityParts, packEntities, viewSymbol, type AnalyzerSources, type CompilerRequest, type CompilerResult, type SymbolDelta } from './protocol';

type EntityParts = ReturnType<typeof entityParts>;

/** The compile options for what is known of the data sources (see `AnalyzerSources`): while unknown, no analyzer runs. */
export function analyzerOptions(sources: AnalyzerSources): CompileOptions {
  if (sources.kind === 'known') return { analyzers: true, dataSources: sources.dataSources };
  return { analyzers: sources.kind === 'unreadable' };
}



export class CompileSession {
  /** Model source files by path (other files of the branch are not compiled, as on the service). */
  private readonly files = new Map<string, string>();
  /**
   * Built on the first edit after a reset (or when the worker is idle): feeding it file by file costs
   * more than one full compile, so a reset answers with `compileModel` and edits use this.
   */
  private incremental: IncrementalCompiler | null = null;
  /** Symbol of each compiled entity object (the compiler keeps the objects of entities it did not re-check). */
  private readonly symbolCache = new WeakMap<CompiledCube | CompiledView, { parts: EntityParts; json: string }>();
  /** JSON of the symbol last sent for each name, to send only what changed. */
  private sent = new Map<string, string>();
  /** The analyzers as set for the deployment's data sources by the last reset (or sources message). */
  private options: CompileOptions = { analyzers: true };
  /** The branch's model test files, checked against their schema and the model. */
  private readonly tests = new TestFileCheck();

  handle(request: CompilerRequest): CompilerResult {
    const started = performance.now();
    if (request.type === 'reset' || request.type === 'sources') {
      if (request.type === 'reset') {
        this.files.clear();
        for (const file of request.files) if (isModelSourcePath(file.path)) this.files.set(file.path, file.content);
        this.tests.reset(request.files);
      }
      this.incremental = null;
      this.options = analyzerOptions(request.sources);
      const result = compileModel(this.sources(), this.options);
      return this.answer(request.seq, result, entitiesOf(result.model).length, true, started);
    }
    let rechecked = 0;
    const compiler = this.incremental;
    for (const { path, content } of request.changes) {
      this.tests.change(path, content);
      const isSource = content !== null && isModelSourcePath(path);
      const known = this.files.has(path);
      if (!isSource && !known) continue;
      if (isSource) this.files.set(path, content);
      else this.files.delete(path);
      if (!compiler) continue;
      if (isSource) compiler.update({ path, content });
      else compiler.remove(path);
      rechecked += compiler.stats().lastRecheckedEntities;
    }
    if (!compiler) {
      this.prepare();
      rechecked = -1;
    }
    const result = this.incremental!.result();
    return this.answer(request.seq, result, rechecked < 0 ? entitiesOf(result.model).length : rechecked, false, started);
  }

  /** Builds the incremental compiler from the current files, if not built yet (call when idle). */
  prepare(): void {
    if (this.incremental) return;
    const compiler = createIncrementalCompiler(this.options);
    for (const file of this.sources()) compiler.update(file);
    this.incremental = compiler;
  }

  get prepared(): boolean {
    return this.incremental !== null;
  }

  private sources() {
    return [...this.files].map(([path, content]) => ({ path, content }));
  }

  private answer(seq: number, result: { diagnostics: CompilerResult['diagnostics']; model: CompiledModel; valid: boolean }, rechecked: number, full: boolean, started: number): CompilerResult {
    return {
      type: 'result',
      seq,
      diagnostics: [...result.diagnostics, ...this.tests.diagnostics(result.model)],
      symbols: this.symbolDelta(result.model, full),
      valid: result.valid,
      fileCount: this.files.size,
      recheckedEntities: rechecked,
      elapsedMs: performance.now() - started,
    };
  }

  private symbolDelta(model: CompiledModel, full: boolean): SymbolDelta {
    const next = new Map<string, string>();
    const changed: EntityParts[] = [];
    for (const entity of entitiesOf(model)) {
      let cached = this.symbolCache.get(entity);
      if (!cached) {
        const parts = entityParts(entity.kind === 'cube' ? cubeSymbol(entity) : viewSymbol(entity));
        // What is compared with the last result sent: the entity's fields, then its members' text.
        cached = { parts, json: `${JSON.stringify(parts.head)}${parts.members}` };
        this.symbolCache.set(entity, cached);
      }
      next.set(entity.name, cached.json);
      if (full || this.sent.get(entity.name) !== cached.json) changed.push(cached.parts);
    }
    const removed = full ? [] : [...this.sent.keys()].filter((name) => !next.has(name));
    this.sent = next;
    return { full, ...packEntities(changed), removed };
  }
}
export { isModelSourcePath };
