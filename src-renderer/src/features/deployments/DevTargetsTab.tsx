import { useEffect, useState, type FormEvent } from 'react';
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
} from '../../../../src-shared/api/dev-targets';
import { api, useSession } from '../../app/session';
import { errorFor, toShownError, type ShownError } from '../../lib/errors';
import { Badge, Button, Field, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';

const MODE_LABELS: Record<DevTargetMode, { title: string; hint: string }> = {
  'schema-suffix': { title: 'Per-user schema', hint: 'Dev objects keep their names in a schema of their own: the production schema name plus the template.' },
  'name-prefix': { title: 'Per-user name prefix', hint: 'Dev objects go to the production schema, each name starting with the template.' },
};

/**
 * Where dev-mode pushes (warehouse semantic views) and publications (lakehouse metric views) from
 * a user's dev branch write: the deployment's dev-target rule, with an example for the signed-in
 * user and the problems of a template in plain words before saving.
 */
export function DevTargetsTab({ deploymentId }: { deploymentId: number }) {
  const [version, setVersion] = useState(0);
  const rule = useQuery((signal) => api.call(getDevTargetRule, { params: { deploymentId }, signal }), [deploymentId, version], 'Loading the dev-target rule');
  const [mode, setMode] = useState<DevTargetMode>('schema-suffix');
  const [template, setTemplate] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const me = useSession((s) => s.user);

  useEffect(() => {
    if (!rule.data) return;
    setMode(rule.data.mode);
    setTemplate(rule.data.template);
  }, [rule.data]);

  if (!rule.data) return rule.error ? <ProblemBanner error={rule.error} /> : <Spinner label="Loading the dev-target rule…" />;
  const current = rule.data;
  const effective = template.trim() === '' ? DEFAULT_DEV_TEMPLATES[mode] : template.trim();
  const problem = devTemplateProblem(effective);
  const dirty = mode !== current.mode || effective !== current.template;
  const tag = baseUserTag(me?.email ?? 'alice@example.com', me?.id ?? 1);
  const example = problem ? null : placeDevTarget({ mode, template: effective }, tag, { schema: 'ANALYTICS', prefix: 'SV_' });
  const lakeExample = problem ? null : placeDevTarget({ mode, template: effective }, tag, { schema: 'default', prefix: '' }, true);

  const save = async (body: { mode: DevTargetMode; template?: string }, note: string) => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      await api.call(updateDevTargetRule, { params: { deploymentId }, body });
      setSaved(note);
      setVersion((v) => v + 1);
    } catch (e) {
      setError(toShownError(e, 'Saving the dev-target rule'));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (problem) return;
    void save({ mode, template: effective }, 'Saved. New dev pushes and publications use this rule; objects already written keep their names.');
  };
  const switchMode = (next: DevTargetMode) => {
    setSaved(null);
    setError(null);
    // A template still at the old mode's default follows the new mode's default.
    if (template.trim() === '' || template.trim() === DEFAULT_DEV_TEMPLATES[mode]) setTemplate(DEFAULT_DEV_TEMPLATES[next]);
    setMode(next);
  };

  return (
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
          onChange={(e) => (setTemplate(e.target.value), setSaved(null), setError(null))}
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
        <Button onClick={() => void save({ mode: 'schema-suffix' }, 'Reset to the default rule.')} disabled={busy || current.isDefault}>
          Reset to default
        </Button>
        <Button variant="primary" onClick={() => submit()} busy={busy} disabled={!dirty || !!problem}>
          Save
        </Button>
      </div>
      <button type="submit" hidden />
    </form>
  );
}
