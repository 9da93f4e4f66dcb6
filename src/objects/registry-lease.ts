import type { Config, Env } from "../config.ts";
import { leaseAt, type Pace } from "../model/plan-governor.ts";
import { leaseRenewDue } from "../model/poll-clock.ts";
import type { PollReport } from "../model/poll-result.ts";
import { describeError } from "../util/describe-error.ts";
import { registry } from "./addresses.ts";
import type { ObjectPace } from "./object-pace.ts";

/** What the registry last heard from this object (status, failing since, overdue). */
const REPORTED = "reported";

/**
 * A subscription object's side of the registry's watchdog lease and health figures: it reports
 * a poll only when what the registry shows changed, or the lease is due for renewal.
 *
 * Nothing here may depend on the object staying in memory: polled hourly, an object is evicted
 * between any two polls. What was reported is kept in storage (written only when it changes,
 * forgotten when a report is not heard, so the next poll reports again);
 * the time of the previous poll, when not in memory, is one interval of the clock ago, so
 * renewals still come once per renewal period, not at every poll of a fresh instance.
 */
export class RegistryLease {
  readonly #storage: DurableObjectStorage;
  /** Read at each call: a harness that counts calls (bench/day) swaps the object's `env`. */
  readonly #env: () => Env;
  #reported: string | null | undefined;
  #lastPollAt: number | null = null;
  /** The lease last given (unknown after eviction: the renewal period decides alone then). */
  #until = Number.POSITIVE_INFINITY;

  constructor(storage: DurableObjectStorage, env: () => Env) {
    this.#storage = storage;
    this.#env = env;
  }

  /** A fresh subscription: its first poll reports whatever it finds. */
  forget(): void {
    this.#reported = null;
    this.#until = Number.POSITIVE_INFINITY;
  }

  /** Whether this poll at `now` must renew the lease (the next poll being at `next`). */
  renewDue(name: string, now: number, next: number, pace: Pace): boolean {
    const since = this.#lastPollAt === null ? pace.idleMs : now - this.#lastPollAt;
    this.#lastPollAt = now;
    return leaseRenewDue(name, now, since, pace.renewMs) || this.#until <= next;
  }

  /**
   * Tells the registry shard how the poll went when it changed or `renew`, with a lease at the
   * current pace; its answer (the deployment's size) sets the pace of the polls after.
   */
  async report(
    teamId: string,
    report: PollReport,
    pace: ObjectPace,
    config: Config,
    renew: boolean,
  ): Promise<void> {
    const state = JSON.stringify([report.status, report.erroringSince, report.overdue]);
    if (this.#reported === undefined) this.#reported = (await this.#storage.get<string>(REPORTED)) ?? null;
    if (!renew && state === this.#reported) return;
    const before = await pace.current();
    const until = Date.now() + leaseAt(before);
    const slowed = await registry(this.#env(), teamId)
      .report(report, until)
      .then(async (size) => {
        if (state !== this.#reported) await this.#storage.put(REPORTED, state);
        this.#reported = state;
        this.#until = until;
        await pace.note(config.plan, size);
        return (await pace.current()).idleMs > before.idleMs;
      })
      .catch(async (error: unknown) => {
        console.error(`report of ${report.name}: ${describeError(error)}`);
        // Not heard: the next poll reports whatever it finds, as a change would be, though its
        // instance is a fresh one that knows neither this failure nor the lease it left.
        if (this.#reported !== null) await this.#storage.delete(REPORTED);
        this.#reported = null;
        return false;
      });
    // The answer slowed the clock: the lease just given may end before the next poll, which an
    // object evicted meanwhile (its lease is in memory only) could not see then. Renewed now.
    if (slowed) await this.report(teamId, report, pace, config, true);
  }
}
