// The Syncs screen's compile of a branch's views, off the UI thread: the same compiler the service
// runs, and at 10,000 cubes a compile takes seconds the window would otherwise freeze for.
import { compileModel, type ModelFile } from '../../../../src-shared/model';
import { viewsOf, type ViewsAnswer } from './views';

const scope = self as unknown as { onmessage: ((event: MessageEvent<ModelFile[]>) => void) | null; postMessage(message: ViewsAnswer): void };

scope.onmessage = (event) => {
  try {
    const compiled = compileModel(event.data);
    scope.postMessage({ views: viewsOf(compiled.model), errorCount: compiled.diagnostics.filter((d) => d.severity === 'error').length });
  } catch (error) {
    scope.postMessage({ failure: error instanceof Error ? error.message : String(error) });
  }
};
