import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { getTenantSettings, updateTenantSettings, type TenantSettings } from '../../../../src-shared/api/tenant';
import { api } from '../../app/session';
import { errorFor, withoutField } from '../../lib/errors';
import { Button, Field, ProblemBanner, Spinner } from '../../lib/ui';
import { SettingsConflictDialog } from '../../lib/SettingsConflictDialog';
import { useVersionedForm } from '../../lib/useVersionedForm';
import { useQuery } from '../../lib/useQuery';
import { parseAmount, tenantFormOf, tenantPatch, type TenantForm } from './tenant';

type Switch = { [K in keyof TenantSettings]: TenantSettings[K] extends boolean ? K : never }[keyof TenantSettings];

const FEATURE_SWITCHES: { key: Switch; title: string; hint: string }[] = [
  { key: 'newUiEnabled', title: 'New UI', hint: 'The tenant uses the new interface.' },
  { key: 'creatorMode', title: 'Creator mode', hint: 'Authors build workbooks and dashboards in place.' },
  { key: 'dashboardAppsEnabled', title: 'Dashboard apps', hint: 'Interactive apps inside dashboards.' },
  { key: 'sheetsUi', title: 'Sheets UI', hint: 'The spreadsheet add-in interface.' },
  { key: 'sheetsAgentChatEnabled', title: 'Agent chat in Sheets', hint: 'Chat with the agent from the add-in.' },
  { key: 'restrictDataDownload', title: 'Restrict data download', hint: 'Only users with DownloadData may export results.' },
  { key: 'embeddingEnabled', title: 'Signed embedding', hint: 'Apps may generate embed sessions.' },
  { key: 'applyThemeGlobally', title: 'Apply the app theme everywhere', hint: 'Dashboards and embeds use the app theme too.' },
];

/** IANA zones the browser knows, for the time-zone suggestions. */
const TIME_ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(key: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The fields the form edits, as the "changed elsewhere" dialog names them. */
const TENANT_LABELS: Partial<Record<keyof TenantForm, string>> = {
  ...Object.fromEntries(FEATURE_SWITCHES.map((s) => [s.key, s.title])),
  defaultTimezone: 'Default time zone',
  allowUserTimezoneOverride: 'Users may choose their own time zone',
  aiEnabled: 'AI features',
  scheduledTasksEnabled: 'Scheduled tasks',
  aiTokensAutoPurchaseEnabled: 'Buy AI tokens automatically',
  aiTokensAutoPurchaseAmount: 'Amount per purchase (USD)',
};

export function TenantTab() {
  const query = useQuery((signal) => api.callVersioned(getTenantSettings, { signal }), [], 'Loading tenant settings');
  const [saved, setSaved] = useState<string | null>(null);
  const versioned = useVersionedForm<TenantSettings, TenantForm>({
    what: 'The tenant settings',
    action: 'Saving tenant settings',
    formOf: tenantFormOf,
    labels: TENANT_LABELS,
    save: (base, mine, ifMatch) => api.callVersioned(updateTenantSettings, { body: tenantPatch(base, mine), ...(ifMatch ? { ifMatch } : {}) }),
    onSaved: (_saved, base, mine) => setSaved(`Saved: ${Object.keys(tenantPatch(base, mine)).join(', ') || 'no changes'}.`),
  });
  const { current, form, setForm, error, setError, busy, load } = versioned;

  useEffect(() => {
    if (query.data) load(query.data.data, query.data.version);
  }, [query.data, load]);

  const patch = useMemo(() => {
    if (!current || !form) return { value: null, problem: null };
    try {
      return { value: tenantPatch(current, form), problem: null };
    } catch (failure) {
      return { value: null, problem: failure instanceof Error ? failure.message : String(failure) };
    }
  }, [current, form]);

  if (!form || !current) {
    return (
      <>
        <ProblemBanner error={query.error} />
        {query.loading && <Spinner label="Loading tenant settings…" />}
      </>
    );
  }

  const set = <K extends keyof TenantForm>(key: K, value: TenantForm[K]) => {
    setSaved(null);
    setForm({ ...form, [key]: value });
    setError(withoutField(error, key));
  };
  const changed = patch.value ? Object.keys(patch.value) : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!patch.value) return;
    setSaved(null);
    void versioned.submit();
  };

  const amountProblem = (() => {
    const parsed = parseAmount(form.aiTokensAutoPurchaseAmount);
    return 'error' in parsed ? parsed.error : null;
  })();

  return (
    <form className="tenant-form" onSubmit={submit} noValidate aria-label="Tenant settings">
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
      <div className="split">
        <section className="panel">
          <h2>Features</h2>
          <div className="switch-list">
            {FEATURE_SWITCHES.map((s) => (
              <SwitchRow key={s.key} id={`tenant-${s.key}`} title={s.title} hint={s.hint} checked={form[s.key]} onChange={(v) => set(s.key, v)} error={errorFor(error, s.key)} />
            ))}
          </div>
        </section>
        <div className="side">
          <section className="panel form">
            <h2>Time zone</h2>
            <Field label="Default time zone" htmlFor="tenant-timezone" error={errorFor(error, 'defaultTimezone')} hint="IANA name, e.g. Europe/Berlin.">
              <input id="tenant-timezone" list="tenant-timezones" value={form.defaultTimezone} onChange={(e) => set('defaultTimezone', e.target.value)} spellCheck={false} autoComplete="off" />
            </Field>
            <datalist id="tenant-timezones">
              {TIME_ZONES.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
            <SwitchRow
              id="tenant-allowUserTimezoneOverride"
              title="Users may choose their own time zone"
              checked={form.allowUserTimezoneOverride}
              onChange={(v) => set('allowUserTimezoneOverride', v)}
              error={errorFor(error, 'allowUserTimezoneOverride')}
            />
          </section>
          <section className="panel form">
            <h2>AI</h2>
            <SwitchRow id="tenant-aiEnabled" title="AI features" hint="Chat, AI widgets and agents." checked={form.aiEnabled} onChange={(v) => set('aiEnabled', v)} error={errorFor(error, 'aiEnabled')} />
            <SwitchRow
              id="tenant-scheduledTasksEnabled"
              title="Scheduled tasks"
              hint="Agent prompts that run on a schedule; when off, their routes answer 403."
              checked={form.scheduledTasksEnabled}
              onChange={(v) => set('scheduledTasksEnabled', v)}
              error={errorFor(error, 'scheduledTasksEnabled')}
            />
            <SwitchRow
              id="tenant-aiTokensAutoPurchaseEnabled"
              title="Buy AI tokens automatically"
              hint="When the balance falls below the threshold."
              checked={form.aiTokensAutoPurchaseEnabled}
              onChange={(v) => set('aiTokensAutoPurchaseEnabled', v)}
              error={errorFor(error, 'aiTokensAutoPurchaseEnabled')}
            />
            <div className="form-row">
              <Field label="Amount per purchase (USD)" htmlFor="tenant-amount" error={errorFor(error, 'aiTokensAutoPurchaseAmount') ?? amountProblem} hint="1 to 100,000; blank until chosen.">
                <input id="tenant-amount" inputMode="decimal" value={form.aiTokensAutoPurchaseAmount} onChange={(e) => set('aiTokensAutoPurchaseAmount', e.target.value)} placeholder="e.g. 50.00" />
              </Field>
              <Field label="Threshold (USD)" htmlFor="tenant-threshold" error={errorFor(error, 'aiTokensAutoPurchaseThreshold')} hint="Set by the platform; read-only.">
                <input id="tenant-threshold" value={money.format(current.aiTokensAutoPurchaseThreshold)} disabled readOnly />
              </Field>
            </div>
          </section>
        </div>
      </div>
      <div className="sticky-actions">
        <Button type="submit" variant="primary" busy={busy} disabled={changed.length === 0 || patch.problem !== null}>
          Save settings
        </Button>
        <Button
          onClick={() => {
            setForm(tenantFormOf(current));
            setError(null);
          }}
          disabled={busy || (changed.length === 0 && patch.problem === null)}
        >
          Discard
        </Button>
        <span className="muted">{changed.length > 0 ? `Changed: ${changed.join(', ')}` : saved ? null : 'No changes.'}</span>
        {saved && (
          <span className="saved" role="status">
            {saved}
          </span>
        )}
      </div>
      <SettingsConflictDialog {...versioned.dialog} />
    </form>
  );
}

function SwitchRow({ id, title, hint, checked, onChange, error }: { id: string; title: string; hint?: string; checked: boolean; onChange: (value: boolean) => void; error?: string | null }) {
  return (
    <div className={`switch-row ${error ? 'field-invalid' : ''}`}>
      <input id={id} type="checkbox" className="switch" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>
        <span className="switch-title">{title}</span>
        {hint && <span className="muted small">{hint}</span>}
        {error && <span className="field-error">{error}</span>}
      </label>
    </div>
  );
}

