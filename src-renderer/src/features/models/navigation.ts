// Go back / go forward across the files of the Models screen (Alt+Left / Alt+Right): each jump — a
// file opened from the tree or quick open, go to definition, a reference, a problem — records the
// place it left, as an editor's navigation history does. The history belongs to one branch.
import { create } from 'zustand';
import { useModels } from './store';

export interface Place {
  path: string;
  line: number;
  column: number;
}

interface NavigationState {
  back: Place[];
  forward: Place[];
  /** The quick open list (Ctrl/Cmd+P) is shown. */
  quickOpen: boolean;
}

const LIMIT = 50;

export const useNavigation = create<NavigationState>(() => ({ back: [], forward: [], quickOpen: false }));

export const openQuickOpen = () => useNavigation.setState({ quickOpen: true });
export const closeQuickOpen = () => useNavigation.setState({ quickOpen: false });

/** Where the cursor is in the open file; the editor registers it (line 1 before it has loaded). */
let currentPlace: () => Place | null = () => {
  const path = useModels.getState().openPath;
  return path ? { path, line: 1, column: 1 } : null;
};

export function registerCursor(read: () => Place | null): () => void {
  const previous = currentPlace;
  currentPlace = read;
  return () => {
    currentPlace = previous;
  };
}

/** Where the cursor is now (the open file's first line until the editor has loaded). */
export const currentPlaceOf = (): Place | null => currentPlace();

const same = (a: Place | null, b: Place) => a !== null && a.path === b.path && a.line === b.line;

/** Opens `path` (at a place) and remembers where the user was, unless that is the same line. */
export function goTo(path: string, at?: { line: number; column: number }): void {
  const here = currentPlace();
  const target = { path, line: at?.line ?? 1, column: at?.column ?? 1 };
  if (here && !same(here, target) && !(at === undefined && here.path === path)) {
    useNavigation.setState((s) => ({ back: [...s.back, here].slice(-LIMIT), forward: [] }));
  }
  useModels.getState().openFile(path, at);
}

function step(from: 'back' | 'forward'): void {
  const s = useNavigation.getState();
  const stack = s[from];
  const files = useModels.getState().saved;
  // Places in files deleted since are skipped.
  let index = stack.length - 1;
  while (index >= 0 && files[stack[index]!.path] === undefined) index--;
  if (index < 0) {
    useNavigation.setState({ [from]: [] });
    return;
  }
  const target = stack[index]!;
  const here = currentPlace();
  const other = from === 'back' ? 'forward' : 'back';
  useNavigation.setState({ [from]: stack.slice(0, index), [other]: here ? [...s[other], here].slice(-LIMIT) : s[other] });
  useModels.getState().openFile(target.path, { line: target.line, column: target.column });
}

export const goBack = () => step('back');
export const goForward = () => step('forward');

// Another branch or deployment: its places are other files.
useModels.subscribe((s, previous) => {
  if (s.branchName !== previous.branchName || s.deploymentId !== previous.deploymentId) useNavigation.setState({ back: [], forward: [] });
});
