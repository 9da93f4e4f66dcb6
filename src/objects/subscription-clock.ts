import type { Config } from "../config.ts";
import type { Pace } from "../model/plan-governor.ts";
import { describeError } from "../util/describe-error.ts";
import type { ChannelObject } from "./channel-object.ts";
import { armBy } from "./object-clock.ts";

/**
 * A subscription object's side of its channel's clock (src/objects/channel-clock.ts): the
 * channel polls every subscription of the channel at the idle pace, so this object's own alarm
 * is set only for a poll sooner than that (a run running). Polled by anything else (its own
 * alarm, subscribing), it makes sure its channel's clock runs, once per instance, and at each
 * wake of the watchdog, which wakes it because its polls stopped.
 */
export class SubscriptionClock {
  readonly #storage: DurableObjectStorage;
  #kept = false;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  async arm(
    channel: DurableObjectStub<ChannelObject>,
    next: number,
    pace: Pace,
    config: Config,
    by: { byChannel?: boolean; renew?: boolean },
  ): Promise<void> {
    if (next - Date.now() < pace.idleMs) await armBy(this.#storage, next);
    if (by.byChannel || (this.#kept && !by.renew)) return;
    await channel
      .keepClock(pace.idleMs, config)
      .then(() => {
        this.#kept = true;
      })
      .catch((error: unknown) => console.error(`channel clock: ${describeError(error)}`));
  }
}
