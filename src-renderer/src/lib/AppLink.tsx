import type { MouseEvent, ReactNode } from 'react';
import { navigate } from '../app/router';

/** An in-app link: a real href (new tab, copy link) that navigates without a reload on a plain click. */
export function AppLink({ to, children, className, title, ariaLabel }: { to: string; children: ReactNode; className?: string; title?: string; ariaLabel?: string }) {
  const go = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    navigate(to);
  };
  return (
    <a href={to} onClick={go} className={className} title={title} aria-label={ariaLabel}>
      {children}
    </a>
  );
}
