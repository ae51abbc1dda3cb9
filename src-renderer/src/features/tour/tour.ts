// The guided tour's state: which step is shown, and whether this user has already seen it
// (remembered per user and service in localStorage, so it opens by itself once, then only from Help).
import { create } from 'zustand';

export interface TourStep {
  /** `data-tour` value of the element the step points at (highlighted while the step is shown). */
  target: string;
  title: string;
  body: string;
}

export const TOUR_STEPS: readonly TourStep[] = [
  {
    target: 'files',
    title: 'Edit',
    body: 'Open a cube or view in the file tree. Turn on dev mode to edit on your own branch: the editor checks every keystroke with the same compiler the service uses, and Save (Ctrl/Cmd+S) keeps the change on your branch until you commit it.',
  },
  {
    target: 'problems',
    title: 'Validate',
    body: 'Problems lists errors and warnings as you type, including what would stop a view from being pushed or published; Validate checks the saved files on the service, as a deploy would. The sample shows one warning on purpose: order_funnel explains it at the top of its file.',
  },
  {
    target: 'nav-syncs',
    title: 'Push and publish',
    body: 'Syncs pushes views over the warehouse data source (orders_overview, product_sales, customer_directory) as semantic views, and publishes views over the lakehouse data source as metric views. Each run shows what was created, per view.',
  },
  {
    target: 'nav-promotions',
    title: 'Promote',
    body: 'Promotions copies a workbook and its dashboard from one deployment to another: try the sample’s Sales overview from Sample project into Staging. The preview lists every change before anything is written, and the history keeps where each version came from.',
  },
];

interface TourState {
  open: boolean;
  step: number;
  /** Opens the tour at its first step (Help, or the first visit). */
  start(): void;
  go(step: number): void;
  /** Closes it and remembers that this user has seen it. */
  dismiss(userKey: string): void;
}

export const useTour = create<TourState>((set) => ({
  open: false,
  step: 0,
  start: () => set({ open: true, step: 0 }),
  go: (step) => set({ step: Math.max(0, Math.min(TOUR_STEPS.length - 1, step)) }),
  dismiss(userKey) {
    markSeen(userKey);
    set({ open: false });
  },
}));

const storageKey = (userKey: string) => `drydock.tour.seen.${userKey}`;

export function hasSeenTour(userKey: string): boolean {
  try {
    return window.localStorage.getItem(storageKey(userKey)) !== null;
  } catch {
    return true; // storage refused (private mode): never nag
  }
}

function markSeen(userKey: string): void {
  try {
    window.localStorage.setItem(storageKey(userKey), new Date().toISOString());
  } catch {
    // Nothing to remember it in; the tour simply opens again next time.
  }
}
