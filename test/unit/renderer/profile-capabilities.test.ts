import { describe, expect, it } from 'vitest';
import { missingOperations } from '../../../src-renderer/src/app/capabilities';
import { screenFor, screens } from '../../../src-renderer/src/app/screens';
import { deploymentsRoutes } from '../../../src-shared/api/deployments';
import { dataModelRoutes } from '../../../src-shared/api/data-model';
import { identityRoutes } from '../../../src-shared/api/identity';
import { promotionsRoutes } from '../../../src-shared/api/promotions';
import { warehouseSyncRoutes } from '../../../src-shared/api/warehouse-sync';
import { workbooksRoutes } from '../../../src-shared/api/workbooks';

describe('screens on a remote profile', () => {
  it('a screen is disabled exactly when the remote spec lacks an operation it needs', () => {
    const check = { operationIds: ['listDeployments', 'listWorkbooks', 'getWorkbook'] };
    expect(missingOperations(['listDeployments'], check)).toEqual([]);
    expect(missingOperations(['listWorkbooks', 'previewWorkbookPromotion', 'applyWorkbookPromotion'], check)).toEqual(['previewWorkbookPromotion', 'applyWorkbookPromotion']);
  });

  it('the local service (no check) and an unread spec disable nothing', () => {
    expect(missingOperations(['listUsers'], null)).toEqual([]);
    expect(missingOperations(['listUsers'], { operationIds: [] })).toEqual([]);
  });

  it('every operation a screen requires is one the service defines (no typo can disable a screen)', () => {
    const defined = new Set(
      [deploymentsRoutes, dataModelRoutes, identityRoutes, promotionsRoutes, warehouseSyncRoutes, workbooksRoutes].flatMap((routes) =>
        Object.values(routes).map((route) => route.operationId),
      ),
    );
    for (const screen of screens) for (const id of screen.requires ?? []) expect(defined, `${screen.id} requires ${id}`).toContain(id);
  });

  it('a path belongs to the screen with the longest matching root', () => {
    expect(screenFor('/promotions/profiles/workbook/1/2')?.id).toBe('remote-transfers');
    expect(screenFor('/promotions/3/4')?.id).toBe('promotions');
    expect(screenFor('/profiles')?.id).toBe('profiles');
  });
});
