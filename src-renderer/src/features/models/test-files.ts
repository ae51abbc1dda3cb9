// The editor's check of model test files (`tests/*.yml`, issue 26), in the compiler worker: each file
// against the test file schema (an unknown key, a missing query, a fixture file that is not in the
// branch: each on its line) and each test's queries against the model being edited — the same check
// `drydock validate` and the service make, before anything runs.
import type { CompiledModel, Diagnostic } from '../../../../src-shared/model';
import { checkModelTests, isModelTestPath, parseTestFile, type ParsedTestFile } from '../../../../src-shared/model/tests';

export class TestFileCheck {
  /** Every path of the branch (fixture references are checked against them). */
  private readonly paths = new Set<string>();
  /** Test files: their text and, once parsed, what the parse found (parsed again only when the text changes). */
  private readonly files = new Map<string, { content: string; parsed: ParsedTestFile | null }>();

  reset(files: { path: string; content: string }[]): void {
    this.paths.clear();
    this.files.clear();
    for (const file of files) this.change(file.path, file.content);
  }

  change(path: string, content: string | null): void {
    const wasPath = this.paths.has(path);
    if (content === null) this.paths.delete(path);
    else this.paths.add(path);
    // A fixture that appears or goes away changes what the test files that name it say.
    if (wasPath !== (content !== null)) for (const file of this.files.values()) file.parsed = null;
    if (!isModelTestPath(path)) return;
    if (content === null) this.files.delete(path);
    else if (this.files.get(path)?.content !== content) this.files.set(path, { content, parsed: null });
  }

  diagnostics(model: CompiledModel): Diagnostic[] {
    if (this.files.size === 0) return [];
    const exists = (path: string) => this.paths.has(path);
    const parsed = [...this.files].map(([path, file]) => (file.parsed ??= parseTestFile({ path, content: file.content }, { exists })));
    return checkModelTests(model, parsed);
  }
}
