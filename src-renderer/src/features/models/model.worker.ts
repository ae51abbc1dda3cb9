// The Models screen's compiler worker: the same data-model compiler the service runs, off the UI thread.
import { CompileSession } from './compile-session';
import type { CompilerRequest, CompilerResponse } from './protocol';

const session = new CompileSession();
const scope = self as unknown as { onmessage: ((event: MessageEvent<CompilerRequest>) => void) | null; postMessage(message: CompilerResponse): void };
let idle: ReturnType<typeof setTimeout> | null = null;

scope.onmessage = (event) => {
  const request = event.data;
  if (idle !== null) clearTimeout(idle);
  try {
    scope.postMessage(session.handle(request));
  } catch (error) {
    // A compiler bug must not leave the editor silently without diagnostics.
    scope.postMessage({ type: 'failure', seq: request.seq, message: error instanceof Error ? error.message : String(error) });
  }
  // After a branch loads, get the incremental compiler ready before the first keystroke needs it.
  if (!session.prepared) idle = setTimeout(() => session.prepare(), 50);
};
