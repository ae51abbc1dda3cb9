import type { AppTheme, AppThemeInput, Palette } from '../../../../src-shared/api/app';

export const PALETTE_KEYS = ['primary', 'accent', 'background', 'foreground'] as const satisfies readonly (keyof Palette)[];

export const PALETTE_LABELS: Record<keyof Palette, { title: string; hint: string }> = {
  primary: { title: 'Primary', hint: 'Header, primary buttons, selection' },
  accent: { title: 'Accent', hint: 'Highlights, links, the second chart series' },
  background: { title: 'Background', hint: 'Page background' },
  foreground: { title: 'Foreground', hint: 'Body text' },
};

const HEX = /^#[0-9A-Fa-f]{6}$/;
export const isHexColor = (value: string): boolean => HEX.test(value);

/** `#abc` and `abcdef` are accepted as typed shorthands; the result is `#RRGGBB` or null. */
export function normalizeHex(text: string): string | null {
  const raw = text.trim().replace(/^#?/, '#');
  if (/^#[0-9A-Fa-f]{3}$/.test(raw)) return `#${[...raw.slice(1)].map((c) => c + c).join('')}`.toUpperCase();
  return isHexColor(raw) ? raw.toUpperCase() : null;
}

/** WCAG 2.x relative luminance of `#RRGGBB`. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio (1 to 21) between two colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** For body text: AAA ≥ 7, AA ≥ 4.5, AA for large text ≥ 3. */
export function contrastGrade(ratio: number): 'AAA' | 'AA' | 'AA large' | 'fails' {
  if (ratio >= 7) return 'AAA';
  if (ratio >= 4.5) return 'AA';
  if (ratio >= 3) return 'AA large';
  return 'fails';
}

/** Black or white, whichever reads better on `hex` (text on primary buttons in the preview). */
export const textOn = (hex: string): '#000000' | '#FFFFFF' => (contrastRatio(hex, '#000000') >= contrastRatio(hex, '#FFFFFF') ? '#000000' : '#FFFFFF');

export interface ThemeForm {
  palette: Record<keyof Palette, string>;
  logoUrl: string;
}

export const themeFormOf = (theme: Pick<AppTheme, 'palette' | 'logoUrl'>): ThemeForm => ({ palette: { ...theme.palette }, logoUrl: theme.logoUrl ?? '' });

/** Field errors of the form, keyed like the service's pointers (`palette.primary`, `logoUrl`). */
export function themeProblems(form: ThemeForm): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const key of PALETTE_KEYS) if (!normalizeHex(form.palette[key])) problems[`palette.${key}`] = 'Use a hex colour such as #1F6FEB.';
  const url = form.logoUrl.trim();
  if (url && !/^https?:\/\/\S+$/.test(url)) problems.logoUrl = 'Use an http(s) URL, or leave it empty for no logo.';
  return problems;
}

/** Changed colours only (the service merges the palette colour by colour); a cleared logo is `null`. */
export function themePatch(current: Pick<AppTheme, 'palette' | 'logoUrl'>, form: ThemeForm): AppThemeInput {
  const palette: Partial<Palette> = {};
  for (const key of PALETTE_KEYS) {
    const next = normalizeHex(form.palette[key]);
    if (next === null) throw new Error(`${PALETTE_LABELS[key].title}: use a hex colour such as #1F6FEB.`);
    if (next.toUpperCase() !== current.palette[key].toUpperCase()) palette[key] = next;
  }
  const patch: AppThemeInput = {};
  if (Object.keys(palette).length > 0) patch.palette = palette;
  const logoUrl = form.logoUrl.trim() || null;
  if (logoUrl !== current.logoUrl) patch.logoUrl = logoUrl;
  return patch;
}

/** The preview loads only logos the page's CSP allows (this service, data: URLs); others are named, not fetched. */
export function previewableLogo(url: string, origin: string): boolean {
  if (url.startsWith('data:image/')) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
