import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useProfile } from '../../app/profile';
import { useSession } from '../../app/session';
import { revealDelta, tourCorner, type TourCorner } from './placement';
import { hasSeenTour, TOUR_STEPS, useTour } from './tour';
import './tour.css';

/** Who the tour is remembered for: the signed-in user on the service the app talks to. */
export function useTourUserKey(): string | null {
  const user = useSession((s) => s.user);
  const mode = useSession((s) => s.mode);
  const profile = useProfile((s) => s.active);
  if (!user && mode !== 'desktop') return null;
  return `${profile}.${user ? user.id : 'desktop'}`;
}

/**
 * A short, non-modal guide through edit → validate → push/publish → promote. Each step highlights
 * the control it talks about; Escape or × closes it (remembered), Back/Next move through it, and
 * focus follows the step so it can be read and driven from the keyboard.
 */
export function GuidedTour() {
  const { open, step, go, dismiss } = useTour();
  const userKey = useTourUserKey();
  const heading = useRef<HTMLHeadingElement>(null);
  const card = useRef<HTMLElement>(null);
  const [corner, setCorner] = useState<TourCorner>('bottom-right');
  const current = TOUR_STEPS[step]!;
  const last = step === TOUR_STEPS.length - 1;

  useEffect(() => {
    if (!open) return;
    heading.current?.focus({ preventScroll: true });
    const target = document.querySelector<HTMLElement>(`[data-tour="${current.target}"]`);
    target?.classList.add('tour-target');
    if (target) reveal(target);
    return () => target?.classList.remove('tour-target');
  }, [open, step, current.target]);

  // The card sits in the first corner that keeps clear of what the step points at (again on resize).
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const target = document.querySelector<HTMLElement>(`[data-tour="${current.target}"]`);
      const box = card.current?.getBoundingClientRect();
      if (!box) return;
      const r = target?.getBoundingClientRect();
      setCorner(tourCorner({ width: box.width, height: box.height }, { width: window.innerWidth, height: window.innerHeight }, r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null));
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, step, current.target]);

  if (!open || !userKey) return null;
  const close = () => dismiss(userKey);
  return (
    <section
      ref={card}
      className={`tour tour-${corner}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby="tour-title"
      aria-describedby="tour-body"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          close();
        }
      }}
    >
      <header className="tour-head">
        <span className="tour-count">
          Step {step + 1} of {TOUR_STEPS.length}
        </span>
        <button type="button" className="icon-button" aria-label="Close the tour" onClick={close}>
          ×
        </button>
      </header>
      <h2 id="tour-title" tabIndex={-1} ref={heading}>
        {current.title}
      </h2>
      <p id="tour-body">{current.body}</p>
      <ol className="tour-dots" aria-hidden="true">
        {TOUR_STEPS.map((s, i) => (
          <li key={s.target} className={i === step ? 'on' : ''} />
        ))}
      </ol>
      <footer className="tour-foot">
        <button type="button" className="btn btn-ghost btn-small" onClick={close}>
          Skip the tour
        </button>
        <span className="tour-spacer" />
        {step > 0 && (
          <button type="button" className="btn btn-default btn-small" onClick={() => go(step - 1)}>
            Back
          </button>
        )}
        <button type="button" className="btn btn-primary btn-small" onClick={() => (last ? close() : go(step + 1))}>
          {last ? 'Done' : 'Next'}
        </button>
      </footer>
    </section>
  );
}

/**
 * Scrolls the target's own scrolling box (never the page) just enough to show it whole below the
 * sticky top bar of the main area.
 */
function reveal(target: HTMLElement): void {
  for (let box = target.parentElement; box && box !== document.body && box !== document.documentElement; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (!['auto', 'scroll'].includes(style.overflowY) || box.scrollHeight <= box.clientHeight) continue;
    const rect = box.getBoundingClientRect();
    const bar = [...box.children].find((c) => getComputedStyle(c).position === 'sticky' && c.getBoundingClientRect().top <= rect.top + 1);
    const top = rect.top + (bar && !bar.contains(target) ? bar.getBoundingClientRect().height : 0) + 8;
    const r = target.getBoundingClientRect();
    box.scrollTop += revealDelta({ top: r.top, bottom: r.bottom }, { top, bottom: rect.bottom - 8 });
    return;
  }
}

/** Opens the tour once per user: the first time `ready` is true and the user has not seen it yet. */
export function useStartTourOnce(ready: boolean): void {
  const userKey = useTourUserKey();
  const start = useTour((s) => s.start);
  useEffect(() => {
    if (ready && userKey && !hasSeenTour(userKey) && !useTour.getState().open) start();
  }, [ready, userKey, start]);
}
