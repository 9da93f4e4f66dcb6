import type { Env } from "../config.ts";
import type { Subscription } from "../model/subscription.ts";
import { SubscriptionStore } from "../store/subscription-store.ts";
import { kvScopeOf } from "./addresses.ts";
import { OwedWrite } from "./owed-write.ts";

/**
 * A subscription's copy in KV, as subscribed (src/store/subscription-store.ts): its object
 * writes it when a person subscribes or changes the options, never at a poll, so KV's 1,000
 * writes a day on the Free plan count subscribes, not runs; the live state is read from the
 * channel's index. A refused write is owed (src/objects/owed-write.ts) and made at the next poll.
 */
export class SubscriptionCopy {
  readonly #owed: OwedWrite;
  readonly #env: Env;

  constructor(storage: DurableObjectStorage, env: Env) {
    this.#owed = new OwedWrite(storage, "copy-owed", "KV copy");
    this.#env = env;
  }

  load(): Promise<void> {
    return this.#owed.load();
  }

  get owed(): boolean {
    return this.#owed.owed;
  }

  /** `writes` counts it, for the poll's report. */
  write(sub: Subscription, writes: { kv: number }): Promise<void> {
    return this.#owed.attempt(async () => {
      await new SubscriptionStore(this.#env.STATE, kvScopeOf(this.#env, sub.teamId)).update(sub);
      writes.kv++;
    });
  }
}
