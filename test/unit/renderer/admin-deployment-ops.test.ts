// Helpers of the deployment detail's operations tabs (logs, environment and deployment tokens).
import { describe, expect, it } from 'vitest';
import { logTime, mergeLogLines, type LogLine } from '../../../src-renderer/src/features/deployments/logs';
import {
  deploymentTokenLifetime,
  describeSeconds,
  droppedKeyReason,
  droppedScopeReason,
  parseSecurityContext,
  requestedScopes,
} from '../../../src-renderer/src/features/deployments/tokens';

const line = (id: number, message = `line ${id}`): LogLine => ({
  id,
  timestamp: `2025-03-01T09:00:${String(id).padStart(2, '0')}.000Z`,
  source: 'production',
  container: 'MAIN',
  level: 'info',
  message,
});

describe('log lines', () => {
  it('merges a refresh into what is shown, newest first, each line once', () => {
    const merged = mergeLogLines([line(3), line(2)], [line(5), line(4), line(3, 'line 3 again')]);
    expect(merged.map((l) => l.id)).toEqual([5, 4, 3, 2]);
    expect(merged.find((l) => l.id === 3)?.message).toBe('line 3 again');
  });

  it('appends an older page below the lines shown', () => {
    expect(mergeLogLines([line(9), line(8)], [line(7), line(6)]).map((l) => l.id)).toEqual([9, 8, 7, 6]);
  });

  it('shows the UTC time, and the date only for other days', () => {
    expect(logTime('2025-03-01T09:04:05.123Z', new Date('2025-03-01T12:00:00Z'))).toEqual({ time: '09:04:05.123', date: null });
    expect(logTime('2025-03-01T09:04:05.123Z', new Date('2025-03-02T12:00:00Z'))).toEqual({ time: '09:04:05.123', date: '2025-03-01' });
  });
});

describe('deployment token lifetime', () => {
  it('converts the amount and unit to seconds', () => {
    expect(deploymentTokenLifetime('30', 'minutes')).toEqual({ seconds: 1800 });
    expect(deploymentTokenLifetime('24', 'hours')).toEqual({ seconds: 86400 });
  });

  it('refuses lifetimes outside 60..86400 seconds and amounts that are not positive numbers', () => {
    expect(deploymentTokenLifetime('59', 'seconds')).toEqual({ error: 'Between 1 min and 24 h.' });
    expect(deploymentTokenLifetime('25', 'hours')).toHaveProperty('error');
    expect(deploymentTokenLifetime('', 'hours')).toHaveProperty('error');
    expect(deploymentTokenLifetime('-1', 'minutes')).toHaveProperty('error');
  });

  it('describes durations in hours, minutes and seconds', () => {
    expect(describeSeconds(90)).toBe('1 min 30 s');
    expect(describeSeconds(3600)).toBe('1 h');
  });
});

describe('environment token request', () => {
  it('reads a blank security context as {} and refuses JSON that is not an object', () => {
    expect(parseSecurityContext('  ')).toEqual({ value: {} });
    expect(parseSecurityContext('{"tenant_id": 42}')).toEqual({ value: { tenant_id: 42 } });
    expect(parseSecurityContext('[1, 2]')).toHaveProperty('error');
    expect(parseSecurityContext('{"tenant_id": ')).toHaveProperty('error');
  });

  it('requests the ticked allowlisted scopes first, then typed extras once each', () => {
    expect(requestedScopes(new Set(['sql-runner', 'meta']), 'dev-token, meta  custom')).toEqual(['meta', 'sql-runner', 'dev-token', 'custom']);
  });

  it('explains why a scope or key was dropped, per the service’s rules', () => {
    expect(droppedScopeReason('sql-runner-permissions:all')).toMatch(/only the service/);
    expect(droppedScopeReason('dev-token')).toBe('never signed');
    expect(droppedScopeReason('admin')).toMatch(/not an allowlisted scope/);
    expect(droppedKeyReason('scope')).toMatch(/reserved/);
    expect(droppedKeyReason('tenant_id')).toMatch(/edit access/);
  });
});
