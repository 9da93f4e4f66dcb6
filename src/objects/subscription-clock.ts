import type { Config } from "../config.ts";
import type { Pace } from "../model/plan-governor.ts";
import { describeError } from "../util/describe-error.ts";
import { armBy } from "./object-clock.ts";
import type { RegistryObject } from "./registry-object.ts";

/**
 * A subscription object's side of its team's clock (src/objects/team-clock.ts): the team's
 * registry shard polls every subscription of the team at the idle pace, so this object's own
 * alarm is set only for a poll sooner than that (a run running). Polled by anything else (its
 * own alarm, subscribing), it makes sure its team's clock runs, once per instance, and at each
 * wake of the watchdog, which wakes it because its polls stopped.
 */
export class SubscriptionClock {
  readonly #storage: DurableObjectStorage;
  #kept = false;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /**
   * A fresh subscription: its team's clock may have stopped while it was gone (the team had no
   * other subscription, or was uninstalled), so its next poll makes sure the clock runs.
   */
  forget(): void {
    this.#kept = false;
  }

  async arm(
    shard: DurableObjectStub<RegistryObject>,
    next: number,
    pace: Pace,
    config: Config,
    by: { byClock?: boolean; renew?: boolean },
  ): Promise<void> {
    if (next - Date.now() < pace.idleMs) await armBy(this.#storage, next);
    if (by.byClock || (this.#kept && !by.renew)) return;
    await shard
      .keepClock(pace.idleMs, config)
      .then(() => {
        this.#kept = true;
      })
      .catch((error: unknown) => console.error(`team clock: ${describeError(error)}`));
  }
}
