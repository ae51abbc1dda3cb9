import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../../src-shared/api/client';
import { stalePreviewOf } from '../../../src-renderer/src/features/promotions/stale';

const problem = (status: number, code: string, extras: Record<string, unknown> = {}) =>
  new ApiProblem({
    status,
    code,
    detail: 'detail from the service',
    operationId: 'applyWorkbookPromotion',
    problem: { type: 'about:blank', title: 'Conflict', status, code, detail: 'detail from the service', ...extras },
  });

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);

describe('stale preview refusals', () => {
  it('reads a changed source with both hashes from the problem document', () => {
    expect(stalePreviewOf(problem(409, 'PROMOTION_SOURCE_CHANGED', { previewSourceHash: a, currentSourceHash: b }))).toEqual({
      side: 'source',
      previewHash: a,
      currentHash: b,
      detail: 'detail from the service',
    });
  });

  it('reads a changed target, where either hash may be null (created or deleted meanwhile)', () => {
    expect(stalePreviewOf(problem(409, 'PROMOTION_TARGET_CHANGED', { previewTargetHash: null, currentTargetHash: b }))).toMatchObject({
      side: 'target',
      previewHash: null,
      currentHash: b,
    });
  });

  it('leaves every other failure to the generic problem banner', () => {
    expect(stalePreviewOf(problem(409, 'IDEMPOTENCY_KEY_REUSED'))).toBeNull();
    expect(stalePreviewOf(problem(403, 'PROMOTION_SOURCE_CHANGED'))).toBeNull();
    expect(stalePreviewOf(new Error('network'))).toBeNull();
  });
});
