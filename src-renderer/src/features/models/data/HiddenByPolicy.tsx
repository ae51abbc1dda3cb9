import type { HiddenEntity } from '../../../../../src-shared/model/query';
import './hidden-by-policy.css';

/**
 * The cubes and views access policies hide from the signed-in user, named with the groups (or roles)
 * their policies would show them to (issue 24): an item missing from the list says why.
 */
export function HiddenByPolicy({ hidden }: { hidden: readonly HiddenEntity[] }) {
  if (hidden.length === 0) return null;
  return (
    <section className="picker-hidden" aria-label="Hidden by access policy">
      <h3 className="picker-group">Hidden by access policy</h3>
      <ul>
        {hidden.map((h) => (
          <li key={h.name} title={`${h.type} ${h.name}`}>
            <span className={`entity-kind ${h.type}`}>{h.type}</span> <span className="picker-hidden-name">{h.title}</span>
            <div className="muted small">
              {h.visibleTo.length === 0
                ? 'Its policies let no one in.'
                : h.visibleTo.includes('*')
                  ? 'Visible only when its policies’ conditions hold for you.'
                  : `Its policies show it to ${h.visibleTo.join(', ')}; you are in none of them.`}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
