import { useState } from 'react';
import type { HiddenEntity, MetaEntity } from '../../../../../src-shared/model/query';
import { HiddenByPolicy } from './HiddenByPolicy';
import { memberLabel, type PickedQuery } from './pick';

const STANDARD = ['day', 'week', 'month', 'quarter', 'year', 'hour'];

/** Cubes and views with their measures, dimensions, time dimensions and segments to tick. */
export function MemberPicker({ entities, hidden = [], pick, onChange }: { entities: MetaEntity[]; hidden?: HiddenEntity[]; pick: PickedQuery; onChange: (next: PickedQuery) => void }) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const matches = (name: string, title: string) => !needle || name.toLowerCase().includes(needle) || title.toLowerCase().includes(needle);
  const toggle = (list: 'measures' | 'dimensions' | 'segments', name: string) => {
    const current = pick[list];
    onChange({ ...pick, [list]: current.includes(name) ? current.filter((n) => n !== name) : [...current, name] });
  };
  const setTime = (dimension: string | null, granularity?: string) => {
    if (dimension === null) return onChange({ ...pick, time: null });
    onChange({ ...pick, time: { dimension, granularity: granularity ?? pick.time?.granularity ?? 'month', from: pick.time?.from ?? '', to: pick.time?.to ?? '' } });
  };

  return (
    <aside className="data-picker" aria-label="Members">
      <input type="search" placeholder="Find a member…" aria-label="Find a member" value={search} onChange={(e) => setSearch(e.target.value)} />
      {entities.length === 0 && <p className="muted small">The model has no cube or view you may query.</p>}
      {entities.map((entity) => {
        const measures = entity.measures.filter((m) => matches(m.name, m.title));
        const dims = entity.dimensions.filter((d) => d.type !== 'time' && matches(d.name, d.title));
        const times = entity.dimensions.filter((d) => d.type === 'time' && matches(d.name, d.title));
        const segments = entity.segments.filter((s) => matches(s.name, s.title));
        if (needle && measures.length + dims.length + times.length + segments.length === 0) return null;
        const picked = [...pick.measures, ...pick.dimensions, ...pick.segments, pick.time?.dimension ?? ''].some((n) => n.startsWith(`${entity.name}.`));
        return (
          <details key={entity.name} className="picker-entity" open={picked || Boolean(needle) || entities.length <= 3}>
            <summary>
              <span className={`entity-kind ${entity.type}`}>{entity.type}</span> {entity.title}
            </summary>
            {measures.length > 0 && <div className="picker-group">Measures</div>}
            {measures.map((m) => (
              <label key={m.name} className="picker-member" title={m.description ?? m.name}>
                <input type="checkbox" checked={pick.measures.includes(m.name)} onChange={() => toggle('measures', m.name)} aria-label={m.name} />
                <span className="member-name">{memberLabel(m)}</span>
                <span className="member-type">{String(m.aggType ?? m.type)}</span>
              </label>
            ))}
            {dims.length > 0 && <div className="picker-group">Dimensions</div>}
            {dims.map((d) => (
              <label key={d.name} className="picker-member" title={d.description ?? d.name}>
                <input type="checkbox" checked={pick.dimensions.includes(d.name)} onChange={() => toggle('dimensions', d.name)} aria-label={d.name} />
                <span className="member-name">{memberLabel(d)}</span>
                <span className="member-type">{d.type}</span>
              </label>
            ))}
            {times.length > 0 && <div className="picker-group">Time</div>}
            {times.map((d) => {
              const selected = pick.time?.dimension === d.name;
              const custom = (d.granularities as { name: string; title: string }[] | undefined) ?? [];
              return (
                <div key={d.name} className="picker-member picker-time">
                  <label title={d.description ?? d.name}>
                    <input type="checkbox" checked={selected} onChange={() => setTime(selected ? null : d.name)} aria-label={d.name} />
                    <span className="member-name">{memberLabel(d)}</span>
                  </label>
                  {selected && (
                    <select aria-label={`Granularity of ${d.name}`} value={pick.time!.granularity} onChange={(e) => setTime(d.name, e.target.value)}>
                      <option value="">no grouping</option>
                      {STANDARD.map((g) => (
                        <option key={g} value={g}>
                          by {g}
                        </option>
                      ))}
                      {custom.map((g) => (
                        <option key={g.name} value={g.name}>
                          by {g.title}
                        </option>
                      ))}
                    </select>
                  )}
                </div>
              );
            })}
            {segments.length > 0 && <div className="picker-group">Segments</div>}
            {segments.map((s) => (
              <label key={s.name} className="picker-member" title={s.description ?? s.name}>
                <input type="checkbox" checked={pick.segments.includes(s.name)} onChange={() => toggle('segments', s.name)} aria-label={s.name} />
                <span className="member-name">{memberLabel(s)}</span>
              </label>
            ))}
          </details>
        );
      })}
      <HiddenByPolicy hidden={hidden} />
    </aside>
  );
}
