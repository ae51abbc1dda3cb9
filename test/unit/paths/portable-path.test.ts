// The path rules of model repositories (issue 23): git's verify_path with its NTFS and HFS+
// protections, names Windows cannot hold, Unicode that is no text, and case/normalisation twins.
import { describe, expect, it } from 'vitest';
import { filePathProblem } from '../../../src-shared/api/data-model';
import { caseTwins, foldedName, gitReservedSegment, nonPortableSegment, portableName, portablePathProblem } from '../../../src-shared/paths/portable-path';

const codeOf = (path: string) => filePathProblem(path)?.code ?? null;

describe('names git reserves (verify_path with core.protectNTFS and core.protectHFS)', () => {
  const reserved = [
    '.git',
    '.GIT',
    '.Git',
    '.git.',
    '.git . .',
    '.git::$INDEX_ALLOCATION',
    '.git:stream',
    'git~1',
    'GIT~1',
    'git~1.',
    'git~1 ',
    '.g\u200cit',
    '.\u200dgit',
    '.GI\ufeffT',
    '.gitmodules',
    '.GITMODULES',
    '.gitmodules.',
    '.gitmodules::$DATA',
    'gitmod~1',
    'GITMOD~4',
    'gi7eba~1',
    'gi7eba~9',
    '.gitattributes',
    'gitatt~1',
    'gi7d29~2',
    '.gitignore',
    'gi250a~1',
    '.g\u200cit\u200dmodules',
  ];
  it.each(reserved)('refuses "%s" as a file or folder name', (segment) => {
    expect(gitReservedSegment(segment), segment).not.toBeNull();
    expect(codeOf(`model/${segment}/x.yml`), segment).toBe('PATH_RESERVED_BY_GIT');
  });

  it('keeps names git accepts: .github, .gitx, git~2, mygit~1, gitmod~5, .git-blame-ignore-revs.yml', () => {
    for (const ok of ['.github', '.gitx', 'git~2', 'mygit~1', 'gitmod~5', '.git-blame-ignore-revs.yml', 'gitmodules', 'git', 'digit~1']) {
      expect(gitReservedSegment(ok), ok).toBeNull();
    }
    expect(codeOf('.github/workflows/model.yml')).toBeNull();
  });

  it('names the rule in the detail', () => {
    expect(portablePathProblem('model/git~1/x.yml')).toMatchObject({ code: 'PATH_RESERVED_BY_GIT', rule: 'the NTFS short name of .git', path: 'model/git~1/x.yml' });
    expect(filePathProblem('.git::$INDEX_ALLOCATION/x.yml')?.detail).toContain('.git');
  });
});

describe('names Windows cannot hold', () => {
  const refused = [
    'CON.yml',
    'con.yml',
    'Con.YML',
    'aux.js',
    'nul.yml',
    'PRN.md',
    'COM1.yml',
    'com9.yml',
    'COM0.yml',
    'LPT1.sql',
    'lpt9.yml',
    'COM\u00b9.yml',
    'com\u00b2.yml',
    'LPT\u00b3.yml',
    'CONIN$.yml',
    'conout$.yml',
    'CON .yml',
    'nul.tar.yml',
    'a:b.yml',
    'x*.yml',
    'x?.yml',
    'x<.yml',
    'x>.yml',
    'x|.yml',
    'x".yml',
    'trailing.yml ',
    'trailing.yml.',
  ];
  it.each(refused)('refuses the file "%s"', (name) => {
    expect(codeOf(`model/${name}`), name).toBe('PATH_NOT_PORTABLE');
  });

  it('refuses folders Windows cannot hold: "x.", "x ", "aux", "COM3"', () => {
    for (const folder of ['x.', 'x ', 'aux', 'COM3', 'a:b']) expect(codeOf(`model/${folder}/c.yml`), folder).toBe('PATH_NOT_PORTABLE');
  });

  it('refuses a name over 255 bytes, and keeps one of 255', () => {
    const name = (bytes: number) => `${'é'.repeat((bytes - 4) / 2)}.yml`;
    expect(codeOf(`model/${name(256)}`)).toBe('PATH_NOT_PORTABLE');
    expect(codeOf(`model/${'a'.repeat(251)}.yml`)).toBeNull();
  });

  it('keeps names that only resemble device names', () => {
    for (const ok of ['console.yml', 'auxiliary.yml', 'com10.yml', 'lpt.yml', 'nul_.yml', 'connection.yml', 'concat.sql', 'com1x.yml', 'my.con.yml']) {
      expect(nonPortableSegment(ok), ok).toBeNull();
      expect(codeOf(`model/${ok}`), ok).toBeNull();
    }
  });

  it('control characters and backslashes stay INVALID_FILE_PATH (the rule they always had)', () => {
    expect(codeOf('model/a\u0001.yml')).toBe('INVALID_FILE_PATH');
    expect(codeOf('model\\x.yml')).toBe('INVALID_FILE_PATH');
  });

  it('portableName makes a generated name one Windows can hold', () => {
    expect(portableName('con')).toBe('con_');
    expect(portableName('AUX')).toBe('AUX_');
    expect(portableName('orders')).toBe('orders');
    expect(portableName('x.')).toBe('x_');
    expect(nonPortableSegment(`${portableName('com1')}.yml`)).toBeNull();
  });
});

describe('Unicode that is no text', () => {
  it('refuses lone surrogates (high or low) and U+FFFD', () => {
    for (const path of ['model/a\ud800.yml', 'model/\udc00b.yml', 'model/\ud83d/x.yml', 'model/x\ufffd.yml']) {
      expect(codeOf(path), JSON.stringify(path)).toBe('PATH_INVALID_UNICODE');
    }
  });

  it('keeps characters outside the BMP written as surrogate pairs', () => {
    expect(codeOf('model/\u{1F4CA}-charts.yml')).toBeNull();
  });
});

describe('structure', () => {
  it('refuses empty segments, dot segments, absolute paths and paths over 512 characters', () => {
    for (const path of ['', 'model//x.yml', 'model/./x.yml', 'model/../x.yml', '/model/x.yml', 'C:/x.yml', `model/${'a/'.repeat(260)}x.yml`]) {
      expect(codeOf(path), path).toBe('INVALID_FILE_PATH');
    }
  });
});

describe('case and normalisation twins', () => {
  it('folds case, NFC/NFD and simple case mappings together', () => {
    expect(foldedName('OK.yml')).toBe(foldedName('ok.yml'));
    expect(foldedName('CAFÉ.yml')).toBe(foldedName('café.yml'));
    expect(foldedName('cafe\u0301.yml')).toBe(foldedName('café.yml'));
    expect(foldedName('STRASSE.yml')).toBe(foldedName('straße.yml'));
    expect(foldedName('a.yml')).not.toBe(foldedName('b.yml'));
  });

  it('finds a new file that is the same as an existing one on macOS or Windows', () => {
    expect(caseTwins(['model/ok.yml'], ['model/OK.yml'])).toEqual([{ path: 'model/OK.yml', twin: 'model/ok.yml' }]);
    expect(caseTwins(['model/café.yml'], ['model/CAFÉ.yml'])).toEqual([{ path: 'model/CAFÉ.yml', twin: 'model/café.yml' }]);
    expect(caseTwins(['model/cafe\u0301.yml'], ['model/café.yml'])).toEqual([{ path: 'model/café.yml', twin: 'model/cafe\u0301.yml' }]);
  });

  it('finds folder twins and twins within the same request', () => {
    expect(caseTwins(['model/cubes/a.yml'], ['model/Cubes/b.yml'])).toEqual([{ path: 'model/Cubes/b.yml', twin: 'model/cubes' }]);
    expect(caseTwins([], ['model/a.yml', 'model/A.yml'])).toEqual([
      { path: 'model/a.yml', twin: 'model/A.yml' },
      { path: 'model/A.yml', twin: 'model/a.yml' },
    ]);
  });

  it('leaves twins already in the tree alone and accepts a case-only rename (the old name goes)', () => {
    expect(caseTwins(['model/ok.yml', 'model/OK.yml'], ['model/other.yml'])).toEqual([]);
    expect(caseTwins(['model/ok.yml', 'model/OK.yml'], ['model/OK.yml'])).toEqual([]);
    expect(caseTwins(['model/Cubes/a.yml', 'model/cubes/b.yml'], ['model/cubes/c.yml'])).toEqual([]);
    expect(caseTwins([], ['model/Orders.yml'])).toEqual([]);
  });
});
