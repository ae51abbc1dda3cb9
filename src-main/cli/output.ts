// What every command prints, and how failures end a command: `CODE: detail` on stderr and a
// non-zero exit; with --json, results and failures are single JSON documents on stdout.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isApiProblem } from '../../src-shared/api/client';

/** A failure the user can act on. `code` is stable (an API problem's code, or one of the CLI's own). */
export class CliError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly exitCode = 1,
    readonly extras: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'CliError';
  }
}

/** A failure printed as its message alone: `serve` keeps the messages it had before the other commands. */
export class PlainError extends CliError {}

/** Exit codes: 0 done; 1 a failure (problem, invalid model, failed job); 2 the input could not be read; 130 interrupted. */
export const ExitCodes = { OK: 0, FAILURE: 1, UNREADABLE: 2, INTERRUPTED: 130 } as const;

const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * A command's report: printed, or written to `output` (its folder made) with `summary` printed
 * instead — the log still shows what was found when the file carries a machine format.
 */
export async function writeReport(body: string, output: string | undefined, summary?: () => Promise<string>): Promise<void> {
  if (!output) {
    process.stdout.write(withNewline(body));
    return;
  }
  const target = resolve(output);
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, withNewline(body));
  } catch (error) {
    throw new CliError('OUTPUT_NOT_WRITABLE', `Could not write ${output}: ${(error as Error).message}`, ExitCodes.UNREADABLE);
  }
  if (summary) process.stdout.write(withNewline(await summary()));
}

export interface Output {
  readonly json: boolean;
  /** A line for people (suppressed with --json). */
  line(text?: string): void;
  /** The command's result as one JSON document (only with --json). */
  result(value: unknown): void;
  /** A note on stderr that never mixes with machine output. */
  note(text: string): void;
  table(rows: Record<string, unknown>[], columns: { key: string; title: string }[]): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    line(text = '') {
      if (!json) process.stdout.write(`${text}\n`);
    },
    result(value) {
      if (json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    note(text) {
      process.stderr.write(`${text}\n`);
    },
    table(rows, columns) {
      if (json) return;
      process.stdout.write(`${formatTable(rows, columns)}\n`);
    },
  };
}

/** Plain aligned columns (no borders): easy to read and to `grep`/`awk`. */
export function formatTable(rows: Record<string, unknown>[], columns: { key: string; title: string }[]): string {
  const cell = (value: unknown) => (value === null || value === undefined ? '-' : String(value));
  const widths = columns.map((c) => Math.max(c.title.length, ...rows.map((r) => cell(r[c.key]).length)));
  const render = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [render(columns.map((c) => c.title)), ...rows.map((r) => render(columns.map((c) => cell(r[c.key]))))].join('\n');
}

/** The stable code and message of any failure. */
export function describeFailure(error: unknown): { code: string; detail: string; exitCode: number; status?: number; errors?: unknown[] } {
  if (error instanceof CliError) return { code: error.code, detail: error.detail, exitCode: error.exitCode, ...error.extras };
  if (isApiProblem(error)) {
    return {
      code: error.code,
      detail: error.detail,
      exitCode: ExitCodes.FAILURE,
      status: error.status,
      ...(error.errors.length ? { errors: error.errors } : {}),
    };
  }
  return { code: 'INTERNAL', detail: error instanceof Error ? error.message : String(error), exitCode: ExitCodes.FAILURE };
}

/** Prints a failure (`CODE: detail` on stderr; also `{ "error": … }` on stdout with --json) and returns the exit code. */
export function reportFailure(error: unknown, json: boolean): number {
  if (error instanceof PlainError) {
    process.stderr.write(`${error.detail}\n`);
    return error.exitCode;
  }
  const { exitCode, ...failure } = describeFailure(error);
  // Field errors the detail does not already say, one per line under it.
  const fields = (failure.errors ?? []) as { pointer: string; detail: string }[];
  const extra = fields.filter((e) => !failure.detail.includes(e.detail)).map((e) => `\n  ${e.pointer}: ${e.detail}`);
  process.stderr.write(`${failure.code}: ${failure.detail}${extra.join('')}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: failure }, null, 2)}\n`);
  return exitCode;
}
