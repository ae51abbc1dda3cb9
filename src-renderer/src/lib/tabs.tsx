import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { navigate } from '../app/router';
import { tabsThatFit, visibleTabs } from './tab-fit';
import './kit.css';
import './tabs.css';

export interface TabItem {
  id: string;
  title: string;
  /** Link tabs: the tab's own address (each tab survives a reload, opens in a new window with Ctrl/⌘). */
  href?: string;
  /** After the title, in the tab and in the More menu: a summary, counts of changes. */
  extra?: ReactNode;
}

/**
 * The one tab bar of the renderer. Tabs that do not fit its width go into a “More” menu at its end
 * (issue 24: a deployment's twelve tabs must not wrap or run off the window at 1024 px); the current
 * tab always stays in the bar. Link tabs (`href`) navigate; others call `onSelect`.
 */
export function TabBar({
  label,
  tabs,
  current,
  onSelect,
  className,
}: {
  label: string;
  tabs: readonly TabItem[];
  current: string;
  /** Called for a plain click on a tab (link tabs navigate to their `href` without it). */
  onSelect?: (id: string) => void;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState<number>(tabs.length);

  // Which tabs fit: measured on a hidden copy of the whole bar, so widths are known for tabs in the menu too.
  const fit = useCallback(() => {
    const room = box.current?.clientWidth ?? 0;
    const cells = [...(measure.current?.children ?? [])] as HTMLElement[];
    if (room === 0 || cells.length !== tabs.length + 1) return;
    const widths = cells.slice(0, tabs.length).map((c) => c.offsetWidth + 2);
    const more = cells[tabs.length].offsetWidth + 8;
    setShown(tabsThatFit(widths, more, room, Math.max(0, tabs.findIndex((t) => t.id === current))));
  }, [tabs, current]);

  useLayoutEffect(fit, [fit]);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => flushSync(fit));
    observer.observe(el);
    return () => observer.disconnect();
  }, [fit]);

  const currentIndex = Math.max(0, tabs.findIndex((t) => t.id === current));
  const visible = shown >= tabs.length ? tabs : visibleTabs(tabs, currentIndex, shown);
  const hidden = tabs.filter((t) => !visible.includes(t));

  const choose = (event: MouseEvent, tab: TabItem) => {
    if (tab.href && (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)) return;
    event.preventDefault();
    if (onSelect) onSelect(tab.id);
    else if (tab.href) navigate(tab.href);
  };

  return (
    <div className={['tabbar', className].filter(Boolean).join(' ')} ref={box}>
      <div className="tabs" role="tablist" aria-label={label}>
        {visible.map((t) => (
          <TabButton key={t.id} tab={t} active={t.id === current} onClick={(e) => choose(e, t)} />
        ))}
      </div>
      {hidden.length > 0 && <MoreMenu label={label} tabs={hidden} onChoose={choose} />}
      <div className="tabs tabbar-measure" aria-hidden="true" ref={measure}>
        {tabs.map((t) => (
          <span key={t.id} className={`tab ${t.id === current ? 'active' : ''}`}>
            {t.title}
            {t.extra}
          </span>
        ))}
        <span className="tab tabbar-more">More ▾</span>
      </div>
    </div>
  );
}

function TabButton({ tab, active, onClick }: { tab: TabItem; active: boolean; onClick: (event: MouseEvent) => void }) {
  const className = `tab ${active ? 'active' : ''}`;
  return tab.href ? (
    <a role="tab" aria-selected={active} className={className} href={tab.href} onClick={onClick}>
      {tab.title}
      {tab.extra}
    </a>
  ) : (
    <button type="button" role="tab" aria-selected={active} className={className} onClick={onClick}>
      {tab.title}
      {tab.extra}
    </button>
  );
}

/** “More ▾”: the tabs that did not fit, as a menu (arrow keys move, Escape closes and returns to the button). */
function MoreMenu({ label, tabs, onChoose }: { label: string; tabs: readonly TabItem[]; onChoose: (event: MouseEvent, tab: TabItem) => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onDown = (event: globalThis.MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const onKey = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      list[(at + step + list.length) % list.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      list[event.key === 'Home' ? 0 : list.length - 1]?.focus();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div className="tabbar-menu" ref={root} onKeyDown={onKey}>
      <button
        ref={button}
        type="button"
        className="tab tabbar-more"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`More ${label.toLowerCase()}`}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        More <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="tabbar-menu-list" role="menu" aria-label={`More ${label.toLowerCase()}`}>
          {tabs.map((t) =>
            t.href ? (
              <a
                key={t.id}
                role="menuitem"
                href={t.href}
                onClick={(e) => {
                  setOpen(false);
                  onChoose(e, t);
                }}
              >
                {t.title}
                {t.extra}
              </a>
            ) : (
              <button
                key={t.id}
                type="button"
                role="menuitem"
                onClick={(e) => {
                  setOpen(false);
                  onChoose(e, t);
                }}
              >
                {t.title}
                {t.extra}
              </button>
            ),
          )}
        </div>
      )}
    </div>
  );
}

export interface RouteTab {
  id: string;
  title: string;
  /** Below `base`: '' for the first tab, '/logs' for another. */
  path: string;
}

/** Tabs that are links (`base + tab.path`), so each tab has its own URL and survives a reload. */
export function RouteTabs({ base, tabs, current, label }: { base: string; tabs: readonly RouteTab[]; current: string; label: string }) {
  const items = useMemo(() => tabs.map((t) => ({ id: t.id, title: t.title, href: `${base}${t.path}` })), [base, tabs]);
  return <TabBar label={label} current={current} tabs={items} />;
}
