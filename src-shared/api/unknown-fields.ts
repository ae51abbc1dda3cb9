/**
 * The one rule for keys a request does not describe (issue 27), and its only exceptions.
 *
 * Bodies: every object of a JSON request body that the contract describes field by field is closed
 * (`additionalProperties: false`), at the top and at every depth. A key it does not describe is
 * refused with 400 `UNKNOWN_FIELD`: the detail names each key and `errors[]` carries one entry per
 * key with its JSON pointer (`/body/dashboardDraft/bogus`, RFC 6901 escaped) and `is not a known
 * field`. Unknown keys are reported on their own, before any other fault of the body, and nothing
 * is written. Objects the contract declares free-form (`additionalProperties: true` and no fields of
 * its own: a widget's `config`, a report's `query`, a token's `security_context`, …) are maps
 * whose keys are data, not fields.
 *
 * The platform's spec names no unknown-key rule; the fields it says are accepted and ignored are
 * fields of the contract, declared and documented there (`lastSeenChangelogId` of the user settings,
 * `delete-managed`, the dropped `scopes` entries of environment tokens), not unknown keys.
 *
 * A `__proto__` key, or a `constructor` key holding a `prototype`, is refused by the JSON reader before
 * any schema sees it, on every operation and at any depth (400 `MALFORMED_JSON`, the key named).
 *
 * Query strings: unknown query parameters are ignored (caches and tools add their own, e.g.
 * `_=<time>`); known ones are validated. The data model's operations are the exception: their query
 * strings are closed and answer 400 `UNKNOWN_FIELD` (pointer `/querystring/<name>`), because a
 * misspelled `branchName` would otherwise read, write or delete on another branch.
 *
 * `test/unit/api/unknown-fields-contract.test.ts` checks the contract against this rule,
 * `test/api/unknown-fields.test.ts` checks every operation over HTTP.
 */

/** The rule as the OpenAPI document states it. */
export const UNKNOWN_FIELDS_SUMMARY =
  'a key a request body does not describe, at any depth, is refused with 400 `UNKNOWN_FIELD` naming each key and its JSON pointer in ' +
  '`errors[]` (nothing is written); objects declared free-form are maps whose keys are data. Operations marked ' +
  '`x-drydock-unknown-fields: ignore` accept and ignore unknown top-level keys (the reason is in `x-drydock-unknown-fields-reason`). ' +
  'Unknown query parameters are ignored, except on the data model operations that take `branchName` (and the branch list), ' +
  'where a misspelled parameter would act on another branch: there they are refused the same way.';

/** OpenAPI extension on every operation with a JSON body: `refuse` or `ignore` (these below). */
export const UNKNOWN_FIELDS_EXTENSION = 'x-drydock-unknown-fields';
/** OpenAPI extension giving the reason of an `ignore`. */
export const UNKNOWN_FIELDS_REASON_EXTENSION = 'x-drydock-unknown-fields-reason';

const DATA_API_REASON =
  'The data API takes the requests of the official client (@cubejs-client/core), whose `load` sends `cache` next to ' +
  '`query` and `queryType` (and whose releases add parameters of their own); the platform reads the keys it knows on load ' +
  'and sql and ignores the others, so does Drydock. Objects inside `query` are the query format’s own and are checked by ' +
  'the query compiler.';

/**
 * The operations whose body accepts and ignores top-level keys it does not describe, with why. The
 * keys are never read, stored or echoed. Every other operation with a body refuses them.
 */
export const UNKNOWN_FIELDS_IGNORED: Readonly<Record<string, string>> = {
  dataApiLoadPost: DATA_API_REASON,
  dataApiSqlPost: DATA_API_REASON,
  devModeDataApiLoadPost: DATA_API_REASON,
  devModeDataApiSqlPost: DATA_API_REASON,
};

/** `refuse` or `ignore`: what an operation does with a top-level key its body does not describe. */
export const unknownFieldsPolicy = (operationId: string): 'refuse' | 'ignore' =>
  Object.hasOwn(UNKNOWN_FIELDS_IGNORED, operationId) ? 'ignore' : 'refuse';
