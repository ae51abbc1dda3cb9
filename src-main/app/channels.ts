/**
 * The only IPC channels between the renderer and the main process. The preload exposes one
 * function per channel; the main process registers handlers for these and nothing else.
 */
export const IPC_CHANNELS = {
  /** → `{ baseUrl, token }` of the in-process service for this launch. */
  getConnection: 'drydock:get-connection',
  /** `{ title, body }` → a desktop notification; answers true when the user clicked it. */
  notify: 'drydock:notify',
} as const;

export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];

export const ALLOWED_CHANNELS: ReadonlySet<string> = new Set<string>(Object.values(IPC_CHANNELS));

export const isAllowedChannel = (channel: string): channel is IpcChannel => ALLOWED_CHANNELS.has(channel);

/** Longest notification text the main process shows. */
export const NOTIFY_LIMITS = { title: 120, body: 1000 } as const;
