// One live-events stream per window, to the local service (remote profiles are not streamed: their
// screens load as before). Started by the shell once signed in; reconnects by itself.
import { getLiveEvents } from '../../../src-shared/api/events';
import { LOCAL_PROFILE } from '../../../src-shared/api/profiles';
import { subscribeLiveEvents, type LiveSubscription, type StreamingFetch } from '../../../src-shared/api/live-client';
import { JobNotices, type JobNotice } from '../lib/job-notices';
import { dispatchLiveEvent, useLiveStatus } from '../lib/live';
import { useProfile } from './profile';
import { navigate } from './router';
import { currentAuthorization, localApi, useSession } from './session';

const notices = new JobNotices(() => useSession.getState().user?.id ?? null);

/** The job the notification is about, on screen (the window is already in front). */
const openJob = (notice: JobNotice) => {
  if (notice.path) navigate(notice.path);
};

/**
 * Through the shell's notifications in the desktop app, the browser's Notification API otherwise.
 * A click brings the window to the front and opens the job.
 */
function showNotice(notice: JobNotice): void {
  if (window.drydock) {
    void window.drydock.notify(notice.title, notice.body).then((clicked) => clicked && openJob(notice), () => undefined);
    return;
  }
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const shown = new Notification(notice.title, { body: notice.body });
  shown.onclick = () => {
    window.focus();
    openJob(notice);
    shown.close();
  };
}

/** The browser asks once, when the user starts something (a click), whether notifications may be shown. */
function askNotificationPermissionOnce(): void {
  if (window.drydock || typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  const ask = () => {
    window.removeEventListener('click', ask, true);
    void Notification.requestPermission().catch(() => undefined);
  };
  window.addEventListener('click', ask, true);
}

let subscription: LiveSubscription | null = null;

export function startLiveEvents(): () => void {
  askNotificationPermissionOnce();
  if (!subscription) {
    subscription = subscribeLiveEvents({
      url: () => localApi.url(getLiveEvents),
      auth: currentAuthorization,
      fetch: ((url, init) => window.fetch(url, init)) as StreamingFetch,
      onEvent: (event) => {
        const notice = notices.take(event, Date.now(), document.hidden || !document.hasFocus());
        if (notice) showNotice(notice);
        // Events are the local service's: screens showing a remote profile do not take them.
        if (useProfile.getState().active === LOCAL_PROFILE) dispatchLiveEvent(event);
      },
      onStatus: (status) => useLiveStatus.setState({ status }),
    });
  }
  return () => {
    subscription?.close();
    subscription = null;
    useLiveStatus.setState({ status: 'off' });
  };
}
