// A spinner with the job's stage and percentage on stderr, only on a terminal and never with --json
// (CI logs and pipes get the final lines only). ora is loaded only when it will be shown.
export interface Progress {
  update(text: string): void;
  /** Removes the spinner (before printing other lines or a failure). */
  stop(): void;
  succeed(text: string): void;
  fail(text: string): void;
}

const silent: Progress = { update() {}, stop() {}, succeed() {}, fail() {} };

export async function createProgress(json: boolean, stream: NodeJS.WriteStream = process.stderr): Promise<Progress> {
  if (json || !stream.isTTY || process.env.CI) return silent;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream, discardStdin: false });
  return {
    update(text) {
      spinner.text = text;
      if (!spinner.isSpinning) spinner.start();
    },
    stop: () => spinner.stop(),
    succeed: (text) => spinner.succeed(text),
    fail: (text) => spinner.fail(text),
  };
}
