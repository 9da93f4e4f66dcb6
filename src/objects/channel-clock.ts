import type { Config, Env } from "../config.ts";
import { IDLE_POLL_MS, lastTickAt, nextTickAt } from "../model/poll-clock.ts";
import { describeError } from "../util/describe-error.ts";
import { mapLimit } from "../util/map-limit.ts";
import { subscriptionObjectByName } from "./addresses.ts";
import { armBy } from "./object-clock.ts";

/** The pace the channel's subscriptions last gave (src/model/plan-governor.ts): written when it changes. */
const PACE = "clock-pace";
/** Subscriptions asked at once: each answers at once and polls beside its answer. */
const CONCURRENCY = 8;

/**
 * A channel's clock (issue #35): one alarm for the channel polls each of its subscriptions at
 * the idle pace, instead of an alarm per subscription. Every `setAlarm` is a row written, so a
 * channel of 20 tests pays one row a tick, not 20. Each subscription's object stays the one
 * writer of its ledger and outbox, and still sets its own alarm for a poll sooner than the next
 * tick (a run running, a poll its channel asked for).
 *
 * The next tick is armed before any subscription is asked, so a tick that dies part way (an
 * object unreachable, the invocation ended) still has its successor; the subscriptions it did
 * not reach are polled then. A clock that stopped anyway (a channel object lost its alarm) is
 * started again by the first of its subscriptions polled by anything else: the watchdog cron
 * wakes them when their leases pass (src/objects/subscription-object.ts `#arm`).
 */
export class ChannelClock {
  readonly #storage: DurableObjectStorage;
  readonly #env: Env;
  readonly #name: string;
  #idleMs: number | undefined;
  /** When this instance last ticked: unknown after eviction, when the grid decides alone. */
  #lastTickAt: number | null = null;

  constructor(storage: DurableObjectStorage, env: Env, name: string) {
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

  /** One of the channel's subscriptions was polled by something else: the clock runs, at its pace. */
  async keep(idleMs: number): Promise<void> {
    await this.#notePace(idleMs);
    await armBy(this.#storage, nextTickAt(this.#name, Date.now(), idleMs));
  }

  /**
   * Whether the alarm running at `now` is a tick. Any alarm is, but one that closed an outage
   * window: its tests were all just asked to poll, so it ticks only when this instance knows a
   * tick was missed since (an evicted one does not, and the next tick comes on time).
   */
  #due(now: number, idleMs: number, closedWindow: boolean): boolean {
    if (!closedWindow) return true;
    return this.#lastTickAt !== null && this.#lastTickAt < lastTickAt(this.#name, now, idleMs);
  }

  /**
   * The channel's alarm: when a tick is due, each named subscription is asked to poll. With no
   * subscription left the clock stops (nothing is armed) until one is polled again.
   */
  async tick(config: Config, names: () => Promise<string[]>, closedWindow: boolean): Promise<void> {
    const now = Date.now();
    const idleMs = await this.#pace();
    const due = this.#due(now, idleMs, closedWindow);
    const polled = await names();
    if (polled.length === 0) return;
    await armBy(this.#storage, nextTickAt(this.#name, now, idleMs));
    if (!due) return;
    this.#lastTickAt = now;
    const paces = await mapLimit(polled, CONCURRENCY, (name) =>
      subscriptionObjectByName(this.#env, name)
        .tick(config)
        .catch((error: unknown) => {
          // Polled at the next tick; the watchdog wakes it if it stays unreachable past its lease.
          console.error(`tick of ${name}: ${describeError(error)}`);
          return null;
        }),
    );
    // The slowest answer: the one that heard from the registry last after the deployment grew
    // (each learns at its next report), and the one that keeps the plan's day.
    const known = paces.filter((p): p is number => typeof p === "number");
    if (known.length > 0 && Math.max(...known) !== idleMs) await this.keep(Math.max(...known));
  }
}
