/**
 * Errors in plain words (issue 14 item 6): every problem code the service can send has words that
 * say what happened and what to do; schema messages become sentences about the field the user sees;
 * the service's own code, words and pointers stay available for "Details".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../../src-shared/api/client';
import { inOneLine, toShownError } from '../../../src-renderer/src/lib/errors';
import { plainCode } from '../../../src-renderer/src/lib/plain/codes';
import { fieldLabel, plainFieldError } from '../../../src-renderer/src/lib/plain/problems';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The codes the service can answer with, read from its source: the `…ErrorCodes` tables (contract
 * and connectors), the connectors' code lists, and the literal codes of every `ApiError`, helper
 * (`badRequest`, `conflict`, `unprocessable`, `notFound`, `forbidden`) and `JobFailure`.
 */
function codesInSource(): Map<string, string> {
  const codes = new Map<string, string>();
  const thrown =
    /(?:new ApiError\(\s*\d+\s*,\s*|badRequest\(\s*|conflict\(\s*|unprocessable\(\s*|new JobFailure\(\s*|(?:notFound|forbidden)\([^()]*?,\s*)['"]([A-Z][A-Z0-9_]+)['"]/gs;
  for (const file of [...sourceFiles('src-main'), ...sourceFiles('src-shared')]) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const add = (code: string) => codes.has(code) || codes.set(code, file);
    for (const m of text.matchAll(thrown)) add(m[1]!);
    for (const table of text.matchAll(/ErrorCodes\s*=\s*\{([^}]*)\}/gs)) for (const m of table[1]!.matchAll(/:\s*'([A-Z][A-Z0-9_]+)'/g)) add(m[1]!);
    for (const list of text.matchAll(/ERROR_CODES\s*=\s*\[([^\]]*)\]/gs)) for (const m of list[1]!.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) add(m[1]!);
  }
  return codes;
}

/** Codes made outside those forms, each with the file that makes it (checked, so the list cannot go stale). */
const MADE_ELSEWHERE: Record<string, string> = {
  NETWORK_ERROR: 'src-shared/api/client.ts', // the client, when the service cannot be reached
  BAD_REQUEST: 'src-main/http/server.ts', // the error handler, for other 4xx of the framework
};

const SCHEMA_TERMS = [/\/body\b/, /\/query\b/, /must have required property/, /must NOT have/, /must match pattern/, /\bproblem\+json\b/];

describe('every code the service sends has plain words', () => {
  const codes = codesInSource();
  for (const [code, file] of Object.entries(MADE_ELSEWHERE)) {
    expect(readFileSync(join(ROOT, file), 'utf8'), `${code} in ${file}`).toContain(`'${code}'`);
    codes.set(code, file);
  }

  it('the scan of the source finds the codes of every area', () => {
    // A scan that finds nothing would pass everything below; these come from different areas and forms.
    for (const code of ['VALIDATION_FAILED', 'MODEL_NOT_PUSHABLE', 'LAKEHOUSE_TARGET_REQUIRED', 'WAREHOUSE_CONNECTION_FAILED', 'FOLDER_NAME_TAKEN', 'DATA_SOURCE_INCOMPLETE', 'MERGE_CONFLICT']) {
      expect(codes.has(code), code).toBe(true);
    }
    expect(codes.size).toBeGreaterThan(200);
  });

  it('each code says what happened and what to do, without API terms', () => {
    const missing = [...codes.entries()].filter(([code]) => plainCode(code) === null).map(([code, file]) => `${code} (${file})`);
    expect(missing, 'codes without plain words: add them to src-renderer/src/lib/plain/codes.ts').toEqual([]);
    for (const code of codes.keys()) {
      const words = plainCode(code)!;
      expect(words.what.length, code).toBeGreaterThan(5);
      expect(words.fix, code).toMatch(/[.!?)]$/);
      for (const term of SCHEMA_TERMS) expect(`${words.what} ${words.fix}`, code).not.toMatch(term);
      expect(`${words.what} ${words.fix}`, code).not.toContain(code);
    }
  });
});

const problem = (init: Partial<ConstructorParameters<typeof ApiProblem>[0]>) =>
  new ApiProblem({ status: 400, code: 'VALIDATION_FAILED', title: 'Bad Request', detail: '', operationId: 'startWarehouseSemanticViewSync', ...init });

describe('toShownError', () => {
  it('a missing field reads "Schema is required." and the pointer stays behind Details', () => {
    const shown = toShownError(
      problem({ detail: "The request is invalid: /body/schema must have required property 'schema'.", errors: [{ pointer: '/body/schema', detail: "must have required property 'schema'" }] }),
      'Starting the push',
    );
    expect(shown.title).toBe('Starting the push failed: one value is not accepted');
    expect(shown.detail).toBe('Correct the fields marked below, then try again.');
    expect(shown.fields).toEqual([{ pointer: '/body/schema', detail: 'Schema is required.' }]);
    expect(shown.code).toBe('VALIDATION_FAILED');
    expect(shown.technical).toEqual({
      title: 'Bad Request',
      detail: "The request is invalid: /body/schema must have required property 'schema'.",
      fields: [{ pointer: '/body/schema', detail: "must have required property 'schema'" }],
      operationId: 'startWarehouseSemanticViewSync',
    });
  });

  it('a known code gets its words and the fix; the service detail moves to Details', () => {
    const shown = toShownError(
      problem({ status: 422, code: 'LAKEHOUSE_TARGET_REQUIRED', title: 'Unprocessable Content', detail: 'Data source "lake" has no saved target; save settings or send targetCatalog and targetSchema.' }),
      'Starting the preview',
    );
    expect(shown.title).toBe('Starting the preview failed: no catalog and schema are set to publish into');
    expect(shown.detail).toBe('Choose the catalog and schema in the settings and save them.');
    expect(shown.detail).not.toContain('targetCatalog');
    expect(shown.technical?.detail).toContain('targetCatalog');
  });

  it('field errors under a code of their own get that code’s words, and each field its sentence', () => {
    const shown = toShownError(
      problem({
        code: 'AUTO_PURCHASE_AMOUNT_REQUIRED',
        detail: 'Automatic AI token purchase needs an aiTokensAutoPurchaseAmount (in dollars).',
        errors: [{ pointer: '/body/aiTokensAutoPurchaseAmount', detail: 'is required while automatic purchase is on' }],
      }),
      'Saving tenant settings',
    );
    expect(shown.title).toBe('Saving tenant settings failed: automatic purchases need an amount');
    expect(shown.detail).toBe('Enter the amount to buy each time, then save.');
    expect(shown.fields[0]!.detail).toBe('Amount per purchase is required while automatic purchase is on.');
  });

  it('a code whose detail names the particulars keeps that sentence before the fix', () => {
    const shown = toShownError(problem({ status: 422, code: 'MODEL_NOT_PUSHABLE', detail: 'View order_funnel cannot be pushed: it has a segment' }), 'Starting the push');
    expect(shown.title).toBe('Starting the push failed: some views cannot be pushed');
    expect(shown.detail).toBe('View order_funnel cannot be pushed: it has a segment. Leave them out of the push, or change them as Models › Problems says.');
  });

  it('an unknown code falls back to the service words under a title naming the action', () => {
    const shown = toShownError(problem({ status: 409, code: 'SOMETHING_NEW', title: 'Conflict', detail: 'The gizmo is frobbed.' }), 'Saving');
    expect(shown.title).toBe('Saving failed');
    expect(shown.detail).toBe('The gizmo is frobbed.');
    expect(shown.code).toBe('SOMETHING_NEW');
    expect(shown.technical?.title).toBe('Conflict');
  });

  it('a family code (…_NOT_FOUND, …_TAKEN) is worded from its name', () => {
    expect(toShownError(problem({ status: 404, code: 'WORKBOOK_NOT_FOUND', detail: 'Workbook 9 was not found.' }), 'Opening').title).toBe('Opening failed: the workbook was not found');
    expect(toShownError(problem({ status: 409, code: 'WORKBOOK_SLUG_TAKEN', detail: 'x' })).title).toBe('That workbook slug name is already used');
  });

  it('the service being unreachable says so and what to do', () => {
    const shown = toShownError(problem({ status: 0, code: 'NETWORK_ERROR', title: 'Service unreachable', detail: 'Could not reach the Drydock service: fetch failed.' }), 'Loading deployments');
    expect(shown.title).toBe('Loading deployments failed: Drydock’s service is not answering');
    expect(shown.detail).toBe('Check that Drydock is still running, then try again.');
    expect(inOneLine(shown)).toBe('Loading deployments failed: Drydock’s service is not answering. Check that Drydock is still running, then try again.');
  });

  it('a failure that is not the service’s keeps its message and has nothing for Details', () => {
    const shown = toShownError(new Error('The file could not be read.'), 'Reading orders.csv');
    expect(shown).toEqual({ title: 'Reading orders.csv failed', detail: 'The file could not be read.', code: null, status: null, fields: [] });
  });
});

describe('schema messages about a field become sentences about that field', () => {
  const cases: [pointer: string, detail: string, operationId: string | null, plain: string][] = [
    ['/body/name', 'must NOT have fewer than 1 characters', 'createDeployment', 'Give the deployment a name.'],
    ['/body/name', 'must NOT have more than 64 characters', 'createDeployment', 'Shorten the name to 64 characters or fewer.'],
    ['/body/viewNames', 'must NOT have fewer than 1 items', 'startWarehouseSemanticViewSync', 'Choose at least one view.'],
    ['/body/configuration/targetSchema', "must have required property 'targetSchema'", 'upsertLakehouseMetricViewIntegration', 'Schema is required.'],
    ['/body/region', 'must be equal to one of the allowed values', null, 'Choose one of the offered values for region.'],
    ['/body/schema', 'must match pattern "^[A-Za-z_][A-Za-z0-9_$]*$"', null, 'Schema contains characters that are not allowed here.'],
    ['/body/firstRow', 'must be integer', null, 'First row must be a whole number.'],
    ['/body/bogus', 'is not a known field', null, '“bogus” is not a field this request accepts; remove it.'],
    ['/body/email', 'must match format "email"', null, 'Enter an email address, such as ana@example.com.'],
    ['/query/first', 'must be >= 1', null, 'First must be at least 1.'],
  ];
  for (const [pointer, detail, operationId, plain] of cases) {
    it(`${pointer} ${detail} → ${plain}`, () => expect(plainFieldError(pointer, detail, operationId)).toBe(plain));
  }

  it('fields are named as the screens label them', () => {
    expect(fieldLabel('/body/targetCatalog')).toBe('catalog');
    expect(fieldLabel('/body/helperViewSchema')).toBe('helper view schema');
    expect(fieldLabel('/body/viewNames/0')).toBe('views');
  });
});
