// Quick open (Ctrl/Cmd+P): type part of a file path or of a cube, view or member name and press Enter
// to go to it; go back / forward buttons; the screen-wide shortcuts (in the editor, Monaco actions
// bound to the same keys do the same).
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type SyntheticEvent } from 'react';
import { ModelsIcon } from './icons';
import { closeQuickOpen, goBack, goForward, goTo, openQuickOpen, useNavigation } from './navigation';
import { quickOpenItems, rankItems, type QuickOpenItem } from './references';
import { useModels } from './store';
import { allCommands, keyLabel, type WorkbenchCommand } from './layout/commands';
import './quick-open.css';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const BACK_KEY = isMac ? '⌃-' : 'Alt+←';
export const FORWARD_KEY = isMac ? '⌃⇧-' : 'Alt+→';

const KIND_LABEL: Record<QuickOpenItem['kind'], string> = {
  file: 'file',
  cube: 'cube',
  view: 'view',
  measure: 'measure',
  dimension: 'dimension',
  segment: 'segment',
  hierarchy: 'hierarchy',
};

/** Ctrl/Cmd+P, Alt+Left/Right (⌃- and ⌃⇧- on macOS) anywhere on the Files view of the screen. */
function useEditorShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'p') {
        event.preventDefault();
        openQuickOpen();
      } else if (!isMac && event.altKey && !mod && !event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
        // Text fields keep Alt+arrows to themselves.
        if (event.target instanceof HTMLElement && event.target.closest('input, textarea, select')) return;
        event.preventDefault();
        if (event.key === 'ArrowLeft') goBack();
        else goForward();
      } else if (isMac && event.ctrlKey && !event.metaKey && event.key === '-') {
        event.preventDefault();
        if (event.shiftKey) goForward();
        else goBack();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function HistoryButtons() {
  const canBack = useNavigation((s) => s.back.length > 0);
  const canForward = useNavigation((s) => s.forward.length > 0);
  return (
    <span className="history-buttons">
      <button type="button" className="icon-button" aria-label={`Go back (${BACK_KEY})`} title={`Go back (${BACK_KEY})`} disabled={!canBack} onClick={goBack}>
        ←
      </button>
      <button type="button" className="icon-button" aria-label={`Go forward (${FORWARD_KEY})`} title={`Go forward (${FORWARD_KEY})`} disabled={!canForward} onClick={goForward}>
        →
      </button>
      <button type="button" className="btn btn-ghost btn-small quick-open-button" onClick={openQuickOpen} title="Go to a file, cube, view or member (Ctrl/Cmd+P)">
        <ModelsIcon name="file" size={12} /> Go to…
      </button>
    </span>
  );
}

/** The quick open list and the screen-wide editing shortcuts (mounted with the Files view). */
export function QuickOpen() {
  useEditorShortcuts();
  const open = useNavigation((s) => s.quickOpen);
  const ref = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const files = useModels((s) => s.files);
  const symbols = useModels((s) => s.analysis.symbols);
  // A branch being read or compiled has not listed all its files and members yet.
  const reading = useModels((s) => s.filesLoading || s.analysis.pending);
  const items = useMemo(() => (open ? quickOpenItems(files.map((f) => f.path), symbols) : []), [open, files, symbols]);
  // `>` lists the workbench's commands (as VS Code's command palette), with their keys.
  const commandMode = query.startsWith('>');
  const commands = useMemo(() => {
    if (!commandMode) return [];
    const words = query.slice(1).trim().toLowerCase().split(/\s+/).filter(Boolean);
    return allCommands().filter((c) => words.every((w) => c.title.toLowerCase().includes(w)));
  }, [commandMode, query]);
  const shown = useMemo(() => (commandMode ? [] : rankItems(items, query)), [commandMode, items, query]);
  const count = commandMode ? commands.length : shown.length;

  // A layout effect, and the query cleared on every close: the dialog never shows, even for one
  // frame, with the last query in its field, where keys typed at once would be added to it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      input.current?.focus();
    }
    if (!open) {
      // Escape closes the dialog itself (its cancel event): the query is cleared then too.
      setQuery('');
      setActive(0);
      if (dialog.open) dialog.close();
    }
  }, [open]);

  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const pick = (item: QuickOpenItem | undefined) => {
    if (!item) return;
    closeQuickOpen();
    goTo(item.path, item.kind === 'file' ? undefined : { line: item.line, column: item.column });
  };
  const run = (command: WorkbenchCommand | undefined) => {
    if (!command) return;
    closeQuickOpen();
    command.run();
  };

  // The browser fires `close` a task after the dialog closed: by then Ctrl+P may have opened it
  // again, and that late event must not close the new one.
  const onClose = () => {
    if (!ref.current?.open) closeQuickOpen();
  };
  // Escape: closed through the store, like every other way out (the layout effect closes the dialog).
  const onCancel = (event: SyntheticEvent) => {
    event.preventDefault();
    closeQuickOpen();
  };

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (count === 0 ? 0 : (i + delta + count) % count));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (commandMode) run(commands[active]);
      else pick(shown[active]);
    }
  };

  return (
    <dialog ref={ref} className="dialog quick-open" aria-label="Go to file or member" onClose={onClose} onCancel={onCancel} onClick={(e) => e.target === ref.current && closeQuickOpen()}>
      <input
        ref={input}
        className="quick-open-input"
        role="combobox"
        aria-expanded="true"
        aria-controls="quick-open-list"
        aria-activedescendant={active < count ? `quick-open-${active}` : undefined}
        aria-label="File, cube, view or member"
        placeholder="Go to a file, cube, view or member (orders.status); > for commands…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        spellCheck={false}
        autoComplete="off"
      />
      <ul id="quick-open-list" ref={list} className="quick-open-list" role="listbox" aria-label="Matches">
        {commands.map((command, index) => (
          <li
            key={command.id}
            id={`quick-open-${index}`}
            data-index={index}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'active' : undefined}
            onMouseMove={() => setActive(index)}
            onClick={() => run(command)}
          >
            <span className="quick-open-kind kind-command">command</span>
            <span className="quick-open-label">{command.title}</span>
            {command.binding && <kbd className="quick-open-detail">{keyLabel(command.binding)}</kbd>}
          </li>
        ))}
        {shown.map((item, index) => (
          <li
            key={`${item.kind}:${item.label}`}
            id={`quick-open-${index}`}
            data-index={index}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'active' : undefined}
            onMouseMove={() => setActive(index)}
            onClick={() => pick(item)}
          >
            <span className={`quick-open-kind kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span>
            <span className="quick-open-label">{item.label}</span>
            {item.kind !== 'file' && <span className="quick-open-detail muted">{item.detail.split(' · ').slice(1).join(' · ')}</span>}
          </li>
        ))}
        {count === 0 && (
          <li className="quick-open-empty muted">{commandMode ? 'No command matches.' : reading ? `Reading the branch… nothing matches “${query}” yet.` : `Nothing matches “${query}”.`}</li>
        )}
      </ul>
    </dialog>
  );
}
