import { createHash } from 'node:crypto';
import type { Job, JobErrorInfo, JobLogEntry, JobLogLevel, JobProgress, JobStatus } from './types';

/** A `jobs` row as SQLite returns it. */
export interface JobRow {
  id: string;
  deployment_id: number | null;
  kind: string;
  inputs: string;
  inputs_hash: string;
  idempotency_key: string | null;
  status: JobStatus;
  progress: string;
  result: string | null;
  error: string | null;
  checkpoint: string | null;
  workflow_id: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  heartbeat_at: string | null;
  cancel_requested: number;
  attempts: number;
  max_attempts: number;
  resumable: number;
  retention_ms: number | null;
  available_at: string;
  created_by: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
}

export interface JobLogRow {
  id: number;
  job_id: string;
  attempt: number;
  level: JobLogLevel;
  message: string;
  fields: string | null;
  created_at: string;
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export function toJob<I = unknown, R = unknown>(row: JobRow): Job<I, R> {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    kind: row.kind,
    inputs: JSON.parse(row.inputs) as I,
    inputsHash: row.inputs_hash,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    progress: JSON.parse(row.progress) as JobProgress,
    result: parse<R>(row.result),
    error: parse<JobErrorInfo>(row.error),
    checkpoint: parse<unknown>(row.checkpoint),
    workflowId: row.workflow_id,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    heartbeatAt: row.heartbeat_at,
    cancelRequested: row.cancel_requested === 1,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    createdBy: row.created_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
  };
}

export function toLogEntry(row: JobLogRow): JobLogEntry {
  return {
    id: row.id,
    attempt: row.attempt,
    level: row.level,
    message: row.message,
    fields: parse<Record<string, unknown>>(row.fields),
    createdAt: row.created_at,
  };
}

/** JSON with object keys sorted at every level, so equal inputs hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

export const inputsHashOf = (inputs: unknown): string => createHash('sha256').update(canonicalJson(inputs ?? null)).digest('hex');

export const addMs = (iso: string, ms: number): string => new Date(new Date(iso).getTime() + ms).toISOString();
