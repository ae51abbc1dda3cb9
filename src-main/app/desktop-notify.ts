// Desktop notifications of the main process that say when they were clicked (issue 14 item 8):
// the renderer's `notify` answers `true` once the user clicked the notification, after the window
// was brought to the front, so the page opens the job the notification is about. Free of Electron
// values: main.ts passes `new Notification(...)`; unit-tested under Node.

/** The part of Electron's `Notification` used here. */
export interface NotificationLike {
  on(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
  show(): void;
}

/** How long a notification's answer is awaited; after that it counts as not clicked. */
export const NOTICE_ANSWER_MS = 10 * 60_000;

export interface DesktopNotifierDeps {
  /** `new Notification({ title, body })`, or null where the desktop shows none. */
  create(title: string, body: string): NotificationLike | null;
  /** Brings the app's window to the front (tray.ts `bringToFront`). */
  focusWindow(): void;
  answerMs?: number;
}

/**
 * Shows a notification; resolves `true` when clicked (the window is focused first), `false` when
 * dismissed, unsupported or unanswered in time. Notifications waiting for an answer are held here:
 * one only referenced by its listeners may be garbage-collected and lose its click.
 */
export function createDesktopNotifier(deps: DesktopNotifierDeps): (title: string, body: string) => Promise<boolean> {
  const waiting = new Set<NotificationLike>();
  return (title, body) =>
    new Promise<boolean>((resolve) => {
      const notification = deps.create(title, body);
      if (!notification) {
        resolve(false);
        return;
      }
      waiting.add(notification);
      let settled = false;
      const settle = (clicked: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        waiting.delete(notification);
        if (clicked) deps.focusWindow();
        resolve(clicked);
      };
      const timer = setTimeout(() => settle(false), deps.answerMs ?? NOTICE_ANSWER_MS);
      timer.unref?.();
      notification.on('click', () => settle(true));
      notification.on('close', () => settle(false));
      notification.on('failed', () => settle(false));
      notification.show();
    });
}
