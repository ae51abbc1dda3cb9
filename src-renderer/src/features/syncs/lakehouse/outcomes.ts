import { RUN_VIEW_OUTCOMES, type PreviewViewOutcome, type Run, type RunSummary, type RunViewOutcome } from '../../../../../src-shared/api/lakehouse';
import type { Tone } from '../parts';
import { lakehousePath } from '../paths';
import type { Announcement } from '../tracker';
import { plainFailure } from '../../../lib/plain/problems';

/** How each run outcome reads and looks (the chart's colours are CSS variables `--sy-o-<outcome>`). */
export const RUN_OUTCOME_INFO: Record<RunViewOutcome, { label: string; tone: Tone; success: boolean }> = {
  created: { label: 'created', tone: 'good', success: true },
  updated: { label: 'updated', tone: 'info', success: true },
  unchanged: { label: 'unchanged', tone: 'neutral', success: true },
  retained_obsolete: { label: 'retained (obsolete)', tone: 'neutral', success: true },
  deleted_obsolete: { label: 'deleted (obsolete)', tone: 'neutral', success: true },
  blocked: { label: 'blocked', tone: 'warn', success: false },
  validation_failed: { label: 'validation failed', tone: 'bad', success: false },
  publish_failed: { label: 'publish failed', tone: 'bad', success: false },
};

export const PREVIEW_OUTCOME_INFO: Record<PreviewViewOutcome, { label: string; tone: Tone }> = {
  create: { label: 'create', tone: 'good' },
  update: { label: 'update', tone: 'info' },
  unchanged: { label: 'unchanged', tone: 'neutral' },
  partial: { label: 'partial', tone: 'warn' },
  blocked: { label: 'blocked', tone: 'bad' },
  retained_obsolete: { label: 'retained (obsolete)', tone: 'neutral' },
};

/** Stacking order of the chart: successes at the bottom, failures on top. */
export const CHART_ORDER: readonly RunViewOutcome[] = ['created', 'updated', 'unchanged', 'retained_obsolete', 'deleted_obsolete', 'blocked', 'validation_failed', 'publish_failed'];

export interface ChartSegment {
  outcome: RunViewOutcome;
  count: number;
  /** Cumulative count below this segment. */
  from: number;
}

export interface ChartBar {
  runId: string;
  status: RunSummary['status'];
  createdAt: string;
  total: number;
  segments: ChartSegment[];
}

/**
 * Bars for the most recent `limit` runs, oldest first (time reads left to right), each stacked in
 * `CHART_ORDER`. Outcomes the contract does not know are left out rather than guessed.
 */
export function chartBars(runs: RunSummary[], limit = 20): ChartBar[] {
  const recent = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit).reverse();
  return recent.map((run) => {
    let from = 0;
    const segments: ChartSegment[] = [];
    for (const outcome of CHART_ORDER) {
      const count = run.outcomeCounts[outcome] ?? 0;
      if (count <= 0) continue;
      segments.push({ outcome, count, from });
      from += count;
    }
    return { runId: run.runId, status: run.status, createdAt: run.createdAt, total: from, segments };
  });
}

/** Outcomes that occur in any of the bars, in stacking order (the legend shows only these). */
export const outcomesPresent = (bars: ChartBar[]): RunViewOutcome[] => CHART_ORDER.filter((o) => bars.some((b) => b.segments.some((s) => s.outcome === o)));

/** A "nice" axis maximum ≥ `value`: 1, 2, 5, 10, 20, 50… */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** Integer gridlines for an axis from 0 to `max` (a `niceMax`): every unit up to 5, else five steps. */
export function axisTicks(max: number): number[] {
  const step = max <= 5 ? 1 : max / 5;
  return Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
}

/** `created 2 · blocked 1`, in stacking order. */
export function outcomeSummary(counts: Record<string, number>): { outcome: RunViewOutcome; count: number }[] {
  return RUN_VIEW_OUTCOMES.filter((o) => (counts[o] ?? 0) > 0)
    .sort((a, b) => CHART_ORDER.indexOf(a) - CHART_ORDER.indexOf(b))
    .map((outcome) => ({ outcome, count: counts[outcome] }));
}

/** What the notification says when a publication run ends. */
export function runAnnouncement(deploymentId: number, run: Pick<Run, 'runId' | 'dataSourceName' | 'status' | 'outcomeCounts' | 'error' | 'incompleteViewCount'>): Announcement {
  const counts = outcomeSummary(run.outcomeCounts)
    .map(({ outcome, count }) => `${count} ${RUN_OUTCOME_INFO[outcome].label}`)
    .join(', ');
  const path = lakehousePath(deploymentId, run.dataSourceName, 'runs', run.runId);
  const where = `Publication to ${run.dataSourceName}`;
  switch (run.status) {
    case 'COMPLETED':
      return { title: `${where} completed`, body: counts ? `${counts}.` : 'Nothing to publish.', tone: 'good', path };
    case 'PARTIAL':
      return { title: `${where} partly published`, body: `${counts}. Open the run for the reasons.`, tone: 'warn', path };
    case 'CANCELLED':
      return { title: `${where} cancelled`, body: counts ? `Done before it stopped: ${counts}.` : 'Nothing was written.', tone: 'warn', path };
    default: {
      if (!run.error) return { title: `${where} failed`, body: 'The run failed.', tone: 'bad', path };
      // Plain words and the fix; the code and the lakehouse's own message stay behind "Details".
      const plain = plainFailure(run.error);
      return { title: `${where} failed`, body: `${plain.said}${plain.fix ? ` ${plain.fix}` : ''}`, tone: 'bad', path, details: { code: plain.code, message: plain.message } };
    }
  }
}
