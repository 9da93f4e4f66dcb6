import type { SubrequestBudget } from "../util/subrequest-budget.ts";
import type { SlackEventGate } from "./slack-event-gate.ts";

/**
 * The Worker's view of a team's SlackEventGate (src/objects/): event dedup, the 60 s lookup
 * cache and App Home hashes. Values cross the RPC boundary as JSON text.
 */
export type EventGate = {
  firstTime(eventId: string): Promise<boolean>;
  forget(eventId: string): Promise<void>;
  /** `load`'s result for `key`, shared by every isolate for 60 s (null included). */
  cached<T>(key: string, load: () => Promise<T | null>): Promise<T | null>;
  homeUnchanged(userId: string, hash: string): Promise<boolean>;
  homePublished(userId: string, hash: string): Promise<void>;
};

export type EventGateNamespace = DurableObjectNamespace<SlackEventGate>;

/** Each call to the object is a subrequest of the invocation: it draws from `budget` when given. */
export function eventGate(
  namespace: EventGateNamespace,
  teamId: string,
  budget?: SubrequestBudget,
): EventGate {
  const raw = namespace.get(namespace.idFromName(`team:${teamId}`));
  const stub = () => {
    budget?.take("the event gate");
    return raw;
  };
  return {
    firstTime: (eventId) => stub().firstTime(eventId),
    forget: (eventId) => stub().forget(eventId),
    async cached<T>(key: string, load: () => Promise<T | null>) {
      const text = await stub().cached(key, async () => {
        const value = await load();
        return value === null ? null : JSON.stringify(value);
      });
      return text === null ? null : (JSON.parse(text) as T);
    },
    homeUnchanged: (userId, hash) => stub().homeUnchanged(userId, hash),
    homePublished: (userId, hash) => stub().homePublished(userId, hash),
  };
}

/**
 * Without the binding (a misconfigured deploy) events still work, per isolate only: retries
 * that land elsewhere may be handled twice, and nothing is cached across isolates.
 */
export function isolateGate(): EventGate {
  const seen = new Set<string>();
  const homes = new Map<string, string>();
  return {
    async firstTime(eventId) {
      if (seen.has(eventId)) return false;
      seen.add(eventId);
      return true;
    },
    async forget(eventId) {
      seen.delete(eventId);
    },
    cached: (_key, load) => load(),
    async homeUnchanged(userId, hash) {
      return homes.get(userId) === hash;
    },
    async homePublished(userId, hash) {
      homes.set(userId, hash);
    },
  };
}
