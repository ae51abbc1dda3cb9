// Loading the areas' code (start time, issue 10). Every operation of every area is declared to
// Fastify at start from the contract (./index.ts lists which area serves which); an area's code
// loads — a dynamic import, its own chunks in the build — on the first request to one of its
// operations, which waits for it. In the background, soon after start, the areas not asked for
// yet load one after another, so their job kinds and schedulers run and later first requests find
// them ready.
import type { RouteDef } from '../../src-shared/api/contract';
import type { Api, Router } from '../http/route';
import { yieldToEventLoop } from '../platform/jobs/types';

export interface Area {
  name: string;
  /** The contract operations the area registers, all of them and only them. */
  operations: readonly RouteDef[];
  /** Brings in the area's code; resolves to its registration. */
  load(): Promise<(api: Api) => void | Promise<void>>;
  /** What must be registered before Fastify is ready (app-wide hooks, plugin scopes), from a light module. */
  atStart?: (api: Api) => void;
}

/** When areas load: all before the service answers (tests, tools), or each on first use (`drydock serve`, the app). */
export type AreaLoading = 'at-start' | 'on-first-use';

export class AreaLoader {
  private readonly loads = new Map<string, Promise<void>>();
  private readonly loaded = new Set<string>();
  private stopped = false;
  private background: Promise<void> | null = null;

  /** `onLoaded` runs after each area has registered (the service starts what the area added). */
  constructor(
    private readonly router: Router,
    private readonly areas: readonly Area[],
    private readonly onLoaded: (area: Area) => void,
  ) {}

  /** Declares every area's operations and registers the `atStart` parts. Before Fastify is ready. */
  declareAll(): void {
    for (const area of this.areas) {
      for (const def of area.operations) this.router.declare(def, () => this.ensure(area), area.name);
      area.atStart?.(this.router);
    }
  }

  /**
   * The area's code, loaded and registered (once; later calls share the first load). Where its code
   * could not be read (a module that failed to import: nothing of the area is registered yet), the
   * next request tries again instead of the area staying unusable until a restart.
   */
  ensure(area: Area): Promise<void> {
    let load = this.loads.get(area.name);
    if (!load) {
      load = (async () => {
        let register: Awaited<ReturnType<Area['load']>>;
        try {
          register = await area.load();
        } catch (error) {
          this.loads.delete(area.name);
          throw error;
        }
        await register(this.router);
        const missing = this.router.unregistered(area.operations.map((def) => def.operationId));
        if (missing.length > 0) throw new Error(`Area ${area.name} did not register ${missing.join(', ')} (listed for it in src-main/features/index.ts).`);
        this.loaded.add(area.name);
        this.onLoaded(area);
      })();
      this.loads.set(area.name, load);
    }
    return load;
  }

  /** Whether every area has loaded and registered (what other areas hook into is then in place). */
  allLoaded(): boolean {
    return this.loaded.size === this.areas.length;
  }

  /** Every area, one after another, in the table's order. */
  async loadAll(): Promise<void> {
    for (const area of this.areas) await this.ensure(area);
  }

  /**
   * Loads the areas not asked for yet, one at a time from `afterMs` on, yielding to requests in
   * between; resolves when all have been tried (or loading stopped). An area that fails is reported
   * to `onError` and the others still load: one broken area does not hold back the rest's job kinds
   * and schedulers. Started once; later calls return the same promise.
   */
  loadRestInBackground(afterMs: number, onError: (area: Area, error: Error) => void): Promise<void> {
    this.background ??= (async () => {
      await new Promise((resolve) => setTimeout(resolve, afterMs).unref());
      for (const area of this.areas) {
        await yieldToEventLoop();
        if (this.stopped) return;
        await this.ensure(area).catch((error: Error) => onError(area, error));
      }
    })();
    return this.background;
  }

  /** No more background loads; waits for one under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.loads.values()]);
  }
}
