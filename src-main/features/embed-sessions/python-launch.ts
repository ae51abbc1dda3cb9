// How the Python runner process is started (issue 23): which executable, which flags, which
// environment. Pure, so that the choice made under Electron (which cannot run in the tests) is
// tested like the one made under Node.
//
// - Executable: the service's own. Under Node that is node; in the desktop app the service runs in
//   Electron's utility process, whose execPath is the Electron binary, which runs as plain Node with
//   ELECTRON_RUN_AS_NODE=1 (the `runAsNode` fuse must stay enabled for this).
// - Flags: Node's permission model with reads allowed only in Pyodide's directory and the runner's
//   own file — no writes, child processes, workers, addons, WASI or inspector (none is granted);
//   no code generation from strings; a bounded JavaScript heap. The runner checks that these hold
//   before it runs anything (python-runner.ts).
// - Environment: an allowlist, not a copy — nothing of the service's secrets, tokens or paths.
// - On Linux, when the tools are there and work unprivileged (probed once by the sandbox):
//   `prlimit` caps CPU seconds (a runner left spinning after the service died ends by itself), the
//   process's writable memory, file size (no file can be written) and core dumps; `unshare --map-root-user --net` puts the runner in
//   a network namespace of its own, with no interface up: no network at all, whatever JavaScript
//   the script might reach.

/** What the choice depends on (the service passes its own process's values). */
export interface RunnerLaunchInput {
  execPath: string;
  /** process.versions.electron: set when the service runs inside Electron. */
  electronVersion: string | undefined;
  platform: NodeJS.Platform;
  /** The service's environment: only ENV_ALLOWLIST names are passed on. */
  env: Readonly<Record<string, string | undefined>>;
  /** The runner's entry file (bundled JavaScript). */
  runnerFile: string;
  /** Pyodide's package directory (pyodide.mjs, the WebAssembly runtime, the standard library). */
  pyodideDir: string;
  /** How far Python's heap (WebAssembly memory) may grow past the runtime's own footprint. */
  memoryLimitBytes: number;
  /** The JavaScript heap of the runner (--max-old-space-size). */
  heapLimitMb: number;
  /** Linux tools found working: absolute paths, or null. */
  prlimit: string | null;
  unshare: string | null;
  /** CPU seconds one runner may use in all (prlimit). */
  cpuSeconds: number;
  /**
   * The process's writable memory in all (prlimit --data): JavaScript copies of Python data
   * (`pyodide.ffi.to_js`) live outside both the WebAssembly memory and the JavaScript heap.
   */
  dataLimitBytes: number;
}

export interface RunnerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Environment names passed on to the runner: none carries a secret. */
export const ENV_ALLOWLIST: Readonly<Record<string, readonly string[]>> = {
  // Windows cannot start a process without these.
  win32: ['SystemRoot', 'SYSTEMROOT', 'windir'],
  // The time zone of `datetime.now()` follows the service's.
  default: ['TZ'],
};

export function runnerLaunch(input: RunnerLaunchInput): RunnerLaunch {
  const env: Record<string, string> = {};
  for (const name of [...ENV_ALLOWLIST.default!, ...(ENV_ALLOWLIST[input.platform] ?? [])]) {
    const value = input.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (input.electronVersion !== undefined) env.ELECTRON_RUN_AS_NODE = '1';
  const node = [
    '--permission',
    `--allow-fs-read=${input.runnerFile}`,
    `--allow-fs-read=${input.pyodideDir}`,
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${input.heapLimitMb}`,
    input.runnerFile,
    input.pyodideDir,
    String(input.memoryLimitBytes),
  ];
  let command = input.execPath;
  let args = node;
  if (input.platform === 'linux' && input.unshare) {
    args = ['--map-root-user', '--net', '--', command, ...args];
    command = input.unshare;
  }
  if (input.platform === 'linux' && input.prlimit) {
    args = [`--cpu=${input.cpuSeconds}`, `--data=${input.dataLimitBytes}`, '--fsize=0', '--core=0', '--', command, ...args];
    command = input.prlimit;
  }
  return { command, args, env };
}

/**
 * The path of a file as it exists on disk: in the packaged app, files inside `app.asar` that must be
 * real files (the runner, Pyodide) are unpacked beside it (electron-builder `asarUnpack`).
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
