import { describe, expect, it } from 'vitest';
import type { User } from '../../../src-shared/api/identity';
import { bulkReport } from '../../../src-renderer/src/features/admin/bulk';
import { choicesOf, policiesOf, userFormOf, userPatch } from '../../../src-renderer/src/features/admin/policies';

const user: User = {
  id: 7,
  email: 'grace@example.com',
  name: 'Grace Hopper',
  role: 'developer',
  active: true,
  userPolicies: ['SchemaUpdate', '-SqlRunnerRead', 'LegacyThing'],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

describe('policy overrides', () => {
  it('reads grants, withdrawals (leading minus) and leaves other actions to the role', () => {
    const { choices } = choicesOf(user.userPolicies);
    expect(choices.SchemaUpdate).toBe('grant');
    expect(choices.SqlRunnerRead).toBe('withdraw');
    expect(choices.DeploymentRead).toBe('role');
  });

  it('keeps entries it does not know, so saving never loses them', () => {
    const parsed = choicesOf(user.userPolicies);
    expect(parsed.others).toEqual(['LegacyThing']);
    expect(policiesOf(parsed)).toContain('LegacyThing');
  });

  it('writes known actions in the canonical order whatever order they were read in', () => {
    expect(policiesOf(choicesOf(['ChatHistoryRead', '-SqlRunnerRead', 'SchemaUpdate']))).toEqual(['SchemaUpdate', '-SqlRunnerRead', 'ChatHistoryRead']);
  });
});

describe('user patch', () => {
  it('is empty when nothing changed, even if the stored policy order differs', () => {
    expect(userPatch({ ...user, userPolicies: ['-SqlRunnerRead', 'SchemaUpdate', 'LegacyThing'] }, userFormOf(user))).toEqual({});
  });

  it('sends only the changed fields, with the whole policy list when it changed', () => {
    const form = userFormOf(user);
    form.role = 'viewer';
    form.policies.choices.SqlRunnerRead = 'role';
    expect(userPatch(user, form)).toEqual({ role: 'viewer', userPolicies: ['SchemaUpdate', 'LegacyThing'] });
  });

  it('compares the email without surrounding spaces', () => {
    const form = userFormOf(user);
    form.email = '  grace@example.com ';
    expect(userPatch(user, form)).toEqual({});
    form.email = 'hopper@example.com';
    expect(userPatch(user, form)).toEqual({ email: 'hopper@example.com' });
  });
});

describe('bulk report', () => {
  const known = new Map([
    [1, { email: 'admin@localhost', name: 'Admin' }],
    [7, { email: 'grace@example.com', name: 'Grace' }],
  ]);

  it('names every failed user with the service’s code and reason', () => {
    const report = bulkReport('DEACTIVATE', { succeeded: [7], failed: [{ userId: 1, code: 'LAST_ADMIN', detail: 'This is the last active admin.' }] }, known);
    expect(report.failed).toEqual([{ userId: 1, label: 'admin@localhost', code: 'LAST_ADMIN', detail: 'This is the last active admin.' }]);
    expect(report.summary).toBe('1 user deactivated; 1 user could not be deactivated.');
  });

  it('falls back to the id for users the page does not know', () => {
    const report = bulkReport('DELETE', { succeeded: [], failed: [{ userId: 99, code: 'USER_NOT_FOUND', detail: 'gone' }] }, known);
    expect(report.failed[0].label).toBe('user 99');
    expect(report.summary).toBe('1 user could not be deleted.');
  });

  it('says how many succeeded when nothing failed', () => {
    expect(bulkReport('ACTIVATE', { succeeded: [1, 7], failed: [] }, known).summary).toBe('2 users activated.');
  });
});
