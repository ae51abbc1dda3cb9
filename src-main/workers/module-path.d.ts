// `import entry from './x-worker?modulePath'`: the absolute path of the bundled worker file. The
// build (electron-vite) bundles the entry beside the main bundle; from source (vitest, benchmarks)
// scripts/source-workers.js bundles it on first import.
declare module '*?modulePath' {
  const path: string;
  export default path;
}
