import type { LiveEvent } from '../../src-shared/api/events';

export interface EventStream {
  status: number;
  contentType: string;
  events: LiveEvent[];
  /** Resolves with the first event (already received or to come) matching `predicate`. */
  next(predicate: (event: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET /api/v1/events` as a server-sent event stream over real HTTP and parses its frames. */
export async function openEventStream(baseUrl: string, auth: string, options: { lastEventId?: string; query?: string } = {}): Promise<EventStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', authorization: auth };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const res = await fetch(`${baseUrl}/api/v1/events${options.query ?? ''}`, { headers, signal: controller.signal });
  const events: LiveEvent[] = [];
  const waiters: { predicate: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }[] = [];
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (!data) continue;
          const event = JSON.parse(data) as LiveEvent;
          events.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    events,
    ended,
    next(predicate, timeoutMs = 30_000) {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => e.type))}`)), timeoutMs);
        waiters.push({ predicate, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      });
    },
    close: () => controller.abort(),
  };
}
