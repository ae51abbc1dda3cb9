/** How many target names a push or publish dialog spells out before "and N more". */
const SHOWN = 3;

/** "Will create A, B, C and 4 more." — the names a push or publication is about to write, before it runs. */
export function TargetNames({ verb, names }: { verb: string; names: readonly string[] }) {
  return (
    <p>
      {verb}{' '}
      {names.slice(0, SHOWN).map((name, i) => (
        <span key={name}>
          {i > 0 ? ', ' : ''}
          <code>{name}</code>
        </span>
      ))}
      {names.length > SHOWN ? ` and ${names.length - SHOWN} more` : ''}.
    </p>
  );
}
