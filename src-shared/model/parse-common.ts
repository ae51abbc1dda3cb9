// What the YAML and JavaScript readers of stage 1 (parse.ts, parse-js.ts) both build on.
import type { Diagnostic, ModelFormat, ParsedFile, RawPos } from './types';

export function emptyParsed(path: string, format: ModelFormat): ParsedFile {
  return { path, format, templated: false, dynamic: false, opaqueDefinitions: false, diagnostics: [], entities: [] };
}

export function diag(
  severity: Diagnostic['severity'],
  code: string,
  message: string,
  file: string,
  pos: RawPos,
  extra?: Partial<Diagnostic>,
): Diagnostic {
  return { severity, code, message, file, line: pos.line, column: pos.column, ...extra };
}
