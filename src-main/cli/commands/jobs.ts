// `drydock jobs list|show|wait|cancel`: the long-running jobs of a deployment.
import type { ConnectionOptions } from '../api/connection';
import { cancelJob, findJob, getJobResult, isTerminal, listJobs, type JobInfo, type JobKind } from '../api/jobs';
import { assertCompleted, describeJob, waitForJob } from '../api/wait';
import type { Output } from '../output';
import { jobLine, withDeployment } from './common';

const COLUMNS = [
  { key: 'id', title: 'ID' },
  { key: 'kind', title: 'KIND' },
  { key: 'status', title: 'STATUS' },
  { key: 'progress', title: 'PROGRESS' },
  { key: 'createdAt', title: 'CREATED' },
  { key: 'problem', title: 'ERROR' },
];

const row = (j: JobInfo) => ({ ...j, progress: `${j.stage} ${j.percentComplete}%`, problem: j.error?.code ?? '' });

export async function listCommand(options: ConnectionOptions & { all?: boolean; kind?: JobKind[]; limit: number }): Promise<number> {
  const { conn, out, deployment } = await withDeployment(options);
  const jobs = await listJobs(conn, deployment.id, { kinds: options.kind, activeOnly: !options.all, limit: options.limit });
  out.result(jobs);
  if (jobs.length === 0) out.line(options.all ? 'No jobs.' : 'No running or queued jobs (--all shows finished ones).');
  else out.table(jobs.map(row), COLUMNS);
  return 0;
}

function printJob(out: Output, job: JobInfo): void {
  out.line(jobLine(job));
  out.line(`  stage ${job.stage} (${job.percentComplete}%), created ${job.createdAt}${job.finishedAt ? `, finished ${job.finishedAt}` : ''}`);
  if (job.dataSourceName) out.line(`  data source ${job.dataSourceName}`);
}

export async function showCommand(options: ConnectionOptions & { kind?: JobKind }, id: string): Promise<number> {
  const { conn, out, deployment } = await withDeployment(options);
  const job = await findJob(conn, deployment.id, id, options.kind);
  const result = job.status === 'COMPLETED' || job.status === 'PARTIAL' ? await getJobResult(conn, job) : null;
  out.result({ job, result });
  printJob(out, job);
  if (result) out.line(`  result: ${JSON.stringify(result).length} bytes (--json prints it)`);
  return 0;
}

export async function waitCommand(options: ConnectionOptions & { kind?: JobKind }, id: string): Promise<number> {
  const { conn, out, progress, deployment } = await withDeployment(options);
  const found = await findJob(conn, deployment.id, id, options.kind);
  const outcome = await waitForJob(conn, found, progress, out.note);
  out.result({ job: outcome.job });
  out.line(jobLine(outcome.job));
  assertCompleted(outcome);
  return 0;
}

export async function cancelCommand(options: ConnectionOptions & { kind?: JobKind; wait: boolean }, id: string): Promise<number> {
  const { conn, out, progress, deployment } = await withDeployment(options);
  const found = await findJob(conn, deployment.id, id, options.kind);
  if (isTerminal(found.status)) {
    out.result({ job: found });
    out.line(`${describeJob(found)} already ended ${found.status}; nothing to cancel.`);
    return 0;
  }
  let job = await cancelJob(conn, found);
  if (options.wait && !isTerminal(job.status)) job = (await waitForJob(conn, job, progress, out.note)).job;
  out.result({ job });
  out.line(isTerminal(job.status) ? jobLine(job) : `Cancellation of ${describeJob(job)} requested (${job.status}).`);
  return 0;
}
