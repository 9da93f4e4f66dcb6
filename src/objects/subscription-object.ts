import { DurableObject } from "cloudflare:workers";
import type { Config, Env } from "../config.ts";
import { applyTriage } from "../engine/apply-triage.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import type { PollMode } from "../engine/poll-context.ts";
import type { HeldFailure } from "../engine/poll-outcome.ts";
import { pollSubscription } from "../engine/poll-subscription.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { resolveTestOptions, type Subscription, type TestOptions } from "../model/subscription.ts";
import type { TriageAction, TriageOutcome } from "../model/triage-state.ts";
import { SubscriptionStore } from "../store/subscription-store.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { copyKey, objectNames, registry } from "./addresses.ts";
import type { PollSummary } from "./registry-object.ts";

/**
 * How long a held failure waits for the second pass of its own cycle: longer than a cycle's
 * two passes, short enough that a cycle that died in between delays it only that long.
 */
const RESERVE_MS = 60_000;

/** Posts begun (`intent`) and finished (`done`) since the state was last stored. */
type Journal = { intent: string | null; done: string[] };

export type PollReport = PollSummary & {
  posts: number;
  error: string | null;
  workspaceFailure: string | null;
  /** Storage writes of this poll (the object's own, and the KV copy), to keep idle polls at zero. */
  writes: { storage: number; kv: number };
  held: HeldFailure | null;
};

/**
 * One watched item of one channel, and the only writer of its alert state. Polls, triage
 * buttons and `/decipher` changes run here one at a time: an object interleaves requests
 * while it awaits a `fetch`, so an in-memory queue (not the input gate) is what serializes
 * them. A poll that finds another still running (a post hanging past the next cron) is
 * skipped, never run beside it.
 */
export class SubscriptionObject extends DurableObject<Env> {
  #tail: Promise<unknown> = Promise.resolve();
  #polling = false;
  #writes = { storage: 0, kv: 0 };
  /** The cycle whose outage check holds a failure of this subscription (in memory only). */
  #reservedFor: { at: string; until: number } | null = null;

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work, work);
    this.#tail = run.catch(() => {});
    return run;
  }

  #read(): Promise<Subscription | undefined> {
    return this.ctx.storage.get<Subscription>("sub");
  }

  /** Stores the state and its readable copy in KV; the copy is written only when it changed. */
  async #store(before: Subscription | undefined, after: Subscription): Promise<void> {
    await this.ctx.storage.put({ sub: after, journal: { intent: null, done: [] } satisfies Journal });
    this.#writes.storage++;
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await new SubscriptionStore(this.env.STATE).update(after);
      this.#writes.kv++;
    }
  }

  /** Subscribes: keeps a live subscription (updating its options), or installs the fresh baseline. */
  install(
    ref: SubscriptionRef,
    fresh: Subscription,
  ): Promise<{ subscription: Subscription; created: boolean }> {
    return this.#serial(async () => {
      const existing = await this.#read();
      // Paused or muted: subscribing again starts over from the fresh baseline.
      if (existing && !existing.paused && !existing.muted) {
        if (
          existing.kind === "collection" &&
          fresh.kind === "collection" &&
          existing.growth !== fresh.growth
        ) {
          const updated = { ...existing, growth: fresh.growth, lastChangeAt: fresh.createdAt };
          await this.#store(existing, updated);
          return { subscription: updated as Subscription, created: false };
        }
        if (
          existing.kind === "test" &&
          fresh.kind === "test" &&
          !sameOptions(existing.options, fresh.options)
        ) {
          // New options apply from here on; the watermark and the open thread stay.
          const updated = { ...existing, options: fresh.options, lastChangeAt: fresh.createdAt };
          await this.#store(existing, updated);
          return { subscription: updated, created: false };
        }
        return { subscription: existing, created: false };
      }
      const sub = { ...fresh, teamId: ref.teamId };
      await this.#store(existing, sub);
      await registry(this.env).add({ name: objectNames.subscription(ref), ref });
      return { subscription: sub, created: true };
    });
  }

  /** Unsubscribes: waits for a running poll, so nothing it posts is written back afterwards. */
  remove(ref: SubscriptionRef): Promise<boolean> {
    return this.#serial(async () => {
      const existing = await this.#read();
      await this.ctx.storage.deleteAll();
      await this.env.STATE.delete(copyKey(ref));
      await registry(this.env).remove(objectNames.subscription(ref));
      return existing !== undefined;
    });
  }

  read(): Promise<Subscription | null> {
    return this.#read().then((sub) => sub ?? null);
  }

  triage(_ref: SubscriptionRef, action: TriageAction, at: string, config: Config): Promise<TriageOutcome> {
    return this.#serial(async () => {
      const sub = await this.#read();
      if (!sub) {
        return {
          ok: false,
          reason: "gone",
          note: "This alert's subscription no longer exists in this channel.",
        };
      }
      const deps = this.#deps(config, new Date(at));
      const result = await applyTriage(sub, action, deps, new Date(at));
      if (result.next) await this.#store(sub, result.next);
      return result.outcome;
    });
  }

  /**
   * Configuration comes from the caller, checked there: the cron and the handlers read it
   * from their own bindings, and one workspace's token is what a poll of its items must use.
   */
  #deps(config: Config, now: Date, budget = new SubrequestBudget(SUBREQUESTS_PER_INVOCATION)) {
    return createEngineDeps(config, this.env, { now: () => now, budget });
  }

  async poll(name: string, at: string, config: Config, mode: PollMode = {}): Promise<PollReport> {
    const idle = (status: PollSummary["status"]) => quietReport(name, at, status);
    if (this.#polling) return idle("busy");
    // A failure held for another cycle's outage check is that cycle's to settle: a second
    // cycle deciding on its own could announce it alone and in an outage message too.
    const reserved = this.#reservedFor;
    if (reserved && reserved.at !== at && Date.now() < reserved.until) return idle("busy");
    this.#polling = true;
    try {
      return await this.#serial(async () => {
        const sub = await this.#read();
        if (!sub) return idle("gone");
        // Muted: kept for status and Home, never polled, so nothing is posted.
        if (sub.muted) return idle("waiting");
        const now = new Date(at);
        this.#writes = { storage: 0, kv: 0 };
        const journal = (await this.ctx.storage.get<Journal>("journal")) ?? { intent: null, done: [] };
        const result = await pollSubscription(sub, journal, {
          deps: this.#deps(config, now),
          now,
          mode,
          journal: {
            intend: async (what) => {
              journal.intent = what;
              await this.ctx.storage.put("journal", journal);
              this.#writes.storage++;
            },
            done: async (what) => {
              journal.intent = null;
              journal.done.push(what);
              await this.ctx.storage.put("journal", journal);
              this.#writes.storage++;
            },
            cancel: async () => {
              journal.intent = null;
              await this.ctx.storage.put("journal", journal);
              this.#writes.storage++;
            },
          },
        });
        if (result.next) await this.#store(sub, result.next);
        else if (journal.done.length > 0) await this.ctx.storage.put("journal", { intent: null, done: [] });
        const after = result.next ?? sub;
        this.#reservedFor = result.held ? { at, until: Date.now() + RESERVE_MS } : null;
        return {
          name,
          status: after.paused
            ? "paused"
            : result.skipped
              ? "waiting"
              : after.failingSince
                ? "failing"
                : "ok",
          at,
          failingSince: after.failingSince ?? null,
          posts: result.posts,
          error: result.error,
          workspaceFailure: result.workspaceFailure,
          writes: { ...this.#writes },
          held: result.held,
        };
      });
    } finally {
      this.#polling = false;
    }
  }
}

/** Options compared with their defaults filled in, so "none given" equals the defaults. */
export function sameOptions(a: TestOptions | undefined, b: TestOptions | undefined): boolean {
  return JSON.stringify(resolveTestOptions(a)) === JSON.stringify(resolveTestOptions(b));
}

/** A poll that did nothing (busy, gone, or never reached the object): no posts, no writes. */
export function quietReport(
  name: string,
  at: string,
  status: PollSummary["status"],
  error: string | null = null,
): PollReport {
  return {
    name,
    status,
    at,
    failingSince: null,
    posts: 0,
    error,
    workspaceFailure: null,
    writes: { storage: 0, kv: 0 },
    held: null,
  };
}
