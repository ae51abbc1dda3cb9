// Model tests (issue 26): `tests/*.yml` of a model repository — queries with expectations, run on
// fixture tables or a data source. Pure: the command line and the service bring the executor.
export { MODEL_TEST_CODE_DESCRIPTIONS, ModelTestCodes, type ModelTestCode } from './codes';
export { isModelTestPath, MODEL_TEST_FILE_SCHEMA, MODEL_TESTS_FOLDER, type SchemaNode } from './schema';
export { DEFAULT_TEST_TOLERANCE, parseTestFile, resolveFixturePath } from './parse';
export type { Expectations, ModelTest, ParsedTestFile, ParseOptions, Pos, ReferenceQuery, TestData, TotalCheck, ValueCheck } from './parse';
export { evaluate, pickRow, sameValue, total, type Failure, type ReferenceRows, type Row } from './expect';
export { checkModelTests, runModelTests, summarize, testResultDiagnostics } from './run';
export type { RunOptions, TestExecutor, TestResult, TestStatus, TestSummary } from './run';
