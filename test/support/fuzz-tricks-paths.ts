// File paths git, Windows or macOS refuse or take for another (issue 23), for the fuzzer's hostile
// values and the path-rule tests: each must be refused with a problem, never written, never a 500.

export const HOSTILE_PATHS: readonly string[] = [
  // git's reserved names and their NTFS / HFS+ synonyms
  '.git/config.yml',
  '.GIT/x.yml',
  '.git./x.yml',
  '.git . ./x.yml',
  '.git::$INDEX_ALLOCATION/x.yml',
  'model/git~1/x.yml',
  'model/GIT~1./x.yml',
  'model/.g\u200cit/x.yml',
  'model/.\ufeffgit/x.yml',
  '.gitmodules',
  'model/gitmod~1/x.yml',
  'model/gi7eba~1/x.yml',
  'model/.gitattributes/x.yml',
  // Windows device names, characters and endings
  'model/CON.yml',
  'model/con.yml',
  'model/aux.js',
  'model/NUL/x.yml',
  'model/COM1.yml',
  'model/COM\u00b9.yml',
  'model/LPT\u00b3.yml',
  'model/CONIN$.yml',
  'model/CON .yml',
  'model/a:b.yml',
  'model/x*?<>|".yml',
  'model/x./y.yml',
  'model/trailing .yml ',
  'model/dot.yml.',
  `model/${'n'.repeat(300)}.yml`,
  // Unicode that is no text, and normalisation
  'model/a\ud800.yml',
  'model/\udc00.yml',
  'model/x\ufffd.yml',
  'model/cafe\u0301.yml',
  // structure
  'model//x.yml',
  'model/./x.yml',
  '../x.yml',
  '/etc/x.yml',
  'C:/x.yml',
  'model\\x.yml',
];
