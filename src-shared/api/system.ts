import { Type } from 'typebox';
import { defineRoute, Timestamp } from './contract';

const TAG = 'OpenAPI Spec';

export const getSpec = defineRoute({
  method: 'GET',
  path: '/api/v1/spec',
  operationId: 'getOpenApiSpec',
  tag: TAG,
  summary: 'The full OpenAPI 3.1 document of this service',
  auth: 'public',
  response: Type.Object({ openapi: Type.String() }, { additionalProperties: true }),
});

export const getHealth = defineRoute({
  method: 'GET',
  path: '/api/v1/health',
  operationId: 'getHealth',
  tag: TAG,
  summary: 'Liveness of the service',
  auth: 'public',
  response: Type.Object({ status: Type.Literal('ok'), version: Type.String() }),
});

export const exchangeLoginCode = defineRoute({
  method: 'POST',
  path: '/api/v1/auth/login-code',
  operationId: 'exchangeLoginCode',
  tag: 'Users',
  summary: 'Exchange a one-time login code (from the login link) for a session token',
  description: 'The code is the credential: it works once and expires after ten minutes.',
  auth: 'public',
  body: Type.Object({ code: Type.String({ minLength: 16, maxLength: 128 }) }, { additionalProperties: false }),
  response: Type.Object({ token: Type.String(), expiresAt: Timestamp }),
});

export const systemRoutes = { getSpec, getHealth, exchangeLoginCode };
