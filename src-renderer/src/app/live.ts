// One live-events stream per window, to the local service (remote profiles are not streamed: their
// screens load as before). Started by the shell once signed in; reconnects by itself.
import { getLiveEvents } from '../../../src-shared/api/events';
import { LOCAL_PROFILE } from '../../../src-shared/api/profiles';
import { subscribeLiveEvents, type LiveSubscription, type StreamingFetch } from '../../../src-shared/api/live-client';
import { dispatchLiveEvent, useLiveStatus } from '../lib/live';
import { useProfile } from './profile';
import { currentAuthorization, localApi } from './session';

let subscription: LiveSubscription | null = null;

export function startLiveEvents(): () => void {
  if (!subscription) {
    subscription = subscribeLiveEvents({
      url: () => localApi.url(getLiveEvents),
      auth: currentAuthorization,
      fetch: ((url, init) => window.fetch(url, init)) as StreamingFetch,
      onEvent: (event) => {
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
