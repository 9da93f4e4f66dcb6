import { DurableObject } from "cloudflare:workers";
import type { Config, Env } from "../config.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import type { PollMode } from "../engine/poll-context.ts";
import { specOf } from "../kinds/kinds.ts";
import { channelIntroMessage } from "../kinds/messages.ts";
import type { ChannelIndex } from "../model/channel-index.ts";
import type { HeldFailure } from "../model/held-failure.ts";
import { subscriptionId } from "../model/kind-facts.ts";
import { type OutagePost, threadOf } from "../model/outage.ts";
import { OUTAGE_RETRY_MS, OUTAGE_WINDOW_MS } from "../model/poll-clock.ts";
import type { PollReport } from "../model/poll-result.ts";
import type { Subscription } from "../model/subscription.ts";
import { HISTORY_TIERS } from "../slack-api/find-posted.ts";
import type { DigestSchedule } from "../store/digest-store.ts";
import { SubscriptionStore, subscriptionKey } from "../store/subscription-store.ts";
import { describeError } from "../util/describe-error.ts";
import { mapLimit } from "../util/map-limit.ts";
import { SerialQueue } from "../util/serial-queue.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { kvScopeOf, objectNames, subscriptionObjectByName } from "./addresses.ts";
import { introduceOnce } from "./channel-intro.ts";
import { mayNameUnsettled, postOutage } from "./channel-outage.ts";
import {
  DIGEST,
  type ReportCall,
  type ReportSpec,
  sendDueReport,
  setDigest,
  storedDigest,
} from "./channel-reports.ts";
import { readWeekly, setWeekly, WEEKLY, type WeeklyWhen } from "./channel-weekly.ts";
import { DECIDED_KEEP_MS, type Decided, type Hold, modeOf, type Window } from "./channel-window.ts";
import { historyPace } from "./history-pace.ts";
import { configOrNull } from "./object-clock.ts";
import { noteOutageRecovery } from "./outage-recovery.ts";
import { SqlChannelIndex } from "./sql-channel-index.ts";
import { channelOutbox } from "./sql-outbox.ts";
import { teamConfig } from "./tenancy.ts";

/**
 * One channel, and the only writer of its digest schedule: a `/decipher digest` change and
 * a due digest never overwrite each other, and a digest is sent once however many crons
 * overlap. The schedule is mirrored to KV for `/decipher list`.
 */
export class ChannelObject extends DurableObject<Env> {
  readonly #queue = new SerialQueue();
  /** The last caller's configuration, for the window's alarm (see SubscriptionObject's). */
  #config: Config | null = null;
  /**
   * The tests asked to poll that answered with nothing to hold, in memory only: writing the
   * window for each answer cost a row written per test per failure (issue #35). An object
   * evicted meanwhile forgets them, and its window closes at its full length instead.
   */
  #answered = new Set<string>();

  #serial<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.run(work);
  }

  /** `/decipher digest HH:MM zone` (or off): due at the first such time after now, never at once. */
  setDigest(
    teamId: string,
    channelId: string,
    when: { time: string; zone: string } | null,
    at: string,
  ): Promise<DigestSchedule | null> {
    return this.#serial(() => setDigest(this.ctx.storage, this.env, { teamId, channelId }, when, at));
  }

  /** The held failures decided, one outage or alone (src/objects/channel-outage.ts), at the cycle's time. */
  async #decide(
    channelId: string,
    items: HeldFailure[],
    subscribed: number,
    config: Config,
    at: string | undefined,
  ): Promise<OutagePost> {
    // The cycle's time: the outage's hour and quiet period are measured on the clock that polled.
    const now = at ? new Date(at) : new Date();
    const team = await this.#teamConfig(config);
    if (!team) return { ts: null, named: [], waiting: [] };
    const { slack, outbox } = this.#outbox(team, channelId, now, SUBREQUESTS_PER_INVOCATION);
    const where = {
      storage: this.ctx.storage,
      slack,
      outbox,
      channelId,
      appUrl: team.decipherAppUrl,
      now,
    };
    return postOutage(where, items, subscribed);
  }

  /**
   * A test's new failure, held for this channel's outage window. Decided before (a retried
   * alarm, another cycle's poll): the test is told the decision at once. Otherwise the failure
   * waits in this object's storage; the first one opens the window (the alarm that closes it)
   * and asks the channel's other tests to poll now, unless it came from a tick of the team's
   * clock (`byClock`), which polls them now anyway (asking cost two requests a test, #35).
   */
  async hold(
    channelId: string,
    name: string,
    item: HeldFailure,
    at: string,
    config: Config,
    byClock = false,
  ): Promise<PollMode | null> {
    this.#config = config;
    const alarms = config.clock === "alarms";
    const teamId = name.split(":")[0] ?? "";
    const tests = alarms ? this.#tests(teamId, channelId) : [];
    // Alone in the channel, there is nobody to wait for.
    const polledNow = byClock && tests.some((n) => n !== name);
    const answer = await this.#serial(async (): Promise<{ told: PollMode } | { ask: string[] }> => {
      const decided = (await this.ctx.storage.get<Decided>("decided")) ?? {};
      const known = decided[String(item.runId)];
      if (known) return { told: modeOf(item.runId, known.ts, known.passedNext) };
      const stored = await this.ctx.storage.get<Window>("window");
      const open = stored && Object.keys(stored.holds).length > 0;
      if (!open) this.#answered = new Set();
      const window: Window = open
        ? stored
        : polledNow
          ? { channelId, teamId, holds: {}, waitingFor: [], byClock: true }
          : { channelId, teamId, holds: {}, waitingFor: tests.filter((n) => n !== name) };
      window.holds[String(item.runId)] = { name, item, at };
      window.waitingFor = (window.waitingFor ?? []).filter((n) => n !== name && !this.#answered.has(n));
      await this.ctx.storage.put("window", window);
      if (alarms) {
        // Everyone asked has answered: decided now, not at the end of the window.
        const answered = !window.byClock && window.waitingFor.length === 0;
        const closes = answered ? Date.now() : Date.now() + OUTAGE_WINDOW_MS;
        const current = await this.ctx.storage.getAlarm();
        if (!open || current === null || closes < current) await this.ctx.storage.setAlarm(closes);
      }
      return { ask: open ? [] : window.waitingFor };
    });
    if ("told" in answer) return answer.told;
    // The others poll now, so their failures of the same outage are in before the window closes.
    await mapLimit(answer.ask, 8, (n) =>
      subscriptionObjectByName(this.env, n)
        .pollSoon()
        .catch(() => {}),
    );
    return null;
  }

  /**
   * A test's failure is overdue and about to be told alone (src/engine/poll-context.ts `claim`):
   * the decision if there is one; "wait" while a message of this channel that may name it has
   * an unknown outcome (the parent, or a thread reply); otherwise it is decided alone here, so a
   * later outage message never names it too.
   */
  claim(runId: number): Promise<{ ts: string | null; passedNext?: boolean } | "wait"> {
    return this.#serial(async () => {
      const decided = (await this.ctx.storage.get<Decided>("decided")) ?? {};
      const known = decided[String(runId)];
      if (known) return { ts: known.ts, ...(known.passedNext ? { passedNext: true } : {}) };
      if (await mayNameUnsettled(this.ctx.storage, runId)) return "wait";
      decided[String(runId)] = { ts: null, at: new Date().toISOString() };
      const window = await this.ctx.storage.get<Window>("window");
      if (window?.holds[String(runId)]) {
        delete window.holds[String(runId)];
        await this.ctx.storage.put("window", window);
      }
      await this.ctx.storage.put("decided", decided);
      return { ts: null };
    });
  }

  /** Slack says one of this channel's posts landed at `ts` (src/handlers/events/post-landed.ts). */
  posted(
    channelId: string,
    landed: { key: string; ts: string; textOnly: boolean },
    at: string,
    config: Config,
  ): Promise<string> {
    return this.#serial(async () => {
      const team = await this.#teamConfig(config);
      if (!team) return "ignored";
      const { outbox } = this.#outbox(team, channelId, new Date(at), 2);
      return outbox.posted(landed.key, landed.ts, landed.textOnly);
    });
  }

  /**
   * A test asked to poll did, and found nothing new to hold: once every test asked has answered
   * (held a failure, or this), the window closes at once.
   */
  polled(name: string): Promise<void> {
    return this.#serial(async () => {
      const window = await this.ctx.storage.get<Window>("window");
      const waiting = (window?.waitingFor ?? []).filter((n) => !this.#answered.has(n));
      if (!window || Object.keys(window.holds).length === 0 || !waiting.includes(name)) return;
      this.#answered.add(name);
      if (waiting.length === 1) await this.ctx.storage.setAlarm(Date.now());
    });
  }

  /** The window's alarm: decides what is held (a retry after a lost answer is one more window). */
  override async alarm(): Promise<void> {
    const config = configOrNull(this.#config, this.env, "channel alarm");
    if (!config) return;
    await this.closeWindow(config);
    await this.sweep(config);
  }

  /**
   * Second copies the settle bound may have left of this channel's posts
   * (src/objects/sql-outbox.ts): one lookup a call, from the alarm, after a close, and each
   * cycle with `clock: "cron"`. While more is owed, the alarm comes back past the tier's minute.
   */
  sweep(config: Config, at?: string): Promise<void> {
    this.#config = config;
    return this.#serial(async () => {
      const channelId = this.ctx.id.name?.split(":")[1];
      const team = channelId ? await this.#teamConfig(config) : null;
      if (!team || !channelId) return;
      const { outbox } = this.#outbox(team, channelId, at ? new Date(at) : new Date(), 4);
      // Its unknown outcomes are settled by the decisions that wait on them (the outage's
      // parent and replies, src/objects/channel-outage.ts), which also record what they name.
      if (!outbox.owesStrays()) return;
      await outbox.removeStrays(1);
      if (!outbox.owesStrays() || config.clock !== "alarms") return;
      const next = Date.now() + HISTORY_TIERS.distributed.spacingMs;
      const current = await this.ctx.storage.getAlarm();
      if (current === null || current > next) await this.ctx.storage.setAlarm(next);
    });
  }

  /**
   * Closes the outage window: decides grouped or alone for every held failure at once (the
   * outage message is posted here, through this object's outbox), records each decision, and
   * tells each test's object its run's fate. A failure a message may name whose answer was
   * lost stays held, and is decided again later. Two closes never decide one failure twice:
   * the holds and decisions are this object's, read and written one close at a time.
   */
  async closeWindow(config: Config, at?: string): Promise<PollReport[]> {
    this.#config = config;
    const tells = await this.#serial(async () => {
      const window = await this.ctx.storage.get<Window>("window");
      const holds = Object.values(window?.holds ?? {});
      if (!window || holds.length === 0) return [];
      const tests = this.#tests(window.teamId, window.channelId);
      const subscribed = Math.max(tests.length, new Set(holds.map((h) => h.name)).size);
      const decided = await this.#decide(
        window.channelId,
        holds.map((h) => h.item),
        subscribed,
        config,
        at,
      );
      const record = (await this.ctx.storage.get<Decided>("decided")) ?? {};
      const now = Date.now();
      for (const [id, d] of Object.entries(record))
        if (now - Date.parse(d.at) > DECIDED_KEEP_MS) delete record[id];
      const told: { hold: Hold; mode: PollMode }[] = [];
      for (const hold of holds) {
        const runId = hold.item.runId;
        if (decided.waiting.includes(runId)) continue;
        const ts = threadOf(decided, runId);
        const passedNext = ts !== null && hold.item.passedNext === true;
        record[String(runId)] = {
          ts,
          at: new Date(now).toISOString(),
          ...(passedNext ? { passedNext } : {}),
        };
        delete window.holds[String(runId)];
        told.push({ hold, mode: modeOf(runId, ts, passedNext) });
      }
      await this.ctx.storage.put({ window, decided: record });
      if (Object.keys(window.holds).length > 0 && config.clock === "alarms")
        await this.ctx.storage.setAlarm(now + OUTAGE_RETRY_MS);
      return told;
    });
    await this.sweep(config, at).catch((error: unknown) =>
      console.error(`channel sweep: ${describeError(error)}`),
    );
    // Told outside the queue (a test's object may be waiting on `hold` here meanwhile), at the
    // time of the cycle that closes the window, or now.
    const now = at ?? new Date().toISOString();
    const reports = await mapLimit(tells, 8, async ({ hold, mode }): Promise<PollReport | null> => {
      try {
        return await subscriptionObjectByName(this.env, hold.name).poll(hold.name, now, config, mode);
      } catch (error) {
        // Its object will hold the run again at its next poll, and be told this decision then.
        console.error(`telling ${hold.name}: ${describeError(error)}`);
        return null;
      }
    });
    return reports.filter((r): r is PollReport => r !== null);
  }

  /**
   * A test named by the outage message `ts` passed again at `at` (src/objects/outage-recovery.ts):
   * the parent no longer says its tests are failing once they all pass, and the time starts the
   * outage's quiet period. False while Slack refuses the edit: the test tells it again later.
   */
  noteRecovery(channelId: string, ts: string, testId: number, at: string, config: Config): Promise<boolean> {
    return this.#serial(async () => {
      const team = await this.#teamConfig(config);
      return !team || noteOutageRecovery(this.ctx.storage, this.env, team, { channelId, ts, testId, at });
    });
  }

  // The channel's index of its subscriptions (src/objects/sql-channel-index.ts): each
  // subscription object writes its own row when what it shows changed; list, status and Home
  // read the whole channel in this one call.
  indexSubscription(sub: Subscription, at: string): void {
    new SqlChannelIndex(this.ctx.storage.sql).put(sub, new Date(at));
  }
  unindexSubscription(key: string): void {
    new SqlChannelIndex(this.ctx.storage.sql).remove(key);
  }
  /** The channel's index, filled once from the KV copies of subscriptions made before it existed. */
  async #index(channelId: string, at: string): Promise<SqlChannelIndex> {
    const index = new SqlChannelIndex(this.ctx.storage.sql);
    if (!index.filled) {
      // Read in this channel's team's scope only (another team may watch a channel of the same id).
      const teamId = this.ctx.id.name?.split(":")[0];
      const existing = await new SubscriptionStore(
        this.env.STATE,
        kvScopeOf(this.env, teamId),
      ).listForChannel(channelId);
      const ours = existing.filter((s) => !teamId || !s.teamId || s.teamId === teamId);
      if (!index.filled) index.fill(ours, new Date(at));
    }
    return index;
  }

  /**
   * The names of the channel's test subscriptions, from its own index (no other object asked,
   * no KV read): who an outage window asks to poll, and how many there are. Its rows are written
   * by the subscriptions themselves; a channel whose subscriptions predate the index has them
   * all once its index was first read (list, status, Home, a digest).
   */
  #tests(teamId: string, channelId: string): string[] {
    return new SqlChannelIndex(this.ctx.storage.sql)
      .entries()
      .flatMap(({ subscription: s }) =>
        specOf(s).joinsOutages
          ? [objectNames.subscription({ teamId, channelId, kind: s.kind, id: subscriptionId(s) })]
          : [],
      );
  }

  /**
   * The channel's subscriptions as the digest, the weekly report and an alert's production
   * impact read them: from its index (no KV read per subscription), in the order of their KV
   * keys, as they were always listed.
   */
  async channelSubscriptions(channelId: string, at: string): Promise<Subscription[]> {
    return (await this.#index(channelId, at))
      .entries()
      .map((e) => e.subscription)
      .sort((a, b) => subscriptionKey(a).localeCompare(subscriptionKey(b)));
  }

  async channelIndex(channelId: string, at: string): Promise<ChannelIndex> {
    const index = await this.#index(channelId, at);
    const channel = await storedDigest(this.ctx.storage);
    return {
      entries: index.entries(),
      digest: channel?.schedule ?? null,
      weekly: await readWeekly(this.ctx.storage),
    };
  }

  // The weekly report (src/objects/channel-weekly.ts), in this object's one-at-a-time queue.
  setWeekly(teamId: string, channelId: string, when: WeeklyWhen | null, at: string) {
    return this.#serial(() => setWeekly(this.ctx.storage, this.env, teamId, channelId, when, at));
  }
  sendDueWeekly(at: string, config: Config): Promise<ReportCall> {
    return this.#serial(() => this.#sendDue(WEEKLY, at, config));
  }

  /** The daily digest, if due (src/objects/channel-reports.ts). */
  sendDueDigest(at: string, config: Config): Promise<ReportCall> {
    return this.#serial(() => this.#sendDue(DIGEST, at, config));
  }

  #sendDue<S extends { nextDueAt: string }, R>(spec: ReportSpec<S, R>, at: string, config: Config) {
    return sendDueReport(this.ctx.storage, this.env, spec, at, config, (channelId) =>
      this.channelSubscriptions(channelId, at),
    );
  }

  /** This channel's outbox, and the Slack client it sends with, drawing on `subrequests` calls. */
  #outbox(team: Config, channelId: string, now: Date, subrequests: number) {
    const { slack } = createEngineDeps(team, this.env, { budget: new SubrequestBudget(subrequests) });
    const pace = historyPace(this.env, team, this.ctx.id.name?.split(":")[0] ?? "", now);
    return {
      slack,
      outbox: channelOutbox(this.ctx.storage.sql, slack, team, { channel: channelId, now, pace }),
    };
  }

  /** The configuration of this channel's team (multi-workspace mode), or null: nothing to send with. */
  async #teamConfig(config: Config): Promise<Config | null> {
    if (!config.install) return config;
    const stored = await storedDigest(this.ctx.storage);
    return teamConfig(this.env, config, stored?.teamId ?? this.ctx.id.name?.split(":")[0]);
  }

  /** A new subscription here: the channel's one introduction, if it never had one (src/objects/channel-intro.ts). */
  introduce(channelId: string, subscription: Subscription, config: Config, at: string): Promise<void> {
    return this.#serial(async () => {
      const team = await this.#teamConfig(config);
      if (!team) return;
      const { outbox } = this.#outbox(team, channelId, new Date(at), 2);
      await introduceOnce(
        this.ctx.storage,
        outbox,
        channelIntroMessage(subscription, team.decipherAppUrl),
        at,
      );
    });
  }

  /** Uninstall (src/objects/tenancy.ts): the digest and weekly report off, then nothing kept. */
  purge(teamId: string, channelId: string, at: string): Promise<void> {
    return this.#serial(async () => {
      await setWeekly(this.ctx.storage, this.env, teamId, channelId, null, at);
      await setDigest(this.ctx.storage, this.env, { teamId, channelId }, null, at);
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    });
  }
}
