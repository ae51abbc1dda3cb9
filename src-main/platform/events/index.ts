import type { ServiceContext } from '../../context';
import { EventBus, type LiveEventInput } from './bus';

export { EventBus, type LiveEventInput } from './bus';

/** The service's event bus (created by the composition root). */
export function getEventBus(ctx: ServiceContext): EventBus {
  let bus = ctx.services.events as EventBus | undefined;
  if (!bus) {
    bus = new EventBus({ now: () => ctx.clock.now() });
    ctx.services.events = bus;
  }
  return bus;
}

/** Publishes a live event of this service (a no-op cost when nobody listens but the ring). */
export function publishEvent(ctx: ServiceContext, event: LiveEventInput): void {
  getEventBus(ctx).publish(event);
}
