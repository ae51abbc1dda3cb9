// A vitest reporter that records the tests which failed once and passed on their retry
// (`retry` in the vitest configs). `npm test` lists them at the end of the run, so a flaky test
// stays visible instead of being hidden by its retry. Written to DRYDOCK_FLAKY_FILE, one per line:
// the test, a tab, and why its first attempt failed (the error's first line and where it was
// thrown in the test's own file), which a CI log otherwise does not keep.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FlakyReporter {
  onTestCaseResult(testCase) {
    const file = process.env.DRYDOCK_FLAKY_FILE;
    if (!file || !testCase.diagnostic()?.flaky) return;
    const where = relative(process.cwd(), testCase.module.moduleId);
    const error = testCase.result().errors?.[0];
    const frame = error?.stacks?.find((s) => s.file === testCase.module.moduleId) ?? error?.stacks?.[0];
    const why = error ? `${String(error.message ?? error).split('\n')[0].slice(0, 300)}${frame ? ` (at ${relative(process.cwd(), frame.file)}:${frame.line})` : ''}` : '';
    appendFileSync(file, `${where} › ${testCase.fullName}\t${why.replace(/[\t\n]/g, ' ')}\n`);
  }
}
