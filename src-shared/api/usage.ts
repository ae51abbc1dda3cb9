import { Type } from 'typebox';
import { defineRoute, Timestamp } from './contract';

/** Lifetime of a usage-analytics token: the spec fixes one hour. */
export const USAGE_ANALYTICS_TOKEN_TTL_SECONDS = 60 * 60;

export const createUsageAnalyticsToken = defineRoute({
  method: 'POST',
  path: '/api/v1/usage-analytics/token',
  operationId: 'createUsageAnalyticsToken',
  tag: 'Usage Analytics',
  summary: 'A token for the usage analytics data API (admin); it expires after one hour',
  description: 'The token opens usage analytics only: the management API refuses it.',
  response: Type.Object({ token: Type.String(), expiresAt: Timestamp }),
});

export const usageRoutes = { createUsageAnalyticsToken };
