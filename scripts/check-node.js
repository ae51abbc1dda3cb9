// The first thing `drydock`, `npm start` and `npm run serve` load: on a Node older than the
// project's runtime (package.json `engines`), say in one line what to install and stop, before
// anything else loads and fails in a less telling way. No imports, so nothing else loads first.

/** The oldest Node Drydock runs on: Node 24 LTS (package.json `engines` says the same). */
export const MINIMUM_NODE = [24, 11];

/** Why this Node cannot run Drydock, in one line, or null when it can. */
export function nodeVersionProblem(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return null;
  return `Drydock needs Node.js ${needMajor}.${needMinor} or later (Node ${needMajor} LTS); this is Node ${version}. Install Node ${needMajor} LTS from https://nodejs.org (or with nvm: nvm install ${needMajor}) and run it again.`;
}

const problem = nodeVersionProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}
