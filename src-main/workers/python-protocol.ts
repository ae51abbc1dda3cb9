// The pipe between the service and its Python runner process (issue 23): one JSON object a line
// each way. The service writes run requests to the runner's stdin; the runner writes one `ready`
// line once Pyodide is loaded (or a `failed` line), then one reply per request, on its stdout.
// The runner is where untrusted code runs, so everything read from it is checked here before the
// service believes it: a line longer than LINE_CAP, a line that is not one of these shapes, or a
// reply nobody asked for means the runner is no longer trusted (the sandbox then ends it).

/** What a script printed, kept per stream (characters); the rest is cut and the cut is marked. */
export const OUTPUT_CAP = 64 * 1024;
/** The JSON of a script's `result`, at most (characters). */
export const RESULT_CAP = 1024 * 1024;
/** An error's message and its traceback, each at most (characters). */
export const TRACEBACK_CAP = 64 * 1024;
/** One line from the runner, at most (characters): a reply at its caps, with JSON escaping to spare. */
export const LINE_CAP = 8 * (RESULT_CAP + 2 * OUTPUT_CAP + 2 * TRACEBACK_CAP);

export interface RunRequest {
  /** Random per run: a reply is taken only for the run in flight, by its id. */
  id: string;
  code: string;
  /** Plain JSON values bound as Python globals (`filters`, `widget`). */
  globals: Record<string, unknown>;
}

export type RunReply =
  | { id: string; ok: true; resultJson: string | null; stdout: string; stderr: string }
  | {
      id: string;
      ok: false;
      /** The Python exception's type, or `ResultTooLarge`, or a JavaScript error's name. */
      errorType: string;
      message: string;
      traceback: string;
      stdout: string;
      stderr: string;
      /** The runtime itself failed (not the script): the runner must be replaced. */
      broken: boolean;
    };

export type RunnerMessage = { ready: true } | { ready: false; message: string } | RunReply;

export class ProtocolError extends Error {}

const isString = (value: unknown, cap: number): value is string => typeof value === 'string' && value.length <= cap;

/** Parses one line of the runner's stdout; anything off-shape is a ProtocolError. */
export function readRunnerMessage(line: string): RunnerMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ProtocolError('The Python runner wrote a line that is not JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ProtocolError('The Python runner wrote something other than an object.');
  const m = value as Record<string, unknown>;
  if ('ready' in m) {
    if (m.ready === true) return { ready: true };
    if (m.ready === false && isString(m.message, TRACEBACK_CAP)) return { ready: false, message: m.message };
    throw new ProtocolError('The Python runner wrote a malformed start message.');
  }
  const common = isString(m.id, 64) && isString(m.stdout, OUTPUT_CAP + 200) && isString(m.stderr, OUTPUT_CAP + 200);
  if (common && m.ok === true && (m.resultJson === null || isString(m.resultJson, RESULT_CAP))) {
    return { id: m.id as string, ok: true, resultJson: m.resultJson as string | null, stdout: m.stdout as string, stderr: m.stderr as string };
  }
  if (common && m.ok === false && isString(m.errorType, 200) && isString(m.message, TRACEBACK_CAP + 200) && isString(m.traceback, TRACEBACK_CAP + 200) && typeof m.broken === 'boolean') {
    return {
      id: m.id as string,
      ok: false,
      errorType: m.errorType as string,
      message: m.message as string,
      traceback: m.traceback as string,
      stdout: m.stdout as string,
      stderr: m.stderr as string,
      broken: m.broken,
    };
  }
  throw new ProtocolError('The Python runner wrote a malformed reply.');
}

/** Splits a byte stream into lines, refusing (ProtocolError) a line longer than `cap` characters. */
export class LineSplitter {
  private parts: string[] = [];
  private pendingLength = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly cap: number) {}

  push(chunk: Uint8Array): string[] {
    let text = this.decoder.decode(chunk, { stream: true });
    const lines: string[] = [];
    // Only the new text is searched for line ends, so a long line arriving in many chunks costs its length once.
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n')) {
      this.parts.push(text.slice(0, end));
      this.pendingLength += end;
      this.checkLength();
      lines.push(this.parts.join(''));
      this.parts = [];
      this.pendingLength = 0;
      text = text.slice(end + 1);
    }
    this.parts.push(text);
    this.pendingLength += text.length;
    this.checkLength();
    return lines;
  }

  private checkLength(): void {
    if (this.pendingLength > this.cap) throw new ProtocolError(`The Python runner wrote a line longer than ${this.cap} characters.`);
  }
}

/** `text` cut to `cap` characters, the cut marked. */
export function capped(text: string, cap: number): string {
  return text.length <= cap ? text : `${text.slice(0, cap)}\n… [output cut at ${cap} characters]\n`;
}
