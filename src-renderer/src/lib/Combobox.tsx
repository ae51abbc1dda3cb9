import { useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import './combobox.css';

/**
 * A text field with a list to pick from (WAI-ARIA combobox, list autocomplete): the list filters
 * as the user types, arrows move through it, Enter or a click picks, Escape closes it (without
 * closing the dialog around it). What is typed stays the value, so a name that is not in the list
 * can still be entered; the caller says whether that is fine.
 */
export function Combobox({
  id,
  value,
  onChange,
  options,
  label,
  placeholder,
  disabled,
  describedBy,
  emptyText = 'Nothing to choose from.',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  options: string[];
  /** What one option is, for the list's messages ("No schema matches …"). The field's own label names the list. */
  label: string;
  placeholder?: string;
  disabled?: boolean;
  describedBy?: string;
  emptyText?: string;
}) {
  const listId = `${useId()}-list`;
  const [open, setOpen] = useState(false);
  // While the user types the list filters on the text; opened with the button or the arrow keys it shows everything.
  const [filtering, setFiltering] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);

  const needle = value.trim().toLowerCase();
  const shown = filtering && needle ? options.filter((o) => o.toLowerCase().includes(needle)) : options;

  const show = (filter: boolean) => {
    setFiltering(filter);
    setOpen(true);
    const list = filter && needle ? options.filter((o) => o.toLowerCase().includes(needle)) : options;
    setActive(Math.max(0, list.findIndex((o) => o.toLowerCase() === needle)));
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const pick = (option: string) => {
    onChange(option);
    close();
    input.current?.focus();
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return show(false);
      if (shown.length === 0) return;
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 ? (delta > 0 ? 0 : shown.length - 1) : (i + delta + shown.length) % shown.length));
    } else if (event.key === 'Enter' && open && shown[active] !== undefined) {
      // Picks the option instead of submitting the form around the field.
      event.preventDefault();
      pick(shown[active]!);
    } else if (event.key === 'Escape' && open) {
      // Closes the list only; a second Escape closes the dialog.
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  return (
    <div className="combobox">
      <input
        ref={input}
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && shown[active] !== undefined ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => {
          onChange(e.target.value);
          setFiltering(true);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        // A click anywhere on the field opens the list, not only on its arrow (issue 24).
        onClick={() => {
          if (!open && !disabled) show(false);
        }}
        onBlur={close}
      />
      <button
        type="button"
        className="combobox-toggle"
        // Not named after the field: a label search for the field ("Schema") must find the field alone.
        aria-label="Show choices"
        aria-expanded={open}
        aria-controls={listId}
        tabIndex={-1}
        disabled={disabled}
        // Keeps the focus in the field (a blur would close the list before the click opens it).
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => (open ? close() : (show(false), input.current?.focus()))}
      >
        ▾
      </button>
      <ul id={listId} role="listbox" aria-label="Choices" className="combobox-list" hidden={!open}>
        {shown.map((option, index) => (
          <li
            key={option}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={option === value}
            className={index === active ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onMouseMove={() => setActive(index)}
            onClick={() => pick(option)}
          >
            {option}
          </li>
        ))}
        {open && shown.length === 0 && (
          <li className="combobox-empty muted" aria-disabled="true">
            {options.length === 0 ? emptyText : `No ${label} matches “${value.trim()}”.`}
          </li>
        )}
      </ul>
    </div>
  );
}
