// A vitest reporter that records the tests which failed once and passed on their retry
// (`retry` in the vitest configs). `npm test` lists them at the end of the run, so a flaky test
// stays visible instead of being hidden by its retry. Written to DRYDOCK_FLAKY_FILE, one per line.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FlakyReporter {
  onTestCaseResult(testCase) {
    const file = process.env.DRYDOCK_FLAKY_FILE;
    if (!file || !testCase.diagnostic()?.flaky) return;
    const where = relative(process.cwd(), testCase.module.moduleId);
    appendFileSync(file, `${where} › ${testCase.fullName}\n`);
  }
}
