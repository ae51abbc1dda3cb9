// Small glyphs of the Models screen (16×16 viewBox, currentColor).
const paths = {
  chevron: 'M6 4l4 4-4 4',
  folder: 'M1.5 3.5h4l1.5 1.5h7.5v8h-13z',
  file: 'M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3',
  error: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13z M5.5 5.5l5 5 M10.5 5.5l-5 5',
  warning: 'M8 1.8 15 14H1z M8 6v4 M8 11.6v.4',
  info: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13z M8 7v4.5 M8 4.6v.4',
  check: 'M3 8.5l3 3 7-7',
  plus: 'M8 3v10 M3 8h10',
  pencil: 'M10.5 2.5l3 3-8 8h-3v-3z',
  trash: 'M2.5 4h11 M6 4V2.5h4V4 M4 4l.7 9.5h6.6L12 4',
  branch: 'M4.5 2v9 M4.5 11a2 2 0 1 0 0 .1 M11.5 5a2 2 0 1 0 0-.1 M11.5 5c0 3-7 2-7 6',
  caret: 'M4 6l4 4 4-4',
  server: 'M2.5 2.5h11v4.5h-11z M2.5 9h11v4.5h-11z M5 4.75h.1 M5 11.25h.1',
  files: 'M2.5 4.5h3l1.2 1.2h6.8v7.8h-11z M4.5 4.5V2.5h4l1.2 1.2h4.8v7',
  table: 'M2 3h12v10H2z M2 6.5h12 M2 10h12 M6.5 3v10',
  review: 'M2.5 3.5h7 M2.5 6.5h4.5 M2.5 9.5h3 M10.5 7.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 1 0 0-5z M12.3 12.3l2 2',
  lineage: 'M4 3.5a1.5 1.5 0 1 0 0 .1 M4 12.5a1.5 1.5 0 1 0 0 .1 M12 8a1.5 1.5 0 1 0 0 .1 M5.5 3.5c3 0 3 4.5 5 4.5 M5.5 12.5c3 0 3-4.5 5-4.5',
} as const;

export type ModelsIconName = keyof typeof paths;

export function ModelsIcon({ name, size = 14, className }: { name: ModelsIconName; size?: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false" className={`micon ${className ?? ''}`}>
      <path d={paths[name]} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
