// Child processes as the tests see them: whether one still runs, and waiting (bounded) for a
// condition on them to hold.

/** Whether a process with this PID exists (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Checks `check` every 20 ms until it holds or `ms` have passed; its last answer. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}
