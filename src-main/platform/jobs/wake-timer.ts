import type { Clock } from '../clock';

export interface WakeTimerOptions {
  clock: Clock;
  /** Longest sleep: rows changed by other processes on the same data dir are seen within it. */
  maxSleepMs: number;
  /** The earliest due time (ISO-8601) of what the owner schedules, or null when nothing is due. */
  nextDueAt(): string | null;
  /** Starts whatever is due; a throw is reported through `onError` and the timer keeps going. */
  onDue(): void;
  onError(error: Error): void;
}

/**
 * The timer behind the service's schedulers (scheduled tasks, background git fetch): it sleeps
 * until the earliest due time (at most `maxSleepMs`), runs `onDue`, and plans the next wake-up.
 * Claiming a due row (a compare-and-set on its due time, so several processes fire it once) stays
 * with the owner. The timer never keeps the process alive.
 */
export class WakeTimer {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly options: WakeTimerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.arm();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Re-plans the wake-up (after a schedule changed). */
  rearm(): void {
    if (this.running) this.arm();
  }

  private arm(): void {
    const { clock, maxSleepMs, nextDueAt, onDue, onError } = this.options;
    if (this.timer) clearTimeout(this.timer);
    const next = nextDueAt();
    const wait = next === null ? maxSleepMs : Math.min(maxSleepMs, Math.max(0, new Date(next).getTime() - clock.now().getTime()));
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        onDue();
      } catch (error) {
        onError(error as Error);
      }
      if (this.running) this.arm();
    }, wait);
    this.timer.unref();
  }
}

/**
 * Base of the service's schedulers: `start`, `stop` and `rearm` drive one WakeTimer whose wake-ups
 * call `tick`. The subclass says what is due (`nextDueAt`) and claims and starts it in `tick`.
 */
export abstract class WakeTimerScheduler {
  private readonly timer: WakeTimer;

  protected constructor(options: Omit<WakeTimerOptions, 'onDue'>) {
    this.timer = new WakeTimer({ ...options, onDue: () => void this.tick() });
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** Re-plans the wake-up (after a schedule changed). */
  rearm(): void {
    this.timer.rearm();
  }

  /** Claims and starts what is due now. */
  abstract tick(): unknown;
}
