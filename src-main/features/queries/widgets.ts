/**
 * A dashboard widget's query, run for a renderer outside the browser (PNG and PDF exports): on the
 * deployment's deploy branch, as the user the dashboard is rendered as. The answer is the rows or,
 * when the query cannot run, why in plain words — never numbers made up in its place.
 */
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { planForTarget, runPlanned } from './load';
import { branchModel } from './models';
import { querySecurityOf } from './security';

export interface WidgetQueryResult {
  columns: { key: string; title: string; kind: 'measure' | 'dimension' | 'timeDimension'; type: string }[];
  data: Record<string, unknown>[];
}

export async function runWidgetQuery(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  query: unknown,
  signal: AbortSignal,
): Promise<{ ok: true; result: WidgetQueryResult } | { ok: false; message: string }> {
  try {
    const { model } = await branchModel(ctx, deploymentId, undefined);
    const { plan, target } = await planForTarget(ctx, deploymentId, model, query, querySecurityOf(ctx, principal));
    const outcome = await runPlanned(ctx, plan, target, { signal, progress: () => undefined });
    const a = plan.annotation;
    const columns = plan.columns
      .filter((c) => !c.hidden)
      .map((c) => {
        const note = c.kind === 'measure' ? a.measures[c.key] : c.kind === 'timeDimension' ? a.timeDimensions[c.key] : a.dimensions[c.key];
        return { key: c.key, title: note?.shortTitle ?? c.key, kind: c.kind, type: c.type };
      });
    return { ok: true, result: { columns, data: outcome.data } };
  } catch (error) {
    if (signal.aborted) throw error;
    return { ok: false, message: error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error) };
  }
}
