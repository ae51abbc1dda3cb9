import { plainCode } from './codes';

// The service's problems in plain words, with the fix. The service answers in the API's terms
// ("/body/name must NOT have fewer than 1 characters", code VALIDATION_FAILED); people need "Give the
// deployment a name.". Every screen shows failures through ProblemBanner and field errors through
// `errorFor`, both fed by `toShownError`, which calls these: one place maps codes and schema
// messages to sentences. The code, status and the service's own words stay behind "Details".

/** What a request was about, from its operationId: `createDeployment` → `deployment`. */
export function subjectOf(operationId: string | null | undefined): string | null {
  if (!operationId) return null;
  const override = SUBJECTS[operationId];
  if (override !== undefined) return override;
  const rest = operationId.replace(/^(create|update|upsert|set|start|add|patch|put|write|save|run|apply|preview|test|connect|rename|duplicate)/, '');
  if (rest === operationId || rest === '') return null;
  return rest
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/ (input|body|request)$/, '');
}

const SUBJECTS: Record<string, string | null> = {
  startWarehouseSemanticViewSync: 'push',
  startWarehouseSemanticViewPull: 'pull',
  createLakehouseMetricViewSync: 'publication',
  upsertLakehouseMetricViewIntegration: 'publication settings',
  writeDataModelFiles: 'model files',
  setEnvVars: 'environment variables',
};

/** `/body/targetSchema` → `target schema`; `/body/viewNames/0` → `view names`. */
export function fieldLabel(pointer: string): string {
  const parts = pointer.split('/').filter(Boolean).slice(1).filter((p) => !/^\d+$/.test(p));
  const last = parts[parts.length - 1] ?? '';
  const named = FIELD_NAMES[last];
  if (named) return named;
  return last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

/** Fields the screens label differently from the API's property name. */
const FIELD_NAMES: Record<string, string> = {
  targetSchema: 'schema',
  targetCatalog: 'catalog',
  viewNames: 'views',
  selectedViews: 'views',
  releaseChannelVersion: 'version',
  dataSourceName: 'data source',
  cronExpression: 'schedule',
  contentBase64: 'file',
  aiTokensAutoPurchaseAmount: 'amount per purchase',
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const article = (noun: string) => (/^[aeiou]/.test(noun) ? 'an' : 'a');

/** A field error as a sentence with the fix; an already plain detail is returned as it came. */
export function plainFieldError(pointer: string, detail: string, operationId?: string | null): string {
  const field = fieldLabel(pointer) || 'value';
  const subject = subjectOf(operationId);
  const the = subject ? `the ${subject}` : 'it';
  const Field = capital(field);
  let m: RegExpExecArray | null;
  if ((m = /^must NOT have fewer than (\d+) characters?$/.exec(detail))) {
    return m[1] === '1' ? `Give ${the} ${article(field)} ${field}.` : `${Field} needs at least ${m[1]} characters.`;
  }
  if ((m = /^must NOT have more than (\d+) characters?$/.exec(detail))) return `Shorten the ${field} to ${m[1]} characters or fewer.`;
  if ((m = /^must NOT have fewer than (\d+) items?$/.exec(detail))) return m[1] === '1' ? `Choose at least one ${field.replace(/s$/, '')}.` : `Choose at least ${m[1]} ${field}.`;
  if ((m = /^must NOT have more than (\d+) items?$/.exec(detail))) return `Choose at most ${m[1]} ${field}.`;
  if (/^must have required property/.test(detail)) return `${Field} is required.`;
  if (/^must be equal to one of the allowed values$/.test(detail) || /^must be equal to constant$/.test(detail)) return `Choose one of the offered values for ${field}.`;
  if ((m = /^must match pattern "(.*)"$/.exec(detail))) return m[1] === '\\S' ? `Give ${the} ${article(field)} ${field} that is not only spaces.` : `${Field} contains characters that are not allowed here.`;
  if ((m = /^must match format "(.*)"$/.exec(detail))) return FORMATS[m[1]!]?.(field) ?? `Enter a valid ${field}.`;
  if ((m = /^must be (integer|number|string|boolean|array|object|null)$/.exec(detail))) return `${Field} must be ${TYPES[m[1]!]}.`;
  if (detail === 'must be a finite number') return `${Field} must be a number.`;
  if ((m = /^must be (>=|>|<=|<) (-?[\d.]+)$/.exec(detail))) {
    const bound = { '>=': 'at least', '>': 'more than', '<=': 'at most', '<': 'less than' }[m[1] as '>=' | '>' | '<=' | '<'];
    return `${Field} must be ${bound} ${m[2]}.`;
  }
  if (detail === 'is not a known field') return `“${pointer.split('/').pop()}” is not a field this request accepts; remove it.`;
  if (/^must pass "|^must match (a|exactly one) schema/.test(detail)) return `${Field} is not in a form the service accepts.`;
  // The service's own field messages are sentences, or phrases about the field ("must not be empty").
  if (/^[a-z]/.test(detail) && field !== 'value') return `${Field} ${detail}${/[.!?]$/.test(detail) ? '' : '.'}`;
  return detail;
}

const TYPES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'on or off (true or false)',
  array: 'a list',
  object: 'a set of named values',
  null: 'empty',
};

const FORMATS: Record<string, (field: string) => string> = {
  email: () => 'Enter an email address, such as ana@example.com.',
  uri: (field) => `Enter the ${field} as a full address, starting with https://.`,
  'date-time': (field) => `Enter the ${field} as a date and time, such as 2025-01-31T09:00:00Z.`,
  date: (field) => `Enter the ${field} as a date, such as 2025-01-31.`,
};

export interface PlainProblem {
  /** What happened, after the action: "Starting the push failed: the warehouse cannot be reached". */
  title: string;
  /** What to do (with the service's own sentence first where it names the particulars). */
  detail: string;
}

/**
 * A problem's headline and explanation, from its stable code (lib/plain/codes.ts). A code Drydock
 * does not know keeps the service's own detail under a title that names the action.
 */
export function plainProblem(input: { code: string | null; status: number | null; detail: string; fieldCount: number; action?: string }): PlainProblem {
  const failed = (what: string) => (input.action ? `${input.action} failed: ${what}` : capital(what));
  const known = plainCode(input.code);
  // Field errors under a code of their own (AUTO_PURCHASE_AMOUNT_REQUIRED) get that code's words; plain
  // validation failures say how many values to correct (each field's sentence is listed below).
  if (input.fieldCount > 0 && (input.code === 'VALIDATION_FAILED' || (!known && input.status === 400))) {
    return { title: failed(input.fieldCount === 1 ? 'one value is not accepted' : `${input.fieldCount} values are not accepted`), detail: 'Correct the fields marked below, then try again.' };
  }
  if (known) {
    const said = known.keepDetail && input.detail ? `${input.detail.trim()}${/[.!?)]$/.test(input.detail.trim()) ? '' : '.'} ` : '';
    return { title: failed(known.what), detail: `${said}${known.fix}` };
  }
  if (input.status === 0) return { title: failed('Drydock’s service is not answering'), detail: 'Check that Drydock is still running, then try again.' };
  if (input.status !== null && input.status >= 500) return { title: failed('the service had a problem'), detail: `${input.detail} Try again; if it keeps happening, the service’s log says more.` };
  return { title: input.action ? `${input.action} failed` : 'That did not work', detail: input.detail };
}

/** A job's failure in one or two sentences (notification, history row), the code and message kept for "Details". */
export interface PlainFailure {
  /** What happened: the code's plain words, or the job's own message for a code Drydock does not know. */
  said: string;
  /** What to do (with the job's own message first where it names the particulars); null when unknown. */
  fix: string | null;
  code: string | null;
  message: string;
}

export function plainFailure(error: { code?: string | null; message?: string | null } | null | undefined): PlainFailure {
  const code = error?.code || null;
  const message = (error?.message ?? '').trim();
  const known = plainCode(code);
  if (!known) return { said: message || 'It ended without saying why.', fix: null, code, message };
  const particulars = known.keepDetail && message ? `${message}${/[.!?)]$/.test(message) ? '' : '.'} ` : '';
  return { said: `${capital(known.what)}.`, fix: `${particulars}${known.fix}`, code, message };
}
