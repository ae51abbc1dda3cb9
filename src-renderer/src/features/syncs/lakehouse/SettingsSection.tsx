import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { MAX_NAME_PATTERN_LENGTH, type LakehouseSettings, type SelectionMode } from '../../../../../src-shared/api/lakehouse';
import { errorFor, inOneLine, type ShownError } from '../../../lib/errors';
import { SchemaPicker } from '../../../lib/SchemaPicker';
import { Badge, Button, Field, ProblemBanner, Time } from '../../../lib/ui';
import { useDebounced } from '../../../lib/useDebounced';
import { useDataSourceSchemas } from '../data';
import type { ModelViewInfo } from '../modelViews';
import { ViewPicker } from '../parts';
import { formErrors, patternMatches, type SettingsForm } from './form';
import { plural } from '../../../lib/plural';
import { AccessTestCard } from './AccessTestCard';
import { ConflictNotice, type Conflict } from './SettingsConflict';
import { Overrides } from './SettingsOverrides';

// The publication settings of one lakehouse data source: the form (target, scope, overrides) with
// its save and version-conflict handling, and beside it what is saved and the access test.

const MODES: { id: SelectionMode; title: string; hint: string }[] = [
  { id: 'all', title: 'All public views', hint: 'Every public view of the deployed model, including views added later.' },
  { id: 'selected', title: 'Selected views', hint: 'Only the views you pick; new views are not added until you edit the list.' },
  { id: 'pattern', title: 'Views matching a pattern', hint: 'Views whose name matches; new matching views join on the next run.' },
];

export function SettingsSection(props: {
  deploymentId: number;
  dataSource: string;
  form: SettingsForm;
  onChange: (form: SettingsForm) => void;
  base: LakehouseSettings | null;
  dirty: string[];
  views: ModelViewInfo[];
  viewsLoading: boolean;
  viewsError: ShownError | null;
  saving: boolean;
  saveError: ShownError | null;
  onDismissError: () => void;
  savedNote: string | null;
  onSave: () => void;
  onDiscard: () => void;
  conflict: Conflict | null;
  onRebase: () => void;
  onTakeTheirs: () => void;
}) {
  const { form, onChange, base, saveError, conflict } = props;
  const [touched, setTouched] = useState(false);
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => onChange({ ...form, [key]: value });
  const errors = formErrors(form);
  // The catalogs the data source's credential may use, and the schemas of the catalog chosen (as typed, once typing stops).
  const catalogs = useDataSourceSchemas(props.deploymentId, props.dataSource);
  const schemas = useDataSourceSchemas(props.deploymentId, props.dataSource, useDebounced(form.targetCatalog.trim(), 400) || null);
  const shown = (key: keyof typeof errors, apiField: string) => (touched || saveError ? errors[key] : null) ?? errorFor(saveError, apiField);
  // Only views whose cubes use this data source are in its scope (a warehouse view is not).
  const ownViews = props.views.filter((v) => v.dataSources.some((ds) => ds.toLowerCase() === props.dataSource.toLowerCase()));
  const otherCount = props.views.length - ownViews.length;
  const publicViews = ownViews.filter((v) => v.public);
  const pattern = form.selectionMode === 'pattern' ? patternMatches(form.namePattern, publicViews.map((v) => v.name)) : null;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    props.onSave();
  };

  return (
    <div className="two-col">
      <form className="panel form sy-settings" aria-label="Publication settings" onSubmit={submit}>
        {conflict && <ConflictNotice conflict={conflict} base={base} onRebase={props.onRebase} onTakeTheirs={props.onTakeTheirs} />}
        {saveError && (
          <RevealOnChange value={saveError}>
            <ProblemBanner error={saveError} onDismiss={props.onDismissError} />
          </RevealOnChange>
        )}

        <fieldset className="sy-fieldset">
          <legend>Publishing</legend>
          <label className="check sy-toggle">
            <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} aria-describedby="lh-enabled-hint" />
            <span>
              <span className="strong">Publish metric views</span>
              <span id="lh-enabled-hint" className="field-hint">
                {form.enabled ? 'Runs write the views in scope to the target.' : 'Runs write nothing and report the views they manage as retained.'}
              </span>
            </span>
          </label>
        </fieldset>

        <fieldset className="sy-fieldset">
          <legend>Target</legend>
          <div className="sy-form-3">
            <Field label="Catalog" htmlFor="lh-catalog" error={shown('targetCatalog', 'configuration.targetCatalog')}>
              <SchemaPicker
                id="lh-catalog"
                list="catalogs"
                value={form.targetCatalog}
                onChange={(value) => set('targetCatalog', value)}
                schemas={catalogs}
                placeholder="Choose a catalog"
                unlistedWarning="publications to it would fail"
              />
            </Field>
            <Field label="Schema" htmlFor="lh-schema" error={shown('targetSchema', 'configuration.targetSchema')}>
              <SchemaPicker
                id="lh-schema"
                value={form.targetSchema}
                onChange={(value) => set('targetSchema', value)}
                schemas={schemas}
                placeholder={form.targetCatalog.trim() ? 'Choose a schema' : 'Choose a catalog first'}
                unlistedWarning="publications to it would fail (create it in the lakehouse first)"
              />
            </Field>
            <Field label="Name prefix" htmlFor="lh-prefix" error={errorFor(saveError, 'configuration.targetNamePrefix')} hint="Optional, before every target name.">
              <input id="lh-prefix" value={form.targetNamePrefix} onChange={(e) => set('targetNamePrefix', e.target.value)} spellCheck={false} autoComplete="off" placeholder="mv_" />
            </Field>
          </div>
          <div className="field-hint">
            Views publish as <code>{`${form.targetCatalog || '<catalog>'}.${form.targetSchema || '<schema>'}.${form.targetNamePrefix}<view>`}</code>.
          </div>
        </fieldset>

        <fieldset className="sy-fieldset">
          <legend>Views to publish</legend>
          <div className="sy-modes" role="radiogroup" aria-label="Selection mode">
            {MODES.map((m) => (
              <label key={m.id} className={`sy-mode ${form.selectionMode === m.id ? 'active' : ''}`}>
                <input type="radio" name="lh-mode" value={m.id} checked={form.selectionMode === m.id} onChange={() => set('selectionMode', m.id)} />
                <span>
                  <span className="strong">{m.title}</span>
                  <span className="field-hint">{m.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {form.selectionMode === 'all' && (
            <div className="field-hint">
              {props.viewsLoading
                ? 'Reading the model…'
                : `${plural(publicViews.length, 'public view')} on data source ${props.dataSource} in the model on the deploy branch${otherCount > 0 ? ` (${otherCount} on other data sources are not published here)` : ''}.`}
            </div>
          )}
          {form.selectionMode === 'selected' && (
            <div className={`field ${shown('selectedViews', 'configuration.selectedViews') ? 'field-invalid' : ''}`}>
              <label id="lh-views-label" htmlFor="lh-views">
                Views
              </label>
              <ViewPicker
                id="lh-views"
                views={ownViews}
                emptyText={`The model has no views on data source ${props.dataSource} on this branch.`}
                loading={props.viewsLoading} selected={form.selectedViews} onChange={(names) => set('selectedViews', names)} mode="publish" />
              {props.viewsError && <div className="field-error">{inOneLine(props.viewsError)}</div>}
              {shown('selectedViews', 'configuration.selectedViews') && <div className="field-error">{shown('selectedViews', 'configuration.selectedViews')}</div>}
            </div>
          )}
          {form.selectionMode === 'pattern' && (
            <Field
              label="Name pattern"
              htmlFor="lh-pattern"
              error={(form.namePattern !== '' || touched ? errors.namePattern : null) ?? errorFor(saveError, 'configuration.namePattern')}
              hint={
                pattern?.ok ? (
                  <span className="sy-matches">
                    {pattern.matches.length === 0 ? (
                      'Matches no public view yet.'
                    ) : (
                      <>
                        Matches {pattern.matches.length}: {pattern.matches.slice(0, 8).map((m) => <code key={m}>{m}</code>)}
                        {pattern.matches.length > 8 && <span>+{pattern.matches.length - 8}</span>}
                      </>
                    )}
                  </span>
                ) : (
                  <>
                    Letters, digits, <code>_</code> and <code>-</code>; <code>^</code> first, <code>$</code> last, <code>.</code> for one character and at most one{' '}
                    <code>.*</code>.
                  </>
                )
              }
            >
              <input
                id="lh-pattern"
                value={form.namePattern}
                onChange={(e) => set('namePattern', e.target.value)}
                spellCheck={false}
                autoComplete="off"
                placeholder="^sales_.*"
                maxLength={MAX_NAME_PATTERN_LENGTH + 16}
                aria-invalid={!!errors.namePattern && form.namePattern !== ''}
                className="sy-mono"
              />
            </Field>
          )}
        </fieldset>

        <fieldset className="sy-fieldset">
          <legend>When a view leaves the scope</legend>
          <Field label="Deletion policy" htmlFor="lh-deletion" error={errorFor(saveError, 'configuration.deletionPolicy')}>
            <select id="lh-deletion" value={form.deletionPolicy} onChange={(e) => set('deletionPolicy', e.target.value as SettingsForm['deletionPolicy'])}>
              <option value="retain">Retain the published metric view (default)</option>
              {/* Deprecated: offered only to settings that already use it (issue 24), so it can be seen and changed to retain. */}
              {(form.deletionPolicy === 'delete-managed' || base?.configuration.deletionPolicy === 'delete-managed') && (
                <option value="delete-managed">delete-managed (deprecated: behaves like retain)</option>
              )}
            </select>
          </Field>
          {form.deletionPolicy === 'delete-managed' ? (
            <div className="notice sy-inline-notice">
              <Badge tone="warn">deprecated</Badge> <code>delete-managed</code> is still accepted but deletes nothing: targets that leave the scope are kept and reported as retained.
            </div>
          ) : (
            <div className="field-hint">Metric views are never deleted; a view that leaves the scope is reported as retained.</div>
          )}
        </fieldset>

        <fieldset className="sy-fieldset">
          <legend>Per-view overrides</legend>
          <Overrides rows={form.overrides} views={ownViews} onChange={(rows) => set('overrides', rows)} error={shown('overrides', 'configuration.targetNameOverrides') ?? errorFor(saveError, 'configuration.rootSourceOverrides')} />
        </fieldset>

        <div className="form-actions sy-form-actions">
          <Button type="submit" variant="primary" busy={props.saving} disabled={!!conflict}>
            {base ? 'Save settings' : 'Create settings'}
          </Button>
          <Button onClick={props.onDiscard} disabled={props.dirty.length === 0 || !base}>
            Discard changes
          </Button>
          {conflict ? (
            <span className="sy-unsaved">Resolve the version conflict above first.</span>
          ) : props.savedNote ? (
            <span className="saved" role="status">
              {props.savedNote}
            </span>
          ) : props.dirty.length > 0 && base ? (
            <span className="muted">Changed: {props.dirty.join(', ')}</span>
          ) : null}
        </div>
      </form>
      <aside className="side">
        <SavedCard base={base} />
        <AccessTestCard deploymentId={props.deploymentId} dataSource={props.dataSource} form={form} hasSettings={!!base} />
      </aside>
    </div>
  );
}

/** Scrolls its content into view when `value` becomes set (the form's Save button is far below its messages). */
function RevealOnChange({ value, children }: { value: unknown; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (value) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [value]);
  return <div ref={ref}>{children}</div>;
}

function SavedCard({ base }: { base: LakehouseSettings | null }) {
  return (
    <section className="panel" aria-label="Saved settings">
      <h2>Saved settings</h2>
      {base ? (
        <dl className="facts">
          <dt>Version</dt>
          <dd>
            <Badge tone="info">v{base.configurationVersion}</Badge>
          </dd>
          <dt>Saved</dt>
          <dd>
            <Time value={base.updatedAt} />
            {base.updatedBy !== null && <span className="muted">by user #{base.updatedBy}</span>}
          </dd>
          <dt>Target</dt>
          <dd>
            <code>{`${base.configuration.targetCatalog}.${base.configuration.targetSchema}`}</code>
          </dd>
          <dt>Scope</dt>
          <dd>
            {base.configuration.selectionMode === 'all'
              ? 'all public views'
              : base.configuration.selectionMode === 'selected'
                ? `${base.configuration.selectedViews.length} selected`
                : <code>{base.configuration.namePattern}</code>}
          </dd>
        </dl>
      ) : (
        <p className="muted sy-card-text">Nothing saved yet for this data source. Fill in the target and the views, then create the settings.</p>
      )}
    </section>
  );
}
