import { describe, expect, it } from 'vitest';
import type { Policy } from '../../../src-shared/api/access';
import type { TenantSettings } from '../../../src-shared/api/tenant';
import { attachmentChanges, blankToNull, policiesOfGroup } from '../../../src-renderer/src/features/admin/groups';
import { parseAmount, tenantFormOf, tenantPatch } from '../../../src-renderer/src/features/admin/tenant';

const settings: TenantSettings = {
  applyThemeGlobally: false,
  creatorMode: false,
  embeddingEnabled: false,
  sheetsUi: false,
  defaultTimezone: 'UTC',
  allowUserTimezoneOverride: true,
  dashboardAppsEnabled: true,
  restrictDataDownload: false,
  sheetsAgentChatEnabled: false,
  newUiEnabled: true,
  aiEnabled: false,
  scheduledTasksEnabled: true,
  aiTokensAutoPurchaseEnabled: false,
  aiTokensAutoPurchaseThreshold: 10,
  aiTokensAutoPurchaseAmount: null,
};

describe('tenant settings patch', () => {
  it('sends only changed fields', () => {
    const form = tenantFormOf(settings);
    form.embeddingEnabled = true;
    form.defaultTimezone = ' Europe/Berlin ';
    expect(tenantPatch(settings, form)).toEqual({ embeddingEnabled: true, defaultTimezone: 'Europe/Berlin' });
  });

  it('never sends the platform-set threshold', () => {
    const form = tenantFormOf(settings);
    form.aiTokensAutoPurchaseThreshold = 99;
    expect(tenantPatch(settings, form)).toEqual({});
  });

  it('sends the amount as a number, a blank amount as null, and refuses text that is not a number', () => {
    const form = tenantFormOf(settings);
    form.aiTokensAutoPurchaseAmount = '12.50';
    expect(tenantPatch(settings, form)).toEqual({ aiTokensAutoPurchaseAmount: 12.5 });
    const withAmount = { ...settings, aiTokensAutoPurchaseAmount: 25 };
    const cleared = tenantFormOf(withAmount);
    cleared.aiTokensAutoPurchaseAmount = '';
    expect(tenantPatch(withAmount, cleared)).toEqual({ aiTokensAutoPurchaseAmount: null });
    form.aiTokensAutoPurchaseAmount = 'fifty';
    expect(() => tenantPatch(settings, form)).toThrow(/US dollars/);
    expect(parseAmount('fifty')).toHaveProperty('error');
  });
});

describe('group policy attachments', () => {
  const policies: Pick<Policy, 'id' | 'groupIds'>[] = [
    { id: 1, groupIds: [5] },
    { id: 2, groupIds: [6] },
    { id: 3, groupIds: [5, 6] },
  ];

  it('reads which policies a group has', () => {
    expect([...policiesOfGroup(policies, 5)].sort()).toEqual([1, 3]);
  });

  it('turns a new choice into one full groupIds list per policy that changes', () => {
    // Group 5 keeps policy 1, gains 2, loses 3.
    expect(attachmentChanges(policies, 5, new Set([1, 2]))).toEqual([
      { policyId: 2, groupIds: [6, 5] },
      { policyId: 3, groupIds: [6] },
    ]);
  });

  it('changes nothing when the choice matches what is attached', () => {
    expect(attachmentChanges(policies, 6, new Set([2, 3]))).toEqual([]);
  });

  it('treats a blank description as none', () => {
    expect(blankToNull('  ')).toBeNull();
    expect(blankToNull(' Finance ')).toBe('Finance');
  });
});
