import type { ReactNode } from 'react';

/** What a screen that is not built yet shows: what will be there. */
export function Placeholder({ title, summary, items }: { title: string; summary: ReactNode; items: string[] }) {
  return (
    <section className="page">
      <header className="page-head">
        <h1>{title}</h1>
      </header>
      <div className="placeholder">
        <p>{summary}</p>
        <ul>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="muted">This screen is being built. Everything it will show is already available through the API.</p>
      </div>
    </section>
  );
}
