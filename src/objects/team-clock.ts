import type { Config, Env } from "../config.ts";
import { IDLE_POLL_MS, nextTickAt } from "../model/poll-clock.ts";
import { describeError } from "../util/describe-error.ts";
import { mapLimit } from "../util/map-limit.ts";
import { subscriptionObjectByName } from "./addresses.ts";
import { armBy } from "./object-clock.ts";

/** The pace the team's subscriptions last gave (src/model/plan-governor.ts): written when it changes. */
const PACE = "clock-pace";
/** Subscriptions asked at once: each answers at once and polls beside its answer. */
const CONCURRENCY = 8;
/**
 * Subscriptions one tick's invocation asks, inside the 1,000 calls an invocation may make to
 * Cloudflare's services (its own few reads and writes besides): a bigger team's tick goes on in
 * the next invocation, at once.
 */
export const TICK_CALLS_PER_INVOCATION = 800;

/**
 * A team's clock (issue #35), kept by the team's registry shard: one alarm polls each of the
 * team's subscriptions at the idle pace, instead of an alarm per subscription. Every
 * `setAlarm` is a row written and every alarm a request, so a team of 60 tests pays one row
 * and one request a tick for the clock, not 60. Each subscription's object stays the one
 * writer of its ledger and outbox, and still sets its own alarm for a poll sooner than the
 * next tick (a run running, a poll its channel asked for).
 *
 * The next tick is armed before any subscription is asked, so a tick that dies part way (an
 * object unreachable, the invocation ended) still has its successor, which asks them all
 * again. A clock that stopped anyway (a shard lost its alarm) is started again by the first of
 * its subscriptions polled by anything else: the watchdog cron wakes them when their leases
 * pass (src/objects/subscription-clock.ts).
 */
export class TeamClock {
  readonly #storage: DurableObjectStorage;
  /** Read at each call: a harness that counts calls (bench/day) swaps the object's `env`. */
  readonly #env: () => Env;
  readonly #name: string;
  #idleMs: number | undefined;
  /** Where a tick too big for one invocation goes on (memory: an evicted one starts over). */
  #from = 0;

  constructor(storage: DurableObjectStorage, env: () => Env, name: string) {
    this.#storage = storage;
    this.#env = env;
    this.#name = name;
  }

  async #pace(): Promise<number> {
    this.#idleMs ??= (await this.#storage.get<number>(PACE)) ?? IDLE_POLL_MS;
    return this.#idleMs;
  }

  async #notePace(idleMs: number): Promise<void> {
    if (idleMs === (await this.#pace())) return;
    this.#idleMs = idleMs;
    await this.#storage.put(PACE, idleMs);
  }

  /**
   * One of the team's subscriptions was polled by something else: the clock runs, at its pace.
   * A tick going on in parts has its next part armed for now, which the next tick would put off.
   */
  async keep(idleMs: number): Promise<void> {
    await this.#notePace(idleMs);
    if (this.#from > 0 && ((await this.#storage.getAlarm()) ?? Number.POSITIVE_INFINITY) <= Date.now())
      return;
    await armBy(this.#storage, nextTickAt(this.#name, Date.now(), idleMs));
  }

  /**
   * The shard's alarm: when a tick is due (any alarm is, but one that goes on with a tick too
   * big for one invocation), each named subscription is asked to poll. With no subscription left,
   * or none with anything to poll (each paused for good), the clock stops until one is polled again.
   */
  async tick(config: Config, names: () => string[]): Promise<void> {
    const now = Date.now();
    const idleMs = await this.#pace();
    const all = names();
    if (all.length === 0) return;
    const from = this.#from < all.length ? this.#from : 0;
    const polled = all.slice(from, from + TICK_CALLS_PER_INVOCATION);
    this.#from = from + polled.length;
    // The rest of a big team's tick goes on in the next invocation, at once.
    await armBy(this.#storage, this.#from < all.length ? now : nextTickAt(this.#name, now, idleMs));
    if (this.#from >= all.length) this.#from = 0;
    const paces = await mapLimit(polled, CONCURRENCY, (name) =>
      subscriptionObjectByName(this.#env(), name)
        .tick(config)
        .catch((error: unknown) => {
          // Polled at the next tick; the watchdog wakes it if it stays unreachable past its lease.
          console.error(`tick of ${name}: ${describeError(error)}`);
          return undefined;
        }),
    );
    // Nothing to poll in the whole team (each gone, or paused for good) and none subscribed
    // meanwhile: the clock stops, until a subscription is polled by something else again.
    const idle = polled.length === all.length && paces.every((p) => p === null);
    if (idle && names().every((n) => all.includes(n))) return this.#storage.deleteAlarm();
    // The slowest answer: the one that heard from the registry last after the deployment grew
    // (each learns at its next report), and the one that keeps the plan's day.
    const known = paces.filter((p): p is number => typeof p === "number");
    const slowest = Math.max(...known);
    if (known.length > 0 && slowest !== idleMs) await this.keep(slowest);
  }
}
