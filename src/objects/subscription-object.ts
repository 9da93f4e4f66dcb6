import { DurableObject } from "cloudflare:workers";
import type { Config, Env } from "../config.ts";
import { applyTriage } from "../engine/apply-triage.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import type { LastRun } from "../engine/guarding-tests.ts";
import type { LedgerDigestLine } from "../engine/ledger-digest.ts";
import type { PollMode } from "../engine/poll-context.ts";
import { pollSubscription } from "../engine/poll-subscription.ts";
import { POLL_KIND, specOf } from "../kinds/kinds.ts";
import { refOf, type SubscriptionRef } from "../model/alert-control.ts";
import { indexCopy, indexKey } from "../model/channel-index.ts";
import { factsOf, subscriptionId } from "../model/kind-facts.ts";
import { pausedBySlack, resumed } from "../model/pause.ts";
import type { PeriodRuns } from "../model/period-runs.ts";
import { FULL_SPEED, samePace } from "../model/plan-governor.ts";
import { LEASE_MS, nextPollAt, POLL_SOON_MS } from "../model/poll-clock.ts";
import type { PollReport, PollSummary } from "../model/poll-result.ts";
import { overdueCount } from "../model/run-ledger.ts";
import { type Subscription, storedSubscription, teamOf } from "../model/subscription.ts";
import type { TriageAction, TriageOutcome } from "../model/triage-state.ts";
import { describeError } from "../util/describe-error.ts";
import { SerialQueue } from "../util/serial-queue.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { channelObject, copyKey, objectNames, registry, subscriptionObject } from "./addresses.ts";
import {
  digestLineOf,
  lastRunOf,
  periodRunsOf,
  runningSince,
  withStateUnderOptions,
} from "./ledger-reads.ts";
import { armBy, configOrNull } from "./object-clock.ts";
import { ObjectPace } from "./object-pace.ts";
import { OwedRecoveries } from "./owed-recoveries.ts";
import { OwedWrite } from "./owed-write.ts";
import { pollReportOf, quietReport, withOverdue } from "./poll-report.ts";
import { RegistryLease } from "./registry-lease.ts";
import { SqlOutbox } from "./sql-outbox.ts";
import { SqlRunLedger } from "./sql-run-ledger.ts";
import { SubscriptionClock } from "./subscription-clock.ts";
import { SubscriptionCopy } from "./subscription-copy.ts";
import { subscriptionOutbox } from "./subscription-outbox.ts";
import { teamConfig } from "./tenancy.ts";

/** A poll asks the spec of the subscription's own kind (src/kinds/). */

const NOT_CONNECTED_NOTE =
  "This workspace has no Decipher organization connected any more; connect it in the app's Home tab.";

/** Unknown post outcomes looked up per poll beyond those a decision asks for again (history is rate-limited). */
const SWEEP_PER_POLL = 1;

/**
 * One watched item of one channel, and the only writer of its alert state. Polls, triage
 * buttons and `/decipher` changes run here one at a time: an object interleaves requests
 * while it awaits a `fetch`, so an in-memory queue (not the input gate) is what serializes
 * them. A poll that finds another still running (a post hanging past the next cron) is
 * skipped, never run beside it.
 */
export class SubscriptionObject extends DurableObject<Env> {
  readonly #queue = new SerialQueue();
  #polling = false;
  #writes = { storage: 0, kv: 0 };
  readonly #indexWrite: OwedWrite;
  /**
   * The configuration of the Worker that called last: the same bindings as this object's own in
   * a deployment, and a test's own workspace when a test drives the object. The alarm uses it,
   * or this object's bindings after a restart.
   */
  #config: Config | null = null;
  readonly #lease: RegistryLease;
  /** A channel's outage window asked this object to poll now, and waits for its answer. */
  #asked = false;
  /** Recoveries its channel could not show yet, kept in storage too. */
  readonly #recoveries: OwedRecoveries;
  readonly #copy: SubscriptionCopy;
  /** The clock's pace (src/objects/object-pace.ts). */
  #pace: ObjectPace;
  readonly #clockSide: SubscriptionClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#recoveries = new OwedRecoveries(ctx.storage);
    this.#indexWrite = new OwedWrite(ctx.storage, "index-owed", "channel index row");
    this.#copy = new SubscriptionCopy(ctx.storage, env);
    this.#pace = new ObjectPace(ctx.storage);
    this.#lease = new RegistryLease(ctx.storage, () => this.env);
    this.#clockSide = new SubscriptionClock(ctx.storage);
    SqlRunLedger.migrate(ctx.storage.sql);
    SqlOutbox.migrate(ctx.storage.sql);
    void ctx.blockConcurrencyWhile(async () => {
      await this.#indexWrite.load();
      await this.#recoveries.load();
      await this.#copy.load();
    });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.run(work);
  }

  async #read(): Promise<Subscription | undefined> {
    const stored = await this.ctx.storage.get<Subscription>("sub");
    return stored && storedSubscription(stored);
  }

  /** Stores the state, and its row in the channel's index when what the index shows changed. */
  async #store(before: Subscription | undefined, after: Subscription): Promise<void> {
    await this.ctx.storage.put("sub", after);
    this.#writes.storage++;
    if (!before || JSON.stringify(indexCopy(before)) !== JSON.stringify(indexCopy(after)))
      await this.#index(after);
  }

  /** A person subscribed or changed the options: the KV copy too (src/objects/subscription-copy.ts). */
  async #subscribed(before: Subscription | undefined, after: Subscription): Promise<void> {
    await this.#store(before, after);
    await this.#copy.write(after, this.#writes);
  }

  #channel = (sub: { teamId?: string; channelId: string }) =>
    channelObject(this.env, objectNames.channel(teamOf(sub), sub.channelId));

  #index(sub: Subscription): Promise<void> {
    return this.#indexWrite.attempt(() =>
      this.#channel(sub).indexSubscription(indexCopy(sub), new Date().toISOString()),
    );
  }

  /** Subscribes: keeps a live subscription (updating its options), or installs the fresh baseline. */
  install(
    ref: SubscriptionRef,
    fresh: Subscription,
    config?: Config,
  ): Promise<{ subscription: Subscription; created: boolean }> {
    if (config) this.#config = config;
    return this.#serial(async () => {
      const existing = await this.#read();
      // Paused by Slack's refusal: resumed at once, its counts kept (its clock never stopped).
      // Paused for a 404, or muted: it starts over from the fresh baseline.
      const live = existing && pausedBySlack(existing) ? resumed(existing, new Date()) : existing;
      if (existing && live && !live.paused && !live.muted) {
        const changed = live.kind === fresh.kind ? specOf(live).resubscribed(live, fresh) : null;
        const kept = changed ? withStateUnderOptions(this.ctx.storage.sql, changed, new Date(), live) : live;
        if (kept !== existing) await this.#subscribed(existing, kept);
        return { subscription: kept, created: false };
      }
      const { baselineRuns, ...rest } = fresh as Subscription & { baselineRuns?: unknown };
      let sub = { ...rest, teamId: ref.teamId } as Subscription;
      // A fresh subscription starts a fresh ledger: what happened before it is baseline. (An
      // unsubscribe's deleteAll drops the tables, so they are made again first.)
      SqlRunLedger.migrate(this.ctx.storage.sql);
      SqlOutbox.migrate(this.ctx.storage.sql);
      SqlRunLedger.clear(this.ctx.storage.sql);
      this.ctx.storage.sql.exec("DELETE FROM outbox");
      const first = specOf(sub).firstLedger(fresh, sub);
      if (first) {
        new SqlRunLedger(this.ctx.storage.sql, this.#writes).save(first.rows);
        sub = first.sub;
      }
      await this.#subscribed(existing, sub);
      // The lease starts now: if the first alarm never runs, the next watchdog cron polls it.
      await registry(this.env, ref.teamId).add(
        { name: objectNames.subscription(ref), ref },
        Date.now() + LEASE_MS,
      );
      this.#lease.forget();
      this.#clockSide.forget();
      if (this.#clock() === "alarms") await this.ctx.storage.setAlarm(Date.now() + POLL_SOON_MS);
      return { subscription: sub, created: true };
    });
  }

  /** Unsubscribes: waits for a running poll, so nothing it posts is written back afterwards. */
  remove(ref: SubscriptionRef): Promise<boolean> {
    return this.#serial(async () => {
      const existing = await this.#read();
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.#pace = new ObjectPace(this.ctx.storage);
      this.#indexWrite.forget();
      await this.env.STATE.delete(copyKey(this.env, ref));
      // A row left behind (its channel's object unreachable just now) goes with the next
      // unsubscribe of the same id, which reaches here even when nothing else is left.
      await this.#channel(ref)
        .unindexSubscription(indexKey(ref.kind, ref.id))
        .catch((error: unknown) => console.warn(`channel index row not removed: ${describeError(error)}`));
      await registry(this.env, ref.teamId).remove(objectNames.subscription(ref));
      return existing !== undefined;
    });
  }

  #clock(): Config["clock"] {
    return this.#config?.clock ?? (this.env.POLL_CLOCK === "cron" ? "cron" : "alarms");
  }

  /**
   * The object's own clock (src/model/poll-clock.ts). An alarm that throws is retried by the
   * platform: a retry is a poll like any other, and the ledger and outbox make a second poll
   * after a post find the post (never send it again).
   */
  override async alarm(): Promise<void> {
    const config = configOrNull(this.#config, this.env, "subscription alarm");
    if (config) await this.wake(new Date().toISOString(), config);
    else await this.ctx.storage.setAlarm(Date.now() + LEASE_MS);
  }

  /**
   * A channel's other test found a new failure: poll within a second, by the alarm at full speed;
   * slowed, beside it after answering (moving it and setting it again cost 2 rows, #35).
   */
  async pollSoon(): Promise<void> {
    const what = "subscription poll asked by its channel";
    const config = configOrNull(this.#config, this.env, what);
    if (this.#clock() !== "alarms" || !config || !(await this.#read())) return;
    this.#asked = true;
    if (samePace(await this.#pace.current(), FULL_SPEED))
      return armBy(this.ctx.storage, Date.now() + POLL_SOON_MS);
    this.#pollBeside(config, what);
  }

  /** A poll after the caller has its answer (`ctx.waitUntil` keeps the object alive for it). */
  #pollBeside(config: Config, what: string, options: { byClock?: boolean } = {}): void {
    const poll = this.wake(new Date().toISOString(), config, options);
    this.ctx.waitUntil(poll.catch((error: unknown) => console.error(`${what}: ${describeError(error)}`)));
  }

  /**
   * One tick of the clock, from this object's alarm or from the watchdog cron: a poll that holds
   * a new failure for the channel's outage window, the next alarm, and a report to the registry
   * only when something changed or the lease is due.
   */
  async wake(
    at: string,
    config: Config,
    options: { renew?: boolean; name?: string; byClock?: boolean } = {},
  ): Promise<PollReport> {
    this.#config = config;
    const sub = await this.#read();
    const name = options.name ?? (sub ? objectNames.subscription(refOf(sub)) : "");
    if (!sub) {
      await this.ctx.storage.deleteAlarm();
      return quietReport(name, at, "gone");
    }
    const now = Date.parse(at);
    const asked = this.#asked;
    this.#asked = false;
    let report = await this.poll(name, at, config, { hold: true });
    const channel = channelObject(this.env, objectNames.channel(teamOf(sub), sub.channelId));
    // Read, and nothing to add to the window that asked: it need not wait for this test any
    // longer. A poll that could not read Decipher leaves the window to its full length.
    if (asked && !report.held && !report.error && report.status !== "busy")
      await channel.polled(name).catch(() => {});
    if (report.held && specOf(sub).joinsOutages) {
      const told = await channel
        .hold(sub.channelId, name, report.held, at, config, options.byClock === true)
        .catch((error: unknown) => {
          console.error(`hold of ${name}: ${describeError(error)}`);
          return null;
        });
      // Decided earlier (a retry, or a decision this object missed): told now, as decided.
      if (told) {
        const again = await this.poll(name, at, config, told);
        report = { ...again, posts: again.posts + report.posts, held: again.held };
      }
    }
    const alarms = this.#clock() === "alarms";
    const after = await this.#read();
    // Paused by Slack's refusal of the channel, the clock goes on: it counts and tries hourly.
    const pace = await this.#pace.current();
    const next = nextPollAt(name, Date.now(), runningSince(this.ctx.storage.sql, now), pace);
    if (alarms && after && (!after.paused || pausedBySlack(after)))
      await this.#clockSide.arm(registry(this.env, refOf(after).teamId), next, pace, config, options);
    if (alarms && report.status !== "busy") {
      // A lease that would end before the next poll (the governor just slowed the clock) is
      // renewed now: the watchdog cron would take the clock for stopped and wake it.
      const due = this.#lease.renewDue(name, now, next, pace);
      await this.#lease.report(refOf(sub).teamId, report, this.#pace, config, options.renew || due);
    }
    return report;
  }

  /**
   * A tick of its team's clock (src/objects/team-clock.ts): a poll beside the answer, which is
   * this object's idle pace. Paused for good (the item is gone at Decipher), it is not polled,
   * and answers null, as a gone one does: the clock has nothing to do here.
   */
  async tick(config: Config): Promise<number | null> {
    this.#config = config;
    const sub = await this.#read();
    if (!sub || (sub.paused && !pausedBySlack(sub))) return null;
    this.#pollBeside(config, "tick", { byClock: true });
    return (await this.#pace.current()).idleMs;
  }

  read(): Promise<Subscription | null> {
    return this.#read().then((sub) => sub ?? null);
  }

  triage(_ref: SubscriptionRef, action: TriageAction, at: string, config: Config): Promise<TriageOutcome> {
    this.#config = config;
    return this.#serial(async () => {
      const sub = await this.#read();
      if (!sub) {
        return {
          ok: false,
          reason: "gone",
          note: "This alert's subscription no longer exists in this channel.",
        };
      }
      const team = await teamConfig(this.env, config, sub.teamId);
      if (!team) return { ok: false, reason: "gone", note: NOT_CONNECTED_NOTE };
      const deps = this.#deps(team, new Date(at));
      const result = await applyTriage(sub, action, deps, new Date(at), specOf(sub).triage);
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

  #outbox(sub: Subscription, deps: ReturnType<typeof createEngineDeps>, now: Date): SqlOutbox {
    return subscriptionOutbox(this.ctx.storage.sql, this.env, sub, deps, now, this.#writes);
  }

  /** Slack says one of this subscription's posts landed at `ts` (src/handlers/events/post-landed.ts). */
  posted(
    landed: { key: string; ts: string; textOnly: boolean },
    at: string,
    config: Config,
  ): Promise<string> {
    return this.#serial(async () => {
      const sub = await this.#read();
      const team = sub && (await teamConfig(this.env, config, sub.teamId));
      if (!sub || !team) return "ignored";
      const outbox = this.#outbox(sub, this.#deps(team, new Date(at)), new Date(at));
      return outbox.posted(landed.key, landed.ts, landed.textOnly);
    });
  }

  async poll(name: string, at: string, config: Config, mode: PollMode = {}): Promise<PollReport> {
    const idle = (status: PollSummary["status"]) => quietReport(name, at, status);
    if (this.#polling) return idle("busy");
    this.#polling = true;
    try {
      return await this.#serial(async () => {
        const sub = await this.#read();
        if (!sub) return idle("gone");
        if (this.#indexWrite.owed) await this.#index(sub);
        // Multi-workspace mode: the team's own token and key, or no poll (uninstalled, no key).
        const team = await teamConfig(this.env, config, sub.teamId);
        if (!team) return idle("waiting");
        // A muted collection is not polled (its growth is measured again from unmute), but a
        // second copy of its alert is still deleted; a muted test is, so its ledger counts every
        // failure (as muted) and status and the digest show them.
        if (sub.muted && !factsOf(sub).pollsWhileMuted) {
          const now = new Date(at);
          await this.#outbox(sub, this.#deps(team, now), now).removeStrays(SWEEP_PER_POLL);
          return idle("waiting");
        }
        config = team;
        return this.#pollNow(sub, name, at, config, mode);
      });
    } finally {
      this.#polling = false;
    }
  }

  /** One poll, in the object's queue, of a subscription its team can be polled for. */
  async #pollNow(
    sub: Subscription,
    name: string,
    at: string,
    config: Config,
    mode: PollMode,
  ): Promise<PollReport> {
    const now = new Date(at);
    this.#writes = { storage: 0, kv: 0 };
    const deps = this.#deps(config, now);
    const sql = this.ctx.storage.sql;
    const outbox = this.#outbox(sub, deps, now);
    const ledger = new SqlRunLedger(sql, this.#writes, (state) => this.ctx.storage.put("sub", state));
    const result = await pollSubscription(
      sub,
      {
        deps,
        now,
        budget: deps.budget,
        mode,
        outbox,
        ledger,
        // The channel's decision is the held failure's to follow, whichever poll held it last.
        cycle: (mode.told && specOf(sub).heldCycle(sub)) || at,
        ...(specOf(sub).joinsOutages ? { claim: (runId: number) => this.#channel(sub).claim(runId) } : {}),
        channelSubscriptions: () => this.#channel(sub).channelSubscriptions(sub.channelId, at),
        readLastRun: (testId) =>
          subscriptionObject(this.env, { ...refOf(sub), kind: "test", id: testId }).lastRun(),
      },
      POLL_KIND,
    );
    // Overdue is read from the ledger whatever the poll did: a failed read, a backoff or a
    // pause must not leave the count as the last successful poll saw it.
    const next = withOverdue(sub, result.next, overdueCount(ledger.recent(now, 0), now), at);
    // Stored before the calls below, which may hang: the state must not wait on them.
    if (next) await this.#store(sub, next);
    if (this.#copy.owed) await this.#copy.write(next ?? sub, this.#writes);
    // An outage message this test recovered from is re-rendered by its channel.
    if (specOf(sub).joinsOutages) {
      const channel = this.#channel(sub);
      const shown = (r: { ts: string; at: string }) =>
        channel.noteRecovery(sub.channelId, r.ts, subscriptionId(sub), r.at, config).catch(() => false);
      if (await this.#recoveries.tell(result.outageRecoveries ?? [], at, shown)) this.#writes.storage++;
    }
    // Lost answers no decision asked about again are settled here, a few per poll.
    if (outbox.owesLookups() && deps.budget.has(1)) await outbox.sweep(SWEEP_PER_POLL);
    if (this.#writes.storage > 0) {
      ledger.prune(now);
      outbox.prune();
    }
    return pollReportOf(name, at, next ?? sub, result, this.#writes);
  }

  /** This test's digest line from its ledger (null for a collection, or a subscription that is gone). */
  async digestLine(at: string, config?: Config, everyTest = false): Promise<LedgerDigestLine | null> {
    const sub = await this.#read();
    const team = config && sub ? await teamConfig(this.env, config, sub.teamId) : null;
    const vendor = team && this.#deps(team, new Date(at)).vendor;
    return digestLineOf(this.ctx.storage.sql, sub, new Date(at), vendor, everyTest);
  }

  /** This test's runs between two times, for "what failed today?" (null for a collection, or one that is gone). */
  async periodRuns(since: string, until: string): Promise<PeriodRuns | null> {
    return periodRunsOf(this.ctx.storage.sql, await this.#read(), new Date(since), new Date(until));
  }

  /**
   * This test's newest settled run (of its `trigger:`) as its ledger holds it now: what a
   * collection alert of the same channel says of it. Null for a collection or a subscription
   * that is gone; `runId` 0 when no run has settled yet.
   */
  async lastRun(): Promise<LastRun | null> {
    return lastRunOf(this.ctx.storage.sql, await this.#read());
  }
}
