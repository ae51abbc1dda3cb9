// How much of the screen-by-screen audits (layout at every size, axe in every theme) a run does.
// `npm test` does the sizes the UI is judged at (1024×768, 1920×1080) and axe in the light theme,
// where each screen's own markup and colours are checked; `npm run ui-audit` (DRYDOCK_UI_AUDIT=full)
// adds 1366×768 and the dark theme, which share the screens' markup and differ in colour tokens.
export const FULL_AUDIT = process.env.DRYDOCK_UI_AUDIT === 'full';

export const LAYOUT_SIZES = [
  { width: 1024, height: 768 },
  ...(FULL_AUDIT ? [{ width: 1366, height: 768 }] : []),
  { width: 1920, height: 1080 },
] as const;

export const AXE_THEMES = FULL_AUDIT ? (['light', 'dark'] as const) : (['light'] as const);
