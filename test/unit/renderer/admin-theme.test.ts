import { describe, expect, it } from 'vitest';
import { DEFAULT_PALETTE } from '../../../src-shared/api/app';
import { contrastGrade, contrastRatio, normalizeHex, previewableLogo, textOn, themeFormOf, themePatch, themeProblems } from '../../../src-renderer/src/features/admin/theme';

const current = { palette: { ...DEFAULT_PALETTE }, logoUrl: null };

describe('palette colours', () => {
  it('accepts #RRGGBB, #RGB and a missing # and writes #RRGGBB in capitals', () => {
    expect(normalizeHex('#1f6feb')).toBe('#1F6FEB');
    expect(normalizeHex('abc')).toBe('#AABBCC');
    expect(normalizeHex('1F6FEB')).toBe('#1F6FEB');
  });

  it('refuses anything else', () => {
    for (const bad of ['', '#12345', '#GGGGGG', 'red', '#1234567']) expect(normalizeHex(bad)).toBeNull();
  });
});

describe('contrast', () => {
  it('is 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#7A77FF', '#7A77FF')).toBeCloseTo(1, 5);
  });

  it('grades ratios by the WCAG thresholds', () => {
    expect(contrastGrade(7)).toBe('AAA');
    expect(contrastGrade(4.5)).toBe('AA');
    expect(contrastGrade(3)).toBe('AA large');
    expect(contrastGrade(2.99)).toBe('fails');
  });

  it('puts white text on dark colours and black text on light ones', () => {
    expect(textOn('#141446')).toBe('#FFFFFF');
    expect(textOn('#FFF3B0')).toBe('#000000');
  });
});

describe('theme patch', () => {
  it('sends only the colours that changed, whatever their case', () => {
    const form = themeFormOf(current);
    form.palette.primary = '#0f5c8c';
    form.palette.accent = DEFAULT_PALETTE.accent.toLowerCase();
    expect(themePatch(current, form)).toEqual({ palette: { primary: '#0F5C8C' } });
  });

  it('sends null to remove the logo and nothing when it did not change', () => {
    const withLogo = { ...current, logoUrl: 'https://cdn.example.com/logo.svg' };
    const form = themeFormOf(withLogo);
    expect(themePatch(withLogo, form)).toEqual({});
    form.logoUrl = '   ';
    expect(themePatch(withLogo, form)).toEqual({ logoUrl: null });
  });

  it('reports bad colours and logo URLs by the service’s field names', () => {
    const form = themeFormOf(current);
    form.palette.background = 'white';
    form.logoUrl = 'ftp://example.com/logo.png';
    expect(Object.keys(themeProblems(form)).sort()).toEqual(['logoUrl', 'palette.background']);
    expect(() => themePatch(current, form)).toThrow(/Background/);
  });

  it('previews only logos the page may load (same origin or data URLs)', () => {
    expect(previewableLogo('http://127.0.0.1:4000/logo.png', 'http://127.0.0.1:4000')).toBe(true);
    expect(previewableLogo('data:image/png;base64,AAAA', 'http://127.0.0.1:4000')).toBe(true);
    expect(previewableLogo('https://cdn.example.com/logo.png', 'http://127.0.0.1:4000')).toBe(false);
  });
});
