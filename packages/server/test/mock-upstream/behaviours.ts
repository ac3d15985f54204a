import type { Behaviour, RouteKey } from './types.js';

/**
 * Per-route FIFO queues plus a sticky default. A test enqueues exactly the failures it wants for the next
 * requests and everything after them succeeds, so retries and fallbacks can be scripted step by step.
 */
export class BehaviourStore {
  private readonly queues = new Map<RouteKey, Behaviour[]>();
  private readonly defaults = new Map<RouteKey, Behaviour>();

  enqueue(route: RouteKey, behaviours: Behaviour[]): void {
    const queue = this.queues.get(route) ?? [];
    queue.push(...behaviours);
    this.queues.set(route, queue);
  }

  setDefault(route: RouteKey, behaviour: Behaviour | null): void {
    if (behaviour) this.defaults.set(route, behaviour);
    else this.defaults.delete(route);
  }

  /** The behaviour for the next request on a route: queued first, then the default, then plain success. */
  next(route: RouteKey): Behaviour {
    const queued = this.queues.get(route)?.shift();
    return queued ?? this.defaults.get(route) ?? { kind: 'ok' };
  }

  clear(): void {
    this.queues.clear();
    this.defaults.clear();
  }
}
