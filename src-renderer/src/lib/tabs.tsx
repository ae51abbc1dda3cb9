import type { MouseEvent } from 'react';
import { navigate } from '../app/router';
import './kit.css';

export interface RouteTab {
  id: string;
  title: string;
  /** Below `base`: '' for the first tab, '/logs' for another. */
  path: string;
}

/** Tabs that are links (`base + tab.path`), so each tab has its own URL and survives a reload. */
export function RouteTabs({ base, tabs, current, label }: { base: string; tabs: readonly RouteTab[]; current: string; label: string }) {
  const go = (event: MouseEvent, to: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <a
          key={t.id}
          role="tab"
          aria-selected={t.id === current}
          className={`tab ${t.id === current ? 'active' : ''}`}
          href={`${base}${t.path}`}
          onClick={(e) => go(e, `${base}${t.path}`)}
        >
          {t.title}
        </a>
      ))}
    </div>
  );
}
