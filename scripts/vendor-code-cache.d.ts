import type { Plugin } from 'vite';

/** Build plugin: the HTTP framework in out/main/vendor.cjs, loaded with a V8 code cache the build makes. */
export function vendorCodeCache(options: { root: string; packages: string[]; runtime: string }): Plugin;
