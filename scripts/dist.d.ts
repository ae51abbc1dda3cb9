/** electron-builder.yml of the repository. */
export const CONFIG: string;

/** The folder of an unpacked Electron for electron-builder's `electronDist`, or why there is none. */
export function resolveElectronDist(options?: {
  env?: Record<string, string | undefined>;
  electronDir?: string | null;
  download?: (electronDir: string) => Promise<boolean>;
}): Promise<{ dist: string; reason?: undefined } | { dist?: undefined; reason: string }>;

/** electron-builder's command line for `npm run dist`. */
export function builderArgs(dist: string, extra?: string[]): string[];

/** better-sqlite3 for the Electron binary inside the unpacked Electron `dist`, or why there is none. */
export function electronSqliteForDist(
  dist: string,
  options?: { electronDir?: string; sqliteFor?: (binary: string, options: { electronDir: string }) => Promise<{ file?: string; reason?: string }> },
): Promise<{ file?: string; reason?: string }>;
