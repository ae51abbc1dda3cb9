/**
 * The client side of the live-events stream (`GET /api/v1/events`, server-sent events): reads the
 * stream through an injected `fetch` (EventSource cannot send an `Authorization` header), parses
 * its frames, and reconnects after a drop with `Last-Event-ID`, so nothing is missed — or, when the
 * service no longer holds what was missed (it restarted), delivers its `resync` event. Pure.
 */
import type { LiveEvent } from './events';

export interface StreamingResponse {
  status: number;
  ok: boolean;
  body: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> } } | null;
}

export type StreamingFetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<StreamingResponse>;

export type LiveStatus = 'connecting' | 'live' | 'offline' | 'unauthorized';

export interface LiveSubscriptionOptions {
  /** The stream's URL (`client.url(getLiveEvents)`); read on every (re)connect. */
  url: () => string;
  /** The `Authorization` header value, read on every (re)connect. */
  auth: () => string | null;
  fetch: StreamingFetch;
  onEvent(event: LiveEvent): void;
  onStatus?(status: LiveStatus): void;
  /** Wait before reconnecting (ms, doubling up to `maxRetryMs`). */
  retryMs?: number;
  maxRetryMs?: number;
  /** Timer functions (tests inject their own). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export interface LiveSubscription {
  /** The id of the last event received (sent as `Last-Event-ID` on reconnect). */
  readonly lastEventId: string | null;
  close(): void;
}

/** Splits a server-sent event stream into the `data` of its events (ids come inside the JSON). */
export function parseEventFrames(buffer: string): { frames: string[]; rest: string } {
  const normalized = buffer.replace(/\r\n?/g, '\n');
  const frames: string[] = [];
  let rest = normalized;
  let end: number;
  while ((end = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (data) frames.push(data);
  }
  return { frames, rest };
}

export function subscribeLiveEvents(options: LiveSubscriptionOptions): LiveSubscription {
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const baseRetry = options.retryMs ?? 1000;
  const maxRetry = options.maxRetryMs ?? 30_000;
  let lastEventId: string | null = null;
  let closed = false;
  let controller: AbortController | null = null;
  let timer: unknown = null;
  let retry = baseRetry;

  const status = (value: LiveStatus) => options.onStatus?.(value);

  const schedule = () => {
    if (closed) return;
    status('offline');
    timer = setTimer(() => void connect(), retry);
    retry = Math.min(maxRetry, retry * 2);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    status('connecting');
    controller = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    const auth = options.auth();
    if (auth) headers.authorization = auth;
    if (lastEventId) headers['last-event-id'] = lastEventId;
    try {
      const response = await options.fetch(options.url(), { headers, signal: controller.signal });
      if (response.status === 401) {
        // The session ended: reconnecting with the same credential cannot help; the next call's 401 signs out.
        status('unauthorized');
        timer = setTimer(() => void connect(), maxRetry);
        return;
      }
      if (!response.ok || !response.body) return schedule();
      status('live');
      retry = baseRetry;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        const parsed = parseEventFrames(buffer + decoder.decode(value, { stream: true }));
        buffer = parsed.rest;
        for (const data of parsed.frames) {
          let event: LiveEvent;
          try {
            event = JSON.parse(data) as LiveEvent;
          } catch {
            continue;
          }
          lastEventId = event.id;
          options.onEvent(event);
        }
      }
    } catch {
      // dropped or aborted: reconnect below unless closed
    }
    schedule();
  }

  void connect();
  return {
    get lastEventId() {
      return lastEventId;
    },
    close() {
      closed = true;
      if (timer !== null) clearTimer(timer);
      controller?.abort();
    },
  };
}
