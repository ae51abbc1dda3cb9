import type { DesktopBridge, DesktopConnection } from '../../src-shared/api/client';
import { IPC_CHANNELS, isAllowedChannel, NOTIFY_LIMITS } from './channels';

/** The part of `ipcRenderer` the bridge uses (injected, so tests run without Electron). */
export interface IpcInvoker {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

/**
 * What the preload exposes to the page as `window.drydock`: plain functions over allowlisted
 * channels only. The page never receives `ipcRenderer` itself or any way to name a channel.
 */
export function createBridge(ipc: IpcInvoker): DesktopBridge {
  const invoke = (channel: string, ...args: unknown[]) => {
    if (!isAllowedChannel(channel)) throw new Error(`IPC channel ${channel} is not allowed.`);
    return ipc.invoke(channel, ...args);
  };
  return Object.freeze({
    getConnection: async () => (await invoke(IPC_CHANNELS.getConnection)) as DesktopConnection,
    notify: async (title: string, body: string) =>
      (await invoke(IPC_CHANNELS.notify, { title: String(title).slice(0, NOTIFY_LIMITS.title), body: String(body).slice(0, NOTIFY_LIMITS.body) })) === true,
  });
}
