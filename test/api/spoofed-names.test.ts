/**
 * Names that pretend to be something else (issue 11, item 6): branch names that collide with a git
 * ref namespace, and file paths with invisible, bidirectional or look-alike characters or
 * percent-encoded dot segments, are refused with a clear problem — nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePathProblem } from '../../src-shared/api/data-model';
import { branchNameProblem } from '../../src-main/platform/repo';
import { buildPath, createDeployment, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';

let svc: TestService;
let id: number;

beforeAll(async () => {
  svc = await startWithSampleProject();
  id = await createDeployment(svc);
  expect((await svc.call('POST', `${buildPath(id)}/dev-mode`)).status).toBeLessThan(300);
});
afterAll(async () => {
  await svc.stop();
});

const branchNames = async () => (await svc.call('GET', `${buildPath(id)}/branches`)).body.items.map((b: { branchName: string }) => b.branchName);

describe('branch names that collide with a ref namespace are refused', () => {
  const colliding = ['refs/heads/main', 'refs/tags/v1', 'heads/main', 'tags/v1', 'remotes/origin/main', 'origin/main', 'HEAD', 'FETCH_HEAD', 'ORIG_HEAD', 'feature/HEAD', 'head', '0123456789abcdef0123456789abcdef01234567'];

  it('creating one answers 400 INVALID_BRANCH_NAME saying why, and no branch appears', async () => {
    const before = await branchNames();
    for (const branchName of colliding) {
      const res = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName } });
      expect(res.status, branchName).toBe(400);
      expect(res.body.code, branchName).toBe('INVALID_BRANCH_NAME');
      expect(res.body.errors[0].pointer).toBe('/body/branchName');
    }
    expect(await branchNames()).toEqual(before);
    const refs = await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'refs/heads/main' } });
    expect(refs.body.detail).toContain('ref namespace');
  });

  it('naming one as the branch of a read answers 400, not a lookup of the ref it imitates', async () => {
    const res = await svc.call('GET', `${buildPath(id)}/data-model/files?branchName=${encodeURIComponent('refs/heads/main')}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_BRANCH_NAME');
  });

  it('ordinary names that merely contain those words stay valid', () => {
    for (const ok of ['main', 'feature/refs-cleanup', 'my-heads', 'release/tags-page', 'headline', 'originals', 'cafe1234']) {
      expect(branchNameProblem(ok), ok).toBeNull();
    }
  });
});

describe('file paths that hide what they are are refused', () => {
  const spoofed: Record<string, string> = {
    'right-to-left override': 'model/cubes/orders\u202Elmy.yml',
    'left-to-right isolate': 'model/\u2066cubes/x.yml',
    'zero-width space': 'model/cubes/ord\u200Bers.yml',
    'zero-width joiner': 'model/cubes/ord\u200Ders.yml',
    'byte order mark': '\uFEFFmodel/x.yml',
    'soft hyphen': 'model/or\u00ADders.yml',
    'no-break space': 'model/my\u00A0cube.yml',
    'ideographic space': 'model/my\u3000cube.yml',
    'line separator': 'model/a\u2028b.yml',
    'Hangul filler': 'model/\u3164.yml',
    'tag character': 'model/x\u{E0041}.yml',
    'decomposed accent (not NFC)': 'model/cafe\u0301.yml',
    'percent-encoded dot-dot segment': 'model/%2e%2e/secrets.yml',
    'mixed-case encoded dot segment': 'model/%2E./x.yml',
    'double-encoded dot-dot segment': 'model/%252e%252e/x.yml',
    'percent-encoded separator': 'model/..%2fx.yml',
  };

  it('writing one answers 400 INVALID_FILE_PATH with the body pointer, and the branch is unchanged', async () => {
    const before = (await svc.call('GET', `${buildPath(id)}/data-model/files`)).body.items.map((f: { path: string }) => f.path);
    for (const [what, path] of Object.entries(spoofed)) {
      const res = await svc.call('PUT', `${buildPath(id)}/data-model/files`, { body: { files: [{ path, content: 'cubes: []\n' }] } });
      expect(res.status, what).toBe(400);
      expect(res.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
      expect(res.body.code, what).toBe('INVALID_FILE_PATH');
      expect(res.body.errors[0].pointer, what).toBe('/body/files/0/path');
    }
    const after = (await svc.call('GET', `${buildPath(id)}/data-model/files`)).body.items.map((f: { path: string }) => f.path);
    expect(after).toEqual(before);
  });

  it('renaming to one and reading one are refused the same way', async () => {
    const rename = await svc.call('POST', `${buildPath(id)}/data-model/files/rename`, {
      body: { path: 'model/cubes/orders.yml', newPath: spoofed['right-to-left override'] },
    });
    expect(rename.status).toBe(400);
    expect(rename.body.errors[0].pointer).toBe('/body/newPath');
    const read = await svc.call('GET', `${buildPath(id)}/data-model/files?path=${encodeURIComponent(spoofed['percent-encoded dot-dot segment'])}`);
    expect(read.status).toBe(400);
    expect(read.body.code).toBe('INVALID_FILE_PATH');
  });

  it('readable names stay valid: accents in NFC, other scripts, a literal percent sign', () => {
    for (const ok of ['model/cubes/café.yml', 'model/キューブ/売上.yml', 'model/cubes/margin_50%25.yml', 'model/cubes/100%.yml']) {
      expect(filePathProblem(ok), ok).toBeNull();
    }
  });
});
