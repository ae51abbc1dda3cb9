// The UI side of the compiler worker: a branch's files go in whole on load, then each edit goes in
// after a short pause in typing (the incremental compiler re-checks only what the edit touches).
import type { Diagnostic } from '../../../../src-shared/model';
import ModelWorker from './model.worker?worker';
import { applySymbolDelta, EMPTY_SYMBOLS, type AnalyzerSources, type CompilerRequest, type CompilerResponse, type ModelSymbols, type SourceFile } from './protocol';

/** Pause in typing before an edit is compiled. */
export const COMPILE_DEBOUNCE_MS = 150;

/**
 * A file that stopped parsing. A `{` typed before a reference (`{{CUBE}`) opens a Jinja expression,
 * and the file is then templated YAML that does not parse: one keystroke later it parses again.
 */
const SYNTAX_CODES = new Set(['MODEL_YAML_SYNTAX', 'MODEL_JS_SYNTAX', 'MODEL_TEMPLATED_UNPARSEABLE']);

export interface Analysis {
  diagnostics: Diagnostic[];
  symbols: ModelSymbols;
  valid: boolean;
  fileCount: number;
  elapsedMs: number;
  recheckedEntities: number;
  /** Edits not compiled yet (typing, or the worker busy). */
  pending: boolean;
  /** The compiler failed (a bug): diagnostics are those of the last good run. */
  failure: string | null;
  /** False until the first result of the current branch. */
  ready: boolean;
}

export const EMPTY_ANALYSIS: Analysis = { diagnostics: [], symbols: EMPTY_SYMBOLS, valid: true, fileCount: 0, elapsedMs: 0, recheckedEntities: 0, pending: false, failure: null, ready: false };

export class CompilerClient {
  private worker: Worker | null = null;
  private seq = 0;
  /** Results of requests before the last reset belong to another branch. */
  private resetSeq = 0;
  private lastSent = 0;
  private readonly queued = new Map<string, string | null>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private analysis: Analysis = EMPTY_ANALYSIS;

  constructor(private readonly publish: (analysis: Analysis) => void) {}

  /**
   * A branch was loaded: compile all of its files (saved content, unsaved buffers on top). A reload of
   * the same branch keeps showing the last results until the new ones arrive.
   */
  reset(files: SourceFile[], keepResults: boolean, sources: AnalyzerSources): void {
    this.cancelTimer();
    this.queued.clear();
    this.seq += 1;
    this.resetSeq = this.seq;
    this.analysis = keepResults ? { ...this.analysis, pending: true } : { ...EMPTY_ANALYSIS, pending: true };
    this.publish(this.analysis);
    this.post({ type: 'reset', seq: this.seq, files, sources });
  }

  /** The deployment's data sources became known after the last reset: every view is checked again with them. */
  setSources(sources: AnalyzerSources): void {
    this.seq += 1;
    if (!this.analysis.pending) this.update({ pending: true });
    this.post({ type: 'sources', seq: this.seq, sources });
  }

  /** A file's text changed (or it went away: null); compiled once typing pauses. */
  change(path: string, content: string | null): void {
    this.queued.set(path, content);
    if (!this.analysis.pending) this.update({ pending: true });
    this.cancelTimer();
    this.timer = setTimeout(() => this.flush(), COMPILE_DEBOUNCE_MS);
  }

  /** Compile queued edits now. */
  flush(): void {
    this.cancelTimer();
    if (this.queued.size === 0) return;
    const changes = [...this.queued].map(([path, content]) => ({ path, content }));
    this.queued.clear();
    this.seq += 1;
    this.post({ type: 'update', seq: this.seq, changes });
  }

  dispose(): void {
    this.cancelTimer();
    this.worker?.terminate();
    this.worker = null;
  }

  private post(request: CompilerRequest): void {
    if (!this.worker) {
      this.worker = new ModelWorker();
      this.worker.onmessage = (event: MessageEvent<CompilerResponse>) => this.receive(event.data);
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.update({ failure: `The compiler worker failed: ${event.message || 'it could not start'}.`, pending: false });
      };
    }
    this.lastSent = request.seq;
    this.worker.postMessage(request);
  }

  private receive(response: CompilerResponse): void {
    if (response.seq < this.resetSeq) return;
    const pending = response.seq < this.lastSent || this.queued.size > 0 || this.timer !== null;
    if (response.type === 'failure') {
      this.update({ failure: response.message, pending });
      return;
    }
    this.update({
      diagnostics: response.diagnostics,
      symbols: mergeSymbols(this.analysis.symbols, response.symbols, response.diagnostics),
      valid: response.valid,
      fileCount: response.fileCount,
      elapsedMs: response.elapsedMs,
      recheckedEntities: response.recheckedEntities,
      pending,
      failure: null,
      ready: true,
    });
  }

  private update(patch: Partial<Analysis>): void {
    this.analysis = { ...this.analysis, ...patch };
    this.publish(this.analysis);
  }

  private cancelTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * Applies a symbol delta, except that cubes and views of a file that stopped parsing are kept: while a
 * line is half-typed, completion and go to definition still know the file's names.
 */
export function mergeSymbols(previous: ModelSymbols, delta: Parameters<typeof applySymbolDelta>[1], diagnostics: Diagnostic[]): ModelSymbols {
  const broken = new Set(diagnostics.filter((d) => SYNTAX_CODES.has(d.code)).map((d) => d.file));
  if (broken.size === 0 || delta.full) return applySymbolDelta(previous, delta);
  const removed = delta.removed.filter((name) => !broken.has(previous.entities[name]?.loc.file ?? ''));
  return applySymbolDelta(previous, { ...delta, removed });
}
