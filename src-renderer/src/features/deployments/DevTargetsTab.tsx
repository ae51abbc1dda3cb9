import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  baseUserTag,
  DEFAULT_DEV_TEMPLATES,
  DEV_TARGET_MODES,
  devTemplateProblem,
  getDevTargetRule,
  MAX_DEV_TEMPLATE_LENGTH,
  placeDevTarget,
  updateDevTargetRule,
  USER_PLACEHOLDER,
  type DevTargetMode,
  type DevTargetRuleView,
} from '../../../../src-shared/api/dev-targets';
import { api, useSession } from '../../app/session';
import { errorFor } from '../../lib/errors';
import { SettingsConflictDialog } from '../../lib/SettingsConflictDialog';
import { Badge, Button, Field, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { useVersionedForm } from '../../lib/useVersionedForm';

const MODE_LABELS: Record<DevTargetMode, { title: string; hint: string }> = {
  'schema-suffix': { title: 'Per-user schema', hint: 'Dev objects keep their names in a schema of their own: the production schema name plus the template.' },
  'name-prefix': { title: 'Per-user name prefix', hint: 'Dev objects go to the production schema, each name starting with the template.' },
};

interface RuleForm {
  mode: DevTargetMode;
  /** As typed; empty means the mode's default template. */
  template: string;
}
const effectiveTemplate = (form: RuleForm) => (form.template.trim() === '' ? DEFAULT_DEV_TEMPLATES[form.mode] : form.template.trim());
const SAVED_NOTE = 'Saved. New dev pushes and publications use this rule; objects already written keep their names.';

/**
 * Where dev-mode pushes (warehouse semantic views) and publications (lakehouse metric views) from
 * a user's dev branch write: the deployment's dev-target rule, with an example for the signed-in
 * user and the problems of a template in plain words before saving.
 */
export function DevTargetsTab({ deploymentId }: { deploymentId: number }) {
  const rule = useQuery((signal) => api.callVersioned(getDevTargetRule, { params: { deploymentId }, signal }), [deploymentId], 'Loading the dev-target rule');
  const [saved, setSaved] = useState<string | null>(null);
  const note = useRef(SAVED_NOTE);
  const me = useSession((s) => s.user);
  // Saved with the version it was read at: a rule changed meanwhile (another window, a script) shows
  // both sides in the conflict dialog instead of being overwritten.
  const versioned = useVersionedForm<DevTargetRuleView, RuleForm>({
    what: 'The dev-target rule',
    action: 'Saving the dev-target rule',
    formOf: (r) => ({ mode: r.mode, template: r.template }),
    labels: { mode: 'Where dev objects go', template: 'Template' },
    show: (key, value) => (key === 'mode' ? MODE_LABELS[value as DevTargetMode].title : String(value)),
    save: (_base, mine, ifMatch) =>
      api.callVersioned(updateDevTargetRule, { params: { deploymentId }, body: { mode: mine.mode, template: effectiveTemplate(mine) }, ...(ifMatch ? { ifMatch } : {}) }),
    onSaved: () => setSaved(note.current),
  });
  const { current, form, error, setError, busy, load } = versioned;

  useEffect(() => {
    if (rule.data) load(rule.data.data, rule.data.version);
  }, [rule.data, load]);

  if (!current || !form) return rule.error ? <ProblemBanner error={rule.error} /> : <Spinner label="Loading the dev-target rule…" />;
  const { mode, template } = form;
  const effective = effectiveTemplate(form);
  const problem = devTemplateProblem(effective);
  const dirty = mode !== current.mode || effective !== current.template;
  const tag = baseUserTag(me?.email ?? 'alice@example.com', me?.id ?? 1);
  const example = problem ? null : placeDevTarget({ mode, template: effective }, tag, { schema: 'ANALYTICS', prefix: 'SV_' });
  const lakeExample = problem ? null : placeDevTarget({ mode, template: effective }, tag, { schema: 'default', prefix: '' }, true);

  const setTemplate = (next: string) => {
    versioned.setForm({ mode, template: next });
    setSaved(null);
    setError(null);
  };
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (problem) return;
    setSaved(null);
    note.current = SAVED_NOTE;
    void versioned.submit();
  };
  const reset = () => {
    setSaved(null);
    note.current = 'Reset to the default rule.';
    void versioned.submit({ mode: 'schema-suffix', template: '' });
  };
  const switchMode = (next: DevTargetMode) => {
    setSaved(null);
    setError(null);
    // A template still at the old mode's default follows the new mode's default.
    const followsDefault = template.trim() === '' || template.trim() === DEFAULT_DEV_TEMPLATES[mode];
    versioned.setForm({ mode: next, template: followsDefault ? DEFAULT_DEV_TEMPLATES[next] : template });
  };

  return (
    <>
      <form className="panel form" onSubmit={submit} noValidate aria-label="Dev targets">
        <div className="panel-head">
          <h2>Dev targets</h2>
          {current.isDefault ? <Badge>default rule</Badge> : current.updatedAt && <span className="muted">changed <Time value={current.updatedAt} /></span>}
          {saved && <span className="saved">{saved}</span>}
        </div>
        <p className="muted">
          A push or publication from a user’s dev branch never writes over the production objects: it goes to that user’s own schema or name prefix, set by this rule.
          Pushes and publications from the deploy branch go where they are asked.
        </p>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        <fieldset className="field">
          <legend>Where dev objects go</legend>
          {DEV_TARGET_MODES.map((m) => (
            <label key={m} className="radio">
              <input type="radio" name="dev-target-mode" value={m} checked={mode === m} onChange={() => switchMode(m)} /> {MODE_LABELS[m].title}
              <span className="field-hint"> — {MODE_LABELS[m].hint}</span>
            </label>
          ))}
        </fieldset>
        <Field
          label="Template"
          htmlFor="dev-target-template"
          error={(template.trim() !== '' && problem?.detail) || errorFor(error, 'template')}
          hint={
            <>
              Must contain <code>{USER_PLACEHOLDER}</code> once (the user’s tag, e.g. <code>{tag}</code>); otherwise letters, digits and underscores, at most {MAX_DEV_TEMPLATE_LENGTH}{' '}
              characters. Empty: the default <code>{DEFAULT_DEV_TEMPLATES[mode]}</code>.
            </>
          }
        >
          <input
            id="dev-target-template"
            value={template}
            onChange={(e) => setTemplate(e.target.value)}
            placeholder={DEFAULT_DEV_TEMPLATES[mode]}
            spellCheck={false}
            autoComplete="off"
          />
        </Field>
        {example && lakeExample && (
          <div className="notice" role="region" aria-label="Dev target example">
            Example: your push of view <code>orders</code> to schema <code>ANALYTICS</code> with prefix <code>SV_</code> from your dev branch creates{' '}
            <code>{`${example.schema}.${example.prefix}ORDERS`}</code>; a lakehouse publication to <code>default</code> writes{' '}
            <code>{`${lakeExample.schema}.${lakeExample.prefix}orders`}</code>.
          </div>
        )}
        <div className="actions">
          <Button onClick={reset} disabled={busy || current.isDefault}>
            Reset to default
          </Button>
          <Button variant="primary" onClick={() => submit()} busy={busy} disabled={!dirty || !!problem}>
            Save
          </Button>
        </div>
        <button type="submit" hidden />
      </form>
      <SettingsConflictDialog {...versioned.dialog} />
    </>
  );
}
