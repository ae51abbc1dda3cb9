import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let doc: Record<string, unknown> & { paths: Record<string, Record<string, { operationId?: string }>> };
beforeAll(async () => {
  svc = await startTestService();
  doc = (await svc.call('GET', '/api/v1/spec', { auth: null })).body;
});
afterAll(async () => svc.stop());

const toOpenApiPath = (p: string) => p;

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with interface version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as { version: string }).version).toBe('1.0.0');
  });

  it('passes @redocly/cli lint with no errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const result = spawnSync('npx', ['redocly', 'lint', file, '--format=stylish'], { encoding: 'utf8', cwd: process.cwd() });
    const output = `${result.stdout}\n${result.stderr}`;
    if (result.status !== 0) console.error(output);
    expect(result.status, output).toBe(0);
  }, 120_000);

  it('gives every operation request and response schemas that are valid JSON Schema (the service does not check them when it compiles them)', () => {
    const ajv = new Ajv({ strict: false });
    const invalid: string[] = [];
    for (const { def } of svc.routes) {
      for (const part of ['params', 'query', 'body', 'response'] as const) {
        const schema = def[part];
        if (schema && !ajv.validateSchema(schema)) invalid.push(`${def.operationId} ${part}: ${ajv.errorsText(ajv.errors)}`);
      }
    }
    expect(svc.routes.length).toBeGreaterThan(200);
    expect(invalid).toEqual([]);
  });

  it('is a valid OpenAPI document for swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('gives every operation a unique operationId, a summary and a tag', () => {
    const seen = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const o = op as { operationId?: string; summary?: string; tags?: string[] };
        expect(o.operationId, `${method} ${path}`).toBeTruthy();
        expect(seen.has(o.operationId!), `duplicate ${o.operationId}`).toBe(false);
        seen.add(o.operationId!);
        expect(o.summary, `${method} ${path}`).toBeTruthy();
        expect(o.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it('reports how many operations of shared/endpoints.tsv the document serves', () => {
    const tsv = readFileSync(new URL('../../../shared/endpoints.tsv', import.meta.url), 'utf8');
    const wanted = tsv
      .split('\n')
      .filter((line) => line && !line.startsWith('#') && !line.startsWith('method\t'))
      .map((line) => line.split('\t'))
      .map(([method, path]) => ({ method: method.toLowerCase(), path: toOpenApiPath(path) }));
    const served = wanted.filter(({ method, path }) => doc.paths[path]?.[method] !== undefined);
    const missing = wanted.filter((w) => !served.includes(w));
    console.log(`endpoint coverage: ${served.length} of ${wanted.length} operations of shared/endpoints.tsv are served`);
    if (missing.length) console.log(`not yet served:\n${missing.map((m) => `  ${m.method.toUpperCase()} ${m.path}`).join('\n')}`);
    expect(wanted.length).toBeGreaterThan(100);
  });
});

describe('optional request bodies', () => {
  it('marks the body of updateWorkbookDashboard as optional, as the spec says', () => {
    const op = doc.paths['/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard'].put as { requestBody?: { required?: boolean } };
    expect(op.requestBody?.required).toBe(false);
  });
});
