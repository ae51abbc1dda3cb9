import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { getDataSource, getDataSourceSecret, getDeployBranch, listDataSources } from '../../src-main/features/deployments';
import type { Logger } from '../../src-main/context';
import { startTestService } from '../support/service';
import { allPages, createDeployment, D, svc, useDeploymentsService, VALID, viewer } from '../support/deployments-api';

// Deployments: env variables, the data sources derived from them, and secrets that stay secret.
useDeploymentsService();

describe('env variables', () => {
  it('env-vars: list is cursor paginated by name', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: ['ZED', 'ALPHA', 'MID'].map((name) => ({ name, value: name.toLowerCase() })) });
    const names = ((await allPages(`${D(id)}/env-vars`, 3)) as { name: string }[]).map((v) => v.name);
    expect(names).toHaveLength(8);
    expect(names).toEqual([...names].sort());
  });

  it('env-vars: set creates and replaces the named variables, null deletes one, the others keep their value', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] });
    const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'A', value: '10' }, { name: 'B', value: null }, { name: 'C', value: '3' }] });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.items.map((v: { name: string; value: string }) => [v.name, v.value]));
    expect(byName).toMatchObject({ A: '10', C: '3', CUBEJS_DB_NAME: 'ANALYTICS' });
    expect(byName).not.toHaveProperty('B');
  });

  it('env-vars: names must match ^[A-Z_][A-Z0-9_]*$ (400 with a pointer)', async () => {
    const id = await createDeployment();
    for (const name of ['lower', '1ABC', 'A-B', 'A B']) {
      const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'OK_NAME', value: 'x' }, { name, value: 'x' }] });
      expect(res.status, name).toBe(400);
      expect(res.body.errors[0].pointer).toBe('/body/1/name');
    }
    const names = (await svc.call('GET', `${D(id)}/env-vars`)).body.items.map((v: { name: string }) => v.name);
    expect(names).not.toContain('OK_NAME');
  });

  it('env-vars: a name given twice in one request is refused', async () => {
    const id = await createDeployment();
    const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'X', value: '1' }, { name: 'X', value: '2' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/1/name');
  });

  it('env-vars: CUBEJS_DATASOURCES must list data source names', async () => {
    const id = await createDeployment();
    const res = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DATASOURCES', value: 'default,my-lake' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/body/0/value');
  });

  it('env-vars: secret values go to the SecretStore under deployment:<id>:env:<NAME>, only non-secret values to SQLite', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_PASS', value: 'pa55-word-XYZ', isSecret: true },
        { name: 'CUBEJS_DB_USER', value: 'ANALYST' },
      ],
    });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:CUBEJS_DB_PASS`)).toBe('pa55-word-XYZ');
    const rows = svc.ctx.db.prepare('SELECT name, value, is_secret FROM env_vars WHERE deployment_id = ? AND name IN (?, ?) ORDER BY name').all(id, 'CUBEJS_DB_PASS', 'CUBEJS_DB_USER');
    expect(rows).toEqual([
      { name: 'CUBEJS_DB_PASS', value: null, is_secret: 1 },
      { name: 'CUBEJS_DB_USER', value: 'ANALYST', is_secret: 0 },
    ]);
  });

  it('env-vars: a secret variable shows its name and isSecret: true, never its value', async () => {
    const id = await createDeployment();
    const put = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'API_TOKEN', value: 'tok-never-shown-1', isSecret: true }] });
    expect(put.text).not.toContain('tok-never-shown-1');
    const list = await svc.call('GET', `${D(id)}/env-vars`);
    expect(list.text).not.toContain('tok-never-shown-1');
    expect(list.body.items.find((v: { name: string }) => v.name === 'API_TOKEN')).toEqual({ name: 'API_TOKEN', isSecret: true, updatedAt: expect.any(String) });
  });

  it('env-vars: re-setting a secret without isSecret keeps it secret', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'S', value: 'one', isSecret: true }] });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'S', value: 'two' }] });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:S`)).toBe('two');
    const row = svc.ctx.db.prepare('SELECT value, is_secret FROM env_vars WHERE deployment_id = ? AND name = ?').get(id, 'S');
    expect(row).toEqual({ value: null, is_secret: 1 });
  });

  it('env-vars: deleting a secret, or making it plain, removes its value from the SecretStore', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'GONE', value: 'g', isSecret: true }, { name: 'PLAIN', value: 'p', isSecret: true }] });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'GONE', value: null }, { name: 'PLAIN', value: 'visible', isSecret: false }] });
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:GONE`)).toBeNull();
    expect(await svc.ctx.secrets.get(`deployment:${id}:env:PLAIN`)).toBeNull();
    const list = (await svc.call('GET', `${D(id)}/env-vars`)).body.items;
    expect(list.find((v: { name: string }) => v.name === 'PLAIN')).toMatchObject({ value: 'visible', isSecret: false });
  });

  it('env-vars: a failed secret write leaves nothing half-written', async () => {
    class FailingStore extends MemorySecretStore {
      override async set(key: string, value: string): Promise<void> {
        if (value === 'boom') throw new Error('keychain locked');
        return super.set(key, value);
      }
    }
    const failing = await startTestService({ secrets: new FailingStore() });
    try {
      const id = await createDeployment(failing);
      await failing.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'FIRST', value: 'old', isSecret: true }] });
      const res = await failing.call('PUT', `${D(id)}/env-vars`, {
        body: [
          { name: 'FIRST', value: 'new', isSecret: true },
          { name: 'SECOND', value: 'boom', isSecret: true },
          { name: 'PLAIN', value: 'x' },
        ],
      });
      expect(res.status).toBe(500);
      expect(await failing.ctx.secrets.get(`deployment:${id}:env:FIRST`)).toBe('old');
      const names = (await failing.call('GET', `${D(id)}/env-vars`)).body.items.map((v: { name: string }) => v.name);
      expect(names).toContain('FIRST');
      expect(names).not.toContain('SECOND');
      expect(names).not.toContain('PLAIN');
    } finally {
      await failing.stop();
    }
  });

  it('env-vars: viewers can list but not set', async () => {
    const id = await createDeployment();
    expect((await svc.call('GET', `${D(id)}/env-vars`, { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'X', value: '1' }], auth: viewer.auth })).status).toBe(403);
  });

  it('env-vars: changes are logged by name, never by value', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'LOGGED_SECRET', value: 'do-not-log-me', isSecret: true }, { name: 'LOGGED_PLAIN', value: 'plain-value-q' }] });
    const server = await svc.call('GET', `${D(id)}/logs?container=cubejs-server`);
    expect(server.body.items[0].message).toContain('set LOGGED_SECRET (secret), LOGGED_PLAIN');
    expect(server.text).not.toContain('do-not-log-me');
    expect(server.text).not.toContain('plain-value-q');
  });
});

describe('data sources (derived from env vars)', () => {
  it('data sources: default from CUBEJS_DB_TYPE; others from CUBEJS_DATASOURCES and CUBEJS_DS_<NAME>_DB_TYPE', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DATASOURCES', value: 'default, lake, crm' },
        { name: 'CUBEJS_DS_CRM_DB_TYPE', value: 'postgres' },
      ],
    });
    const sources = listDataSources(svc.ctx, id);
    expect(sources.map((s) => [s.name, s.type, s.kind])).toEqual([
      ['default', 'snowflake', 'warehouse'],
      ['lake', 'databricks-jdbc', 'lakehouse'],
      ['crm', 'postgres', 'other'],
    ]);
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DATASOURCES', value: null }] });
    expect(listDataSources(svc.ctx, id).map((s) => s.name)).toEqual(['default']);
  });

  it('data sources: settings are read the Cube way, keyed by their CUBEJS_DB_ name', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_SNOWFLAKE_QUOTED_IDENTIFIERS_IGNORE_CASE', value: 'true' },
        { name: 'CUBEJS_DB_USER', value: 'CUBE_SVC' },
        { name: 'CUBEJS_DB_SNOWFLAKE_WAREHOUSE', value: 'COMPUTE_WH' },
        { name: 'CUBEJS_DS_LAKE_DB_NAME', value: 'analytics' },
      ],
    });
    const warehouse = getDataSource(svc.ctx, id, 'default');
    expect(warehouse).toMatchObject({ database: 'ANALYTICS', user: 'CUBE_SVC', warehouse: 'COMPUTE_WH', quotedIdentifiersIgnoreCase: true });
    expect(warehouse.settings.CUBEJS_DB_SNOWFLAKE_WAREHOUSE).toBe('COMPUTE_WH');
    const lake = getDataSource(svc.ctx, id, 'lake');
    expect(lake).toMatchObject({ catalog: 'main', database: 'analytics', quotedIdentifiersIgnoreCase: false });
    expect(lake.settings).toEqual({ CUBEJS_DB_TYPE: 'databricks-jdbc', CUBEJS_DB_DATABRICKS_CATALOG: 'main', CUBEJS_DB_NAME: 'analytics' });
  });

  it('data sources: use the local emulator until an account (warehouse) or a host (lakehouse) is configured', async () => {
    const id = await createDeployment();
    await svc.call('PUT', `${D(id)}/env-vars`, {
      body: [
        { name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: 'xy12345.eu-central-1' },
        {
          name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_URL',
          value: 'jdbc:databricks://dbc-a1b2c3.cloud.databricks.com:443/default;transportMode=http;ssl=1;httpPath=sql/1.0/warehouses/abc;AuthMech=3;UID=token',
        },
      ],
    });
    const [warehouse, lake] = listDataSources(svc.ctx, id);
    expect(warehouse).toMatchObject({ connector: 'remote', account: 'xy12345.eu-central-1' });
    expect(lake).toMatchObject({ connector: 'remote', host: 'dbc-a1b2c3.cloud.databricks.com', httpPath: 'sql/1.0/warehouses/abc' });
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: null }, { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_URL', value: null }] });
    expect(getDataSource(svc.ctx, id, 'default').connector).toBe('emulator');
    expect(getDataSource(svc.ctx, id, 'lake').connector).toBe('emulator');
    // A secret account still counts as configured: its presence is known, its value is not read.
    await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_SNOWFLAKE_ACCOUNT', value: 'hidden-account', isSecret: true }, { name: 'CUBEJS_DS_LAKE_DB_HOST', value: 'adb-123.azuredatabricks.net' }] });
    expect(getDataSource(svc.ctx, id, 'default')).toMatchObject({ connector: 'remote', account: null });
    expect(getDataSource(svc.ctx, id, 'lake')).toMatchObject({ connector: 'remote', host: 'adb-123.azuredatabricks.net' });
  });

  it('data sources: secret values are read through the SecretStore only when a connector asks (getDataSourceSecret)', async () => {
    const reads: string[] = [];
    class CountingStore extends MemorySecretStore {
      override async get(key: string): Promise<string | null> {
        reads.push(key);
        return super.get(key);
      }
    }
    const counted = await startTestService({ secrets: new CountingStore() });
    try {
      const id = await createDeployment(counted);
      await counted.call('PUT', `${D(id)}/env-vars`, {
        body: [
          { name: 'CUBEJS_DS_LAKE_DB_DATABRICKS_TOKEN', value: 'dapi-secret-token', isSecret: true },
          { name: 'CUBEJS_DB_PASS', value: 'plain-pass' },
        ],
      });
      reads.length = 0;
      const lake = getDataSource(counted.ctx, id, 'lake');
      expect(lake.secretSettings).toEqual(['CUBEJS_DB_DATABRICKS_TOKEN']);
      expect(JSON.stringify(lake)).not.toContain('dapi-secret-token');
      expect(reads).toEqual([]);
      expect(await getDataSourceSecret(counted.ctx, id, 'lake', 'CUBEJS_DB_DATABRICKS_TOKEN')).toBe('dapi-secret-token');
      expect(reads).toEqual([`deployment:${id}:env:CUBEJS_DS_LAKE_DB_DATABRICKS_TOKEN`]);
      expect(await getDataSourceSecret(counted.ctx, id, 'default', 'CUBEJS_DB_PASS')).toBe('plain-pass');
      expect(await getDataSourceSecret(counted.ctx, id, 'default', 'CUBEJS_DB_SNOWFLAKE_PRIVATE_KEY')).toBeNull();
    } finally {
      await counted.stop();
    }
  });

  it('data sources: an unknown name is 404 DATA_SOURCE_NOT_FOUND', async () => {
    const id = await createDeployment();
    expect(() => getDataSource(svc.ctx, id, 'nope')).toThrowError(expect.objectContaining({ status: 404, code: 'DATA_SOURCE_NOT_FOUND' }));
  });

  it('deploy branch: a new deployment deploys from main', async () => {
    const id = await createDeployment();
    expect(getDeployBranch(svc.ctx, id)).toBe('main');
  });
});

describe('secrets stay secret', () => {
  it('secrets: secret env var and storage credential values never reach SQLite, a response or the service log', async () => {
    const logged: string[] = [];
    const capture: Logger = {
      info: (m, f) => logged.push(m + JSON.stringify(f ?? {})),
      warn: (m, f) => logged.push(m + JSON.stringify(f ?? {})),
      error: (m, f) => logged.push(m + JSON.stringify(f ?? {})),
    };
    const scanned = await startTestService({ log: capture });
    const envSecret = 'ENV-SECRET-4f7c1d9e-never-stored';
    const storageSecret = 'STORAGE-SECRET-a81b-never-stored';
    const plainMarker = 'PLAIN-MARKER-3c9e-stored';
    try {
      const created = await scanned.call('POST', '/build/api/v1/deployments/', {
        body: { ...VALID, storageProvider: { type: 's3', bucket: 'scan-bucket', credentials: { secretAccessKey: storageSecret } } },
      });
      const id = created.body.id;
      const responses = [created.text];
      responses.push((await scanned.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_PASS', value: envSecret, isSecret: true }] })).text);
      responses.push(
        (await scanned.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_PASS2', value: envSecret, isSecret: true }, { name: 'PLAIN_MARKER', value: plainMarker }] })).text,
      );
      for (const path of ['', '/settings', '/env-vars', '/logs', '/pods', '/versions', '/build-status', '/environments']) {
        responses.push((await scanned.call('GET', `${D(id)}${path}`)).text);
      }
      responses.push((await scanned.call('GET', '/api/v1/deployments')).text);
      responses.push((await scanned.call('PUT', D(id), { body: { name: 'renamed' } })).text);
      for (const text of responses) {
        expect(text).not.toContain(envSecret);
        expect(text).not.toContain(storageSecret);
      }
      const files = ['drydock.sqlite', 'drydock.sqlite-wal'].map((f) => join(scanned.dataDir, f)).filter((f) => existsSync(f));
      const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
      // The scan does find values that are stored: the plain variable is there.
      expect(bytes.includes(Buffer.from(plainMarker))).toBe(true);
      expect(bytes.includes(Buffer.from(envSecret))).toBe(false);
      expect(bytes.includes(Buffer.from(storageSecret))).toBe(false);
      expect(logged.join('\n')).not.toContain(envSecret);
      expect(logged.join('\n')).not.toContain(storageSecret);
    } finally {
      await scanned.stop();
    }
  });
});
