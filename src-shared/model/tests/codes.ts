// Diagnostic codes of model tests (issue 26), on the test file's line: the editor, the Problems
// panel, `drydock test` and the validate route report them.
export const ModelTestCodes = {
  /** The file is not valid YAML. */
  MODEL_TEST_SYNTAX: 'MODEL_TEST_SYNTAX',
  /** A key the test file format does not have. */
  MODEL_TEST_UNKNOWN_KEY: 'MODEL_TEST_UNKNOWN_KEY',
  /** A value of the wrong type, a missing key, an empty list… */
  MODEL_TEST_INVALID: 'MODEL_TEST_INVALID',
  /** The model refuses a test's query (unknown member, wrong kind, bad filter…). */
  MODEL_TEST_QUERY_REFUSED: 'MODEL_TEST_QUERY_REFUSED',
  /** A fixture file that is not in the repository (or outside it). */
  MODEL_TEST_FIXTURE_NOT_FOUND: 'MODEL_TEST_FIXTURE_NOT_FOUND',
  /** A test without data to run on. */
  MODEL_TEST_NO_DATA: 'MODEL_TEST_NO_DATA',
  /** An expectation did not hold. */
  MODEL_TEST_FAILED: 'MODEL_TEST_FAILED',
  /** A query of the test could not run (fixture not loadable, SQL error, data source unreachable). */
  MODEL_TEST_ERROR: 'MODEL_TEST_ERROR',
} as const;

export type ModelTestCode = (typeof ModelTestCodes)[keyof typeof ModelTestCodes];

export const MODEL_TEST_CODE_DESCRIPTIONS: Record<ModelTestCode, string> = {
  MODEL_TEST_SYNTAX: 'The test file is not valid YAML',
  MODEL_TEST_UNKNOWN_KEY: 'The test file has a key the format does not have',
  MODEL_TEST_INVALID: 'A value of the test file has the wrong type or is missing',
  MODEL_TEST_QUERY_REFUSED: 'The model refuses a test query',
  MODEL_TEST_FIXTURE_NOT_FOUND: 'A fixture file is missing',
  MODEL_TEST_NO_DATA: 'A test has no data to run on',
  MODEL_TEST_FAILED: 'A model test failed',
  MODEL_TEST_ERROR: 'A model test could not run',
};
