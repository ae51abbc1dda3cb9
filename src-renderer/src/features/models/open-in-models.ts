// "Open in Models" from other screens (a lakehouse run's blocked view, a push refusal): shows the
// deployment in Models and opens the file, at the first line that mentions `find` when given.
import { navigate } from '../../app/router';
import { useModels } from './store';

let pending: { deploymentId: number; path: string; find?: string } | null = null;

function reveal(path: string, find: string | undefined): boolean {
  const state = useModels.getState();
  const content = state.buffers[path] ?? state.saved[path];
  if (content === undefined) return false;
  const index = find ? content.split('\n').findIndex((line) => line.includes(find)) : -1;
  state.openFile(path, index >= 0 ? { line: index + 1, column: 1 } : undefined);
  return true;
}

export function openInModels(deploymentId: number, path: string, find?: string): void {
  pending = { deploymentId, path, find };
  navigate(`/models/${deploymentId}`);
  if (useModels.getState().deploymentId === deploymentId && reveal(path, find)) pending = null;
}

// Once the deployment's branch has loaded, open the file that was asked for.
useModels.subscribe((state) => {
  if (!pending || state.deploymentId !== pending.deploymentId || state.filesLoading) return;
  const { path, find } = pending;
  if (state.saved[path] === undefined && state.files.length === 0) return;
  pending = null;
  reveal(path, find);
});
