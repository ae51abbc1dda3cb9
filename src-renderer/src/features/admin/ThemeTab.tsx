import { useEffect, useMemo, useState, type CSSProperties, type FormEvent } from 'react';
import { DEFAULT_PALETTE, getAppTheme, updateAppTheme, type AppTheme, type Palette } from '../../../../src-shared/api/app';
import { api } from '../../app/session';
import { errorFor, withoutField } from '../../lib/errors';
import { Badge, Button, Field, ProblemBanner, Spinner } from '../../lib/ui';
import { SettingsConflictDialog } from '../../lib/SettingsConflictDialog';
import { useVersionedForm } from '../../lib/useVersionedForm';
import { useQuery } from '../../lib/useQuery';
import { contrastGrade, contrastRatio, normalizeHex, PALETTE_KEYS, PALETTE_LABELS, previewableLogo, textOn, themeFormOf, themePatch, themeProblems, type ThemeForm } from './theme';

const THEME_LABELS = {
  primary: PALETTE_LABELS.primary.title,
  accent: PALETTE_LABELS.accent.title,
  background: PALETTE_LABELS.background.title,
  foreground: PALETTE_LABELS.foreground.title,
  logoUrl: 'Logo URL',
} as const;

/** The theme form with the palette spread out, so a change elsewhere is compared colour by colour. */
type FlatTheme = Record<keyof Palette | 'logoUrl', string>;
const flat = (form: ThemeForm): FlatTheme => ({ ...form.palette, logoUrl: form.logoUrl });
const unflat = (f: FlatTheme): ThemeForm => ({ palette: { primary: f.primary, accent: f.accent, background: f.background, foreground: f.foreground }, logoUrl: f.logoUrl });

export function ThemeTab() {
  const query = useQuery((signal) => api.callVersioned(getAppTheme, { signal }), [], 'Loading the app theme');
  const [saved, setSaved] = useState<string | null>(null);
  const versioned = useVersionedForm<AppTheme, FlatTheme>({
    what: 'The app theme',
    action: 'Saving the app theme',
    formOf: (theme) => flat(themeFormOf(theme)),
    labels: THEME_LABELS,
    save: (base, mine, ifMatch) => api.callVersioned(updateAppTheme, { body: themePatch(base, unflat(mine)), ...(ifMatch ? { ifMatch } : {}) }),
    onSaved: () => setSaved('Theme saved. Every user sees it on their next load.'),
  });
  const { current, error, setError, busy, load } = versioned;
  const form = versioned.form ? unflat(versioned.form) : null;
  const setForm = (next: ThemeForm) => versioned.setForm(flat(next));

  useEffect(() => {
    if (query.data) load(query.data.data, query.data.version);
  }, [query.data, load]);

  const problems = useMemo(() => (form ? themeProblems(form) : {}), [versioned.form]);
  const patch = useMemo(() => {
    if (!form || !current || Object.keys(problems).length > 0) return null;
    try {
      return themePatch(current, form);
    } catch {
      return null;
    }
  }, [versioned.form, current, problems]);

  if (!form || !current) {
    return (
      <>
        <ProblemBanner error={query.error} />
        {query.loading && <Spinner label="Loading the app theme…" />}
      </>
    );
  }

  const setColor = (key: keyof Palette, value: string) => {
    setSaved(null);
    setForm({ ...form, palette: { ...form.palette, [key]: value } });
    setError(withoutField(error, `palette.${key}`));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!patch) return;
    setSaved(null);
    void versioned.submit();
  };

  // The preview shows what the form says, valid colours only (the last good value otherwise).
  const shown: Palette = { ...current.palette };
  for (const key of PALETTE_KEYS) shown[key] = normalizeHex(form.palette[key]) ?? current.palette[key];
  const changed = patch ? Object.keys(patch.palette ?? {}).length + (patch.logoUrl !== undefined ? 1 : 0) : 0;

  return (
    <div className="theme-layout">
      <form className="panel form" onSubmit={submit} noValidate aria-label="App theme">
        <div className="panel-head">
          <h2>Palette</h2>
          {saved && (
            <span className="saved" role="status">
              {saved}
            </span>
          )}
        </div>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        {PALETTE_KEYS.map((key) => {
          const problem = errorFor(error, `palette.${key}`) ?? problems[`palette.${key}`];
          const valid = normalizeHex(form.palette[key]);
          return (
            <div key={key} className={`color-row ${problem ? 'field-invalid' : ''}`}>
              <input type="color" aria-label={`${PALETTE_LABELS[key].title} colour picker`} value={(valid ?? current.palette[key]).toLowerCase()} onChange={(e) => setColor(key, e.target.value.toUpperCase())} />
              <div className="color-text">
                <label htmlFor={`theme-${key}`}>{PALETTE_LABELS[key].title}</label>
                <span className="muted small">{PALETTE_LABELS[key].hint}</span>
              </div>
              <input id={`theme-${key}`} className="hex-input" value={form.palette[key]} onChange={(e) => setColor(key, e.target.value)} spellCheck={false} maxLength={7} />
              {problem && <div className="field-error color-error">{problem}</div>}
            </div>
          );
        })}
        <Field label="Logo URL" htmlFor="theme-logo" error={errorFor(error, 'logoUrl') ?? problems.logoUrl} hint="An http(s) URL of an image; leave empty for no logo.">
          <input
            id="theme-logo"
            value={form.logoUrl}
            onChange={(e) => {
              setSaved(null);
              setForm({ ...form, logoUrl: e.target.value });
              setError(withoutField(error, 'logoUrl'));
            }}
            placeholder="https://example.com/logo.svg"
            spellCheck={false}
          />
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={!patch || changed === 0}>
            Save theme
          </Button>
          <Button onClick={() => setForm(themeFormOf(current))} disabled={busy || changed === 0}>
            Discard
          </Button>
          <span className="grow" />
          <Button variant="ghost" onClick={() => setForm({ ...form, palette: { ...DEFAULT_PALETTE } })}>
            Use default colours
          </Button>
        </div>
        <ContrastFacts palette={shown} />
      </form>
      <ThemePreview palette={shown} logoUrl={form.logoUrl.trim()} />
      <SettingsConflictDialog {...versioned.dialog} />
    </div>
  );
}

function ContrastFacts({ palette }: { palette: Palette }) {
  const rows: { label: string; ratio: number }[] = [
    { label: 'Text on background', ratio: contrastRatio(palette.foreground, palette.background) },
    { label: 'Button text on primary', ratio: contrastRatio(textOn(palette.primary), palette.primary) },
    { label: 'Accent on background', ratio: contrastRatio(palette.accent, palette.background) },
  ];
  return (
    <dl className="facts contrast-facts" aria-label="Contrast">
      {rows.map((r) => {
        const grade = contrastGrade(r.ratio);
        return (
          <div key={r.label} className="contents">
            <dt>{r.label}</dt>
            <dd>
              <code>{r.ratio.toFixed(2)}:1</code>
              <Badge tone={grade === 'fails' ? 'bad' : grade === 'AA large' ? 'warn' : 'good'}>{grade === 'fails' ? 'below WCAG AA' : `WCAG ${grade}`}</Badge>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** A small mock of the themed app: header with logo, a card with text, a chart and buttons. */
function ThemePreview({ palette, logoUrl }: { palette: Palette; logoUrl: string }) {
  const vars = {
    '--p-primary': palette.primary,
    '--p-on-primary': textOn(palette.primary),
    '--p-accent': palette.accent,
    '--p-on-accent': textOn(palette.accent),
    '--p-bg': palette.background,
    '--p-fg': palette.foreground,
  } as CSSProperties;
  const loadable = logoUrl !== '' && previewableLogo(logoUrl, window.location.origin);
  let host = '';
  try {
    host = logoUrl ? new URL(logoUrl).host : '';
  } catch {
    host = '';
  }
  const bars = [38, 62, 48, 80, 56, 92, 70];
  return (
    <section className="panel theme-preview-panel" aria-label="Preview">
      <div className="panel-head">
        <h2>Live preview</h2>
        <span className="muted small">Updates as you type; nothing is saved until you save.</span>
      </div>
      <div className="theme-preview" style={vars} data-testid="theme-preview">
        <div className="tp-header">
          {loadable ? (
            <img className="tp-logo" src={logoUrl} alt="Logo" />
          ) : logoUrl ? (
            <span className="tp-logo tp-logo-external" title={`${logoUrl} is shown in the app; the preview does not fetch images from other sites.`}>
              {host || 'logo'}
            </span>
          ) : (
            <span className="tp-logo tp-logo-none">Logo</span>
          )}
          <span className="tp-title">Revenue overview</span>
          <span className="tp-nav">
            <span className="tp-nav-active">Dashboards</span>
            <span>Workbooks</span>
            <span>Explore</span>
          </span>
        </div>
        <div className="tp-body">
          <div className="tp-card">
            <div className="tp-card-head">
              <strong>Weekly revenue</strong>
              <span className="tp-chip">+12.4%</span>
            </div>
            <div className="tp-chart" aria-hidden="true">
              {bars.map((h, i) => (
                <span key={i} style={{ height: `${h}%` }} className={i === bars.length - 2 ? 'tp-bar tp-bar-accent' : 'tp-bar'} />
              ))}
            </div>
            <p className="tp-text">
              Orders grew in every region. <span className="tp-link">See the breakdown</span>.
            </p>
            <div className="tp-actions">
              <span className="tp-button">Share</span>
              <span className="tp-button tp-button-outline">Export</span>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
