// The deployment's data sources as the push and publish analyzers need them (kind, catalog), read
// from its settings once per deployment. What a failed read means depends on why it failed:
// - 403: this user may not read the settings, and never will in this session: every view gets both
//   checks, as before (the service's validate does the same);
// - a transient failure (service out of reach, 408, 429, 5xx, timeout): retried with back-off
//   (lib/transient.ts). Meanwhile the data sources are unknown and the analyzers' findings are held
//   (`unknown`, see `AnalyzerSources`): every finding they make is dialect-specific, so guessing
//   "both" would put a "Lakehouse publish" warning on each view of a deployment that never publishes
//   to the lakehouse — what users saw under load. Keeping "the previous known data sources" is not
//   enough on its own: known data sources are kept for the session (below), so a read fails only
//   when nothing is known yet. Once the retried read answers, the branch is checked again with them;
//   if every try failed, the findings stay held and the next load of a branch reads again;
// - any other failure (404, a malformed answer): unknown too, not retried.
import { ApiProblem } from '../../../../src-shared/api/client';
import type { DataSourceSummary } from '../../../../src-shared/api/deployments';
import { withRetry, type RetryOptions } from '../../lib/transient';
import type { AnalyzerSources } from './protocol';

const UNKNOWN: AnalyzerSources = { kind: 'unknown' };

/** What the settings read gives the analyzers. */
export type ReadSettings = (deploymentId: number) => Promise<{ dataSources: Pick<DataSourceSummary, 'name' | 'kind' | 'catalog'>[] }>;

export interface SourcesLoad {
  /**
   * What to check the branch with once its files are in: the first try's answer, or `unknown` as
   * soon as it failed for a transient reason (the retries go on in `settled`).
   */
  first: Promise<AnalyzerSources>;
  /** The answer after the retries (`unknown` still when every try failed). */
  settled: Promise<AnalyzerSources>;
}

export function sourcesOfFailure(error: unknown): AnalyzerSources {
  return error instanceof ApiProblem && error.status === 403 ? { kind: 'unreadable' } : UNKNOWN;
}

export class AnalyzerSourceReader {
  /** Data sources read, by deployment, for the session (until another service is chosen). */
  private readonly known = new Map<number, AnalyzerSources>();
  /** Reads under way (tries and waits included), shared by the loads that ask meanwhile. */
  private readonly reading = new Map<number, SourcesLoad>();
  private generation = 0;

  constructor(
    private readonly read: ReadSettings,
    private readonly retry: RetryOptions = {},
  ) {}

  load(deploymentId: number): SourcesLoad {
    const known = this.known.get(deploymentId);
    if (known) {
      const answer = Promise.resolve(known);
      return { first: answer, settled: answer };
    }
    const under = this.reading.get(deploymentId);
    if (under) return under;
    const generation = this.generation;
    let firstFailed = (): void => undefined;
    const retrying = new Promise<AnalyzerSources>((resolve) => (firstFailed = () => resolve(UNKNOWN)));
    const settled = withRetry(() => this.read(deploymentId), {
      ...this.retry,
      onRetry: (attempt, error, delayMs) => {
        firstFailed();
        this.retry.onRetry?.(attempt, error, delayMs);
      },
    })
      .then((settings): AnalyzerSources => ({ kind: 'known', dataSources: Object.fromEntries(settings.dataSources.map((d) => [d.name, { kind: d.kind, catalog: d.catalog }])) }))
      .catch(sourcesOfFailure)
      .then((sources) => {
        // Not for a service left meanwhile (its deployment ids are another service's).
        if (generation === this.generation) {
          this.reading.delete(deploymentId);
          if (sources.kind === 'known') this.known.set(deploymentId, sources);
        }
        return sources;
      });
    const load = { first: Promise.race([settled, retrying]), settled };
    this.reading.set(deploymentId, load);
    return load;
  }

  /** Another service: forget what was read of this one. */
  clear(): void {
    this.generation += 1;
    this.known.clear();
    this.reading.clear();
  }
}
