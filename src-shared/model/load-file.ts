// Stages 1 and 2 for one file (parse, then normalize each definition), inside the bounds of
// MODEL_LIMITS (issue 23): a file too large is not read, a file that asks too much of the reader
// (alias expansion, nesting, values, strings built from constants) is stopped where it crosses the
// bound. Either way the answer is one diagnostic on that file and no definitions from it, so the
// rest of the model compiles as usual.

import { DiagnosticCodes as C } from './codes';
import type { FileState } from './compile-output';
import { isExhaustion, MODEL_LIMITS, ModelFileTooComplex } from './limits';
import { diag, emptyParsed } from './parse-common';
import { modelFormatOf, parseModelFile } from './parse';
import { normalizeEntity } from './schema';
import type { EntityDef } from './schema';
import type { Diagnostic, ModelFile, ModelFileInfo, ParsedFile } from './types';

const MIB = 1024 * 1024;

function refused(file: ModelFile, diagnostic: Diagnostic): FileState {
  const parsed = emptyParsed(file.path, modelFormatOf(file.path) ?? 'yaml');
  return { facts: factsOf(parsed), defs: [], diagnostics: [diagnostic] };
}

/** MODEL_FILE_TOO_LARGE for a file of `size` (characters, or bytes when it was not read). */
export function fileTooLarge(path: string, size: number, unit: 'characters' | 'bytes'): Diagnostic {
  return diag(
    'error',
    C.FILE_TOO_LARGE,
    `${path} has ${size.toLocaleString('en-US')} ${unit}; a model file may have at most ${MODEL_LIMITS.fileChars / MIB} MiB (${MODEL_LIMITS.fileChars.toLocaleString('en-US')} characters), so it is not read`,
    path,
    { line: 1, column: 1 },
  );
}

function tooComplex(path: string, error: Error): Diagnostic {
  const at = error instanceof ModelFileTooComplex ? { line: error.line, column: error.column } : { line: 1, column: 1 };
  const why = error instanceof ModelFileTooComplex ? error.message : `reading it exhausted the reader (${error.message})`;
  return diag('error', C.FILE_TOO_COMPLEX, `${path} is too complex to read: ${why}; none of its definitions are read`, path, at);
}

/** The first MODEL_LIMITS.fileDiagnostics problems of a file, and one more saying how many are not listed. */
function capped(path: string, diagnostics: Diagnostic[]): Diagnostic[] {
  const max = MODEL_LIMITS.fileDiagnostics;
  if (diagnostics.length <= max) return diagnostics;
  const kept = diagnostics.slice(0, max);
  kept.push(
    diag('error', C.TOO_MANY_DIAGNOSTICS, `${path} has ${(diagnostics.length - max).toLocaleString('en-US')} more problems than the ${max.toLocaleString('en-US')} listed`, path, {
      line: 1,
      column: 1,
    }),
  );
  return kept;
}

const factsOf = (parsed: ParsedFile): ModelFileInfo => ({
  format: parsed.format,
  templated: parsed.templated,
  dynamic: parsed.dynamic,
  opaqueDefinitions: parsed.opaqueDefinitions,
});

/** Parses and normalizes one model file within MODEL_LIMITS. */
export function loadModelFile(file: ModelFile): FileState {
  if (file.unreadBytes !== undefined) return refused(file, fileTooLarge(file.path, file.unreadBytes, 'bytes'));
  if (file.content.length > MODEL_LIMITS.fileChars) return refused(file, fileTooLarge(file.path, file.content.length, 'characters'));
  try {
    const parsed = parseModelFile(file);
    let diagnostics = parsed.diagnostics.slice();
    const defs: EntityDef[] = [];
    for (const raw of parsed.entities) {
      const { def, diagnostics: d } = normalizeEntity(raw, file.path, parsed.format, raw.templated ?? parsed.templated);
      defs.push(def);
      for (const x of d) diagnostics.push(x);
    }
    diagnostics = capped(file.path, diagnostics);
    return { facts: factsOf(parsed), defs, diagnostics };
  } catch (error) {
    if (!isExhaustion(error)) throw error;
    return refused(file, tooComplex(file.path, error));
  }
}
