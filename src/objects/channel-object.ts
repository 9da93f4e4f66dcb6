import { DurableObject } from "cloudflare:workers";
import { type Config, type Env, readConfig } from "../config.ts";
import { isDue, sendDigest } from "../engine/compose-digest.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import type { PollMode } from "../engine/poll-context.ts";
import { type HeldFailure, retryAtOf } from "../engine/poll-outcome.ts";
import { richBlockGate } from "../engine/rich-block-gate.ts";
import { type OutageItem, type OutagePart, outageAddition, outageMessages } from "../messages/outage.ts";
import type { ChannelIndex } from "../model/channel-index.ts";
import { isOutage, outageStillOpen } from "../model/noise-rules.ts";
import { OUTAGE_RETRY_MS, OUTAGE_WINDOW_MS } from "../model/poll-clock.ts";
import type { Subscription } from "../model/subscription.ts";
import { update } from "../slack-api/post-message.ts";
import type { SlackClient } from "../slack-api/slack-client.ts";
import { retryLater, type SlackFailure, type SlackFailureKind } from "../slack-api/slack-errors.ts";
import { type DigestSchedule, DigestStore } from "../store/digest-store.ts";
import { SubscriptionStore, subscriptionKey } from "../store/subscription-store.ts";
import { describeError } from "../util/describe-error.ts";
import { nextOccurrence } from "../util/local-time.ts";
import { mapLimit } from "../util/map-limit.ts";
import { SerialQueue } from "../util/serial-queue.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { kvScopeOf, objectNames, registry, subscriptionObjectByName } from "./addresses.ts";
import { type ReportCall, readWeekly, sendDueWeekly, setWeekly, type WeeklyWhen } from "./channel-weekly.ts";
import { ledgerLines } from "./ledger-lines.ts";
import { SqlChannelIndex } from "./sql-channel-index.ts";
import { SqlOutbox } from "./sql-outbox.ts";
import { SqlReportReads } from "./sql-report-reads.ts";
import type { PollReport } from "./subscription-object.ts";
import { teamConfig } from "./tenancy.ts";

type Stored = { channelId: string; teamId: string; schedule: DigestSchedule | null; failedAt: string | null };

/**
 * The channel's latest outage message: its outbox key, what it was meant to name, and, once
 * Slack has it, its ts and the runs its delivered messages name.
 */
type Outage = {
  key: string;
  at: string;
  items: OutageItem[];
  subscribed: number;
  ts: string | null;
  named: number[];
  /** Tests (by id) whose streak ended since: the parent is edited to say so. */
  recovered?: number[];
  /** When the latest of them passed again: the outage stays open a quiet period after the last one. */
  lastRecoveredAt?: string;
  /** How many of `items` the parent was posted with (later ones join at the end, in its thread). */
  posted?: number;
  /**
   * Slack took the parent as text alone: it names no test, and its runs alerted alone. Its
   * edits stay text alone, so it never comes to name a run that has its own alert.
   */
  textOnly?: boolean;
  /** Slack refused the parent's latest edit for now (a rate limit): the next chance edits it again. */
  editOwed?: boolean;
};

/**
 * What the channel decided for the failures held this cycle: the outage message they adopt as
 * their thread (`ts`, null when they alert alone), the runs its delivered messages name (only
 * these are grouped), and the runs a message may name whose outcome Slack has not confirmed:
 * those stay held and unfated, and the next cycle settles them here through the outbox.
 */
export type OutagePost = { ts: string | null; named: number[]; waiting: number[] };

/** A new failure a test handed to this channel's outage window, waiting for the decision. */
type Hold = { name: string; item: HeldFailure; at: string };
/** The window: which channel, and the held failures by run id (in this object's storage, one writer). */
type Window = {
  channelId: string;
  teamId: string;
  holds: Record<string, Hold>;
  /** The channel's other tests asked to poll now that have not answered yet. */
  waitingFor?: string[];
};
/**
 * What was decided for a held run (by run id): the outage message that names it, or null for
 * alone. A run is decided once: a test that holds it again (its telling failed, or another
 * cycle saw it too) is told the same, so no run is ever both named and told alone.
 */
type Decided = Record<string, { ts: string | null; at: string; passedNext?: boolean }>;
/** Where the channel keeps Slack's "come back at" after a rate-limited post (`Retry-After`). */
const SLACK_RETRY_AT = "slack-retry-at";
/** Decisions are kept this long: a run unfated for longer is overdue, and its object asks again (`claim`). */
const DECIDED_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

/** How a decided run is told: in the message `ts` (its pass there too, when it named one), or alone. */
const modeOf = (runId: number, ts: string | null, passedNext = false): PollMode =>
  ts
    ? { told: true, group: { ts, runIds: [runId], ...(passedNext ? { passedNext: [runId] } : {}) } }
    : { told: true };

/** The outage is still going on (src/model/noise-rules.ts): a test that fails meanwhile joins it. */
const stillOpen = (outage: Outage, now: Date) =>
  outageStillOpen(
    {
      at: outage.at,
      // The tests a delivered message of the outage names.
      named: outage.items.filter((i) => outage.named.includes(i.runId)).map((i) => i.testId),
      recovered: outage.recovered ?? [],
      lastRecoveredAt: outage.lastRecoveredAt ?? null,
    },
    now,
  );

/** The parent as it was posted (its items, in their order), with what happened since. */
function outageParent(outage: Outage, appUrl: string) {
  const listed = outage.posted ?? outage.items.length;
  const { message } = outageMessages({
    items: outage.items.slice(0, listed),
    later: outage.items.slice(listed).filter((i) => outage.named.includes(i.runId)),
    appUrl,
    subscribed: outage.subscribed,
    recovered: outage.recovered ?? [],
  }).parent;
  // An empty list removes blocks on an edit; the title alone names no run.
  return outage.textOnly ? { text: message.text, blocks: [] } : message;
}

/**
 * Edits the outage's parent to say what is true now. True once it does, or once Slack refused
 * it for good (the message deleted); false while Slack says "not now", and `editOwed` is set.
 */
async function editParent(
  slack: SlackClient,
  channelId: string,
  outage: Outage & { ts: string },
  appUrl: string,
) {
  const result = await update(slack, channelId, outage.ts, outageParent(outage, appUrl));
  outage.editOwed = !result.ok && retryLater(result.failure);
  return !outage.editOwed;
}

/**
 * Not known whether Slack has it (a lost answer; a lookup refused or over budget), or Slack
 * said "not now" (a rate limit): the runs it would name wait, and a later cycle posts it. Told
 * alone instead, each of them would be one more post into the rate-limited channel. Only
 * Slack's "no" to this message (a channel gone, blocks refused) lets them alert alone.
 */
const undecided = (kind: SlackFailureKind) =>
  kind === "unknown" || kind === "deferred" || kind === "workspace" || kind === "transient";

/** The run ids an outage thread reply's key names (`<outage key>:more:<ids>:<i>`). */
const idsOfPart = (key: string) =>
  (key.split(":more:")[1] ?? "").split(":")[0]?.split(",").map(Number).filter(Number.isInteger) ?? [];

/**
 * One channel, and the only writer of its digest schedule: a `/decipher digest` change and
 * a due digest never overwrite each other, and a digest is sent once however many crons
 * overlap. The schedule is mirrored to KV for `/decipher list`.
 */
export class ChannelObject extends DurableObject<Env> {
  readonly #queue = new SerialQueue();
  /** The last caller's configuration, for the window's alarm (see SubscriptionObject's). */
  #config: Config | null = null;

  #serial<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.run(work);
  }

  async #save(state: Stored): Promise<void> {
    await this.ctx.storage.put("channel", state);
    await new DigestStore(this.env.STATE, kvScopeOf(this.env, state.teamId)).writeCopy(
      state.channelId,
      state.schedule,
    );
    await registry(this.env, state.teamId).setDigestDue(
      objectNames.channel(state.teamId, state.channelId),
      state.schedule?.nextDueAt ?? null,
    );
  }

  /** `/decipher digest HH:MM zone` (or off): due at the first such time after now, never at once. */
  setDigest(
    teamId: string,
    channelId: string,
    when: { time: string; zone: string } | null,
    at: string,
  ): Promise<DigestSchedule | null> {
    return this.#serial(async () => {
      const stored = await this.ctx.storage.get<Stored>("channel");
      const previous = stored?.schedule ?? null;
      const schedule: DigestSchedule | null = when
        ? {
            time: when.time,
            zone: when.zone,
            nextDueAt: nextOccurrence(when.time, when.zone, new Date(at)).toISOString(),
            lastSentAt: previous?.lastSentAt ?? null,
            collectionCounts: previous?.collectionCounts ?? {},
            ...(previous?.history ? { history: previous.history } : {}),
          }
        : null;
      await this.#save({ channelId, teamId, schedule, failedAt: null });
      return previous;
    });
  }

  /**
   * Decides, for the failures held in this cycle, whether they are one outage, and posts its
   * message. Every failure held in this channel comes here, so a run an outage message names
   * (or may name: its answer was lost) is never also announced alone, however many tests are
   * held in a later cycle. Every message goes through this object's outbox: an outage message
   * or a thread reply whose outcome is unknown is settled first (looked up in Slack), and the
   * failures an outage does not name yet are added in its thread, each test once.
   */
  async #decide(
    channelId: string,
    items: OutageItem[],
    subscribed: number,
    config: Config,
    at: string | undefined,
  ): Promise<OutagePost> {
    {
      // The cycle's time: the outage's hour and quiet period are measured on the clock that polled.
      const now = at ? new Date(at) : new Date();
      const team = await this.#teamConfig(config);
      if (!team) return { ts: null, named: [], waiting: [] };
      config = team;
      const deps = createEngineDeps(config, this.env, {
        budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
      });
      SqlOutbox.migrate(this.ctx.storage.sql);
      const outbox = new SqlOutbox(
        this.ctx.storage.sql,
        deps.slack,
        channelId,
        now,
        { storage: 0 },
        config.slackLookupAfterMs,
      );
      const appUrl = config.decipherAppUrl;
      const wanted = items.map((i) => i.runId);
      // Slack rate-limited this channel's last message and said when to come back: until then
      // nothing is posted here, and every failure waits (decided once it can be told).
      const quietUntil = await this.ctx.storage.get<string>(SLACK_RETRY_AT);
      if (quietUntil && now.getTime() < Date.parse(quietUntil))
        return { ts: null, named: [], waiting: wanted };
      /** Notes Slack's `Retry-After` of a failed post. */
      const backOff = async (failure: SlackFailure) => {
        const retryAt = retryAtOf(failure, now);
        if (retryAt) await this.ctx.storage.put(SLACK_RETRY_AT, retryAt);
      };
      /** Runs a message may name, not confirmed yet. */
      const waiting = new Set<number>();
      const sendAll = async (outage: Outage & { ts: string }, parts: OutagePart[], threadTs: string) => {
        for (const [i, part] of parts.entries()) {
          const sent = await outbox.send(
            `${outage.key}:more:${part.runIds.join(",")}:${i}`,
            part.message,
            threadTs,
          );
          if (!sent.ok) {
            // This part and the ones after it (not sent) wait to be named here by a later cycle.
            if (undecided(sent.failure.kind))
              for (const later of parts.slice(i)) for (const id of later.runIds) waiting.add(id);
            await backOff(sent.failure);
            break;
          }
          if (!sent.textOnly) outage.named = [...new Set([...outage.named, ...part.runIds])];
        }
      };
      let outage = (await this.ctx.storage.get<Outage>("outage")) ?? null;
      if (outage && outage.ts === null) {
        // An earlier outage message may be in the channel: looked up by its key, never sent
        // blindly. Not there → it is dropped, and this cycle's failures are decided afresh (its
        // runs waited meanwhile, even once overdue: `claim` answers "wait" for them).
        const settled = await outbox.settle(outage.key);
        if (typeof settled === "object") {
          const { parent, overflow } = outageMessages({
            items: outage.items,
            appUrl,
            subscribed: outage.subscribed,
            recovered: outage.recovered ?? [],
          });
          // Found as text alone, it names no test: its runs alert alone, as when posted so.
          const named = settled.textOnly ? [] : parent.runIds;
          const found: Outage & { ts: string } = {
            ...outage,
            ts: settled.ts,
            named,
            posted: outage.items.length,
            ...(settled.textOnly ? { textOnly: true } : {}),
          };
          await sendAll(found, overflow, settled.ts);
          await this.ctx.storage.put("outage", found);
          outage = found;
        } else if (settled === "unknown") {
          // Its runs wait for it; the others too when they would make an outage of their own
          // (one outage is settled at a time).
          const pending = outage.items.map((i) => i.runId);
          const others = wanted.filter((id) => !pending.includes(id));
          const wait = isOutage(others.length, subscribed)
            ? wanted
            : wanted.filter((id) => pending.includes(id));
          return { ts: null, named: [], waiting: wait };
        } else {
          await this.ctx.storage.delete("outage");
          outage = null;
        }
      }
      const earlier = outage?.ts ? { ...outage, ts: outage.ts } : null;
      // What the parent counts before this cycle: a reply found below is counted in its edit too.
      const namedBefore = earlier?.named.length ?? 0;
      if (earlier) {
        // Thread replies of this outage whose answer was lost: found → named; not there → told again below.
        for (const { key } of outbox.unknown()) {
          if (!key.startsWith(`${earlier.key}:more:`)) continue;
          const settled = await outbox.settle(key);
          if (typeof settled === "object" && !settled.textOnly) {
            const ids = idsOfPart(key);
            earlier.named = [...new Set([...earlier.named, ...ids])];
            // A test named again is failing again: the parent no longer marks it as passed.
            const tests = earlier.items.filter((i) => ids.includes(i.runId)).map((i) => i.testId);
            earlier.recovered = (earlier.recovered ?? []).filter((id) => !tests.includes(id));
          }
          if (settled === "unknown") for (const id of idsOfPart(key)) waiting.add(id);
        }
      }
      const open = items.filter((i) => !waiting.has(i.runId));
      const answer = (ts: string | null, named: readonly number[]): OutagePost => ({
        ts,
        named: wanted.filter((id) => named.includes(id) && !waiting.has(id)),
        waiting: wanted.filter((id) => waiting.has(id)),
      });
      const retried = earlier && open.some((i) => earlier.items.some((o) => o.runId === i.runId));
      if (earlier && (retried || stillOpen(earlier, now))) {
        // Some or all of these are the earlier outage's (a retried cycle, or one settled just
        // now), or they failed while it is still going on or minutes after it recovered (the
        // same incident flaring up): one event, one message. What it does
        // not name yet joins its thread, each run once, and the parent counts them.
        const fresh = open.filter((i) => !earlier.named.includes(i.runId));
        earlier.items = [
          ...earlier.items,
          ...fresh.filter((i) => !earlier.items.some((o) => o.runId === i.runId)),
        ];
        if (fresh.length > 0) await sendAll(earlier, outageAddition(fresh, appUrl), earlier.ts);
        const joined = fresh.filter((i) => earlier.named.includes(i.runId));
        // A test named again is failing again: the parent no longer marks it as passed, unless
        // its next run had passed already (named as passed again at once).
        const again = joined.filter((i) => !i.passedNext).map((i) => i.testId);
        const backAlready = joined.filter((i) => i.passedNext).map((i) => i.testId);
        earlier.recovered = [
          ...new Set([...(earlier.recovered ?? []).filter((id) => !again.includes(id)), ...backAlready]),
        ];
        if (backAlready.length > 0) earlier.lastRecoveredAt = now.toISOString();
        await this.ctx.storage.put("outage", earlier);
        // An edit Slack refuses for now is owed: the next cycle or recovery makes it.
        if (earlier.named.length > namedBefore || earlier.editOwed) {
          await editParent(deps.slack, channelId, earlier, appUrl);
          await this.ctx.storage.put("outage", earlier);
        }
        return answer(earlier.ts, earlier.named);
      }
      if (earlier && waiting.size > 0) await this.ctx.storage.put("outage", earlier);
      // Not an outage: each test alerts alone.
      if (!isOutage(open.length, subscribed)) return answer(null, []);
      // Failures whose next run passed already are named as passed again from the start.
      const backAlready = [...new Set(open.filter((i) => i.passedNext).map((i) => i.testId))];
      const next: Outage = {
        key: `outage:${now.toISOString()}`,
        at: now.toISOString(),
        items: open,
        subscribed,
        ts: null,
        named: [],
        ...(backAlready.length > 0 ? { recovered: backAlready, lastRecoveredAt: now.toISOString() } : {}),
      };
      // Stored first: if this object dies mid-post, the next cycle settles this key instead of posting anew.
      await this.ctx.storage.put("outage", next);
      const { parent, overflow } = outageMessages({
        items: open,
        appUrl,
        subscribed,
        recovered: backAlready,
      });
      const sent = await outbox.send(next.key, parent.message, undefined);
      if (!sent.ok) {
        await backOff(sent.failure);
        if (undecided(sent.failure.kind)) {
          for (const i of open) waiting.add(i.runId);
          return answer(null, []);
        }
        await this.ctx.storage.delete("outage");
        return answer(null, []);
      }
      // Text alone names no test: those runs alert alone (in no thread of this message).
      const posted = {
        ...next,
        ts: sent.ts,
        named: sent.textOnly ? [] : parent.runIds,
        posted: open.length,
        ...(sent.textOnly ? { textOnly: true } : {}),
      };
      await sendAll(posted, overflow, sent.ts);
      await this.ctx.storage.put("outage", posted);
      return answer(sent.ts, posted.named);
    }
  }

  /**
   * A test's new failure, held for this channel's outage window. Decided before (a retried
   * alarm, another cycle's poll): the test is told the decision at once. Otherwise the failure
   * waits in this object's storage; the first one opens the window (the alarm that closes it)
   * and asks the channel's other tests to poll now.
   */
  async hold(
    channelId: string,
    name: string,
    item: HeldFailure,
    at: string,
    config: Config,
  ): Promise<PollMode | null> {
    this.#config = config;
    const alarms = config.clock === "alarms";
    const teamId = name.split(":")[0] ?? "";
    const tests = alarms ? this.#tests(teamId, channelId) : [];
    const answer = await this.#serial(async (): Promise<{ told: PollMode } | { ask: string[] }> => {
      const decided = (await this.ctx.storage.get<Decided>("decided")) ?? {};
      const known = decided[String(item.runId)];
      if (known) return { told: modeOf(item.runId, known.ts, known.passedNext) };
      const stored = await this.ctx.storage.get<Window>("window");
      const open = stored && Object.keys(stored.holds).length > 0;
      const window: Window = open
        ? stored
        : { channelId, teamId, holds: {}, waitingFor: tests.filter((n) => n !== name) };
      window.holds[String(item.runId)] = { name, item, at };
      window.waitingFor = (window.waitingFor ?? []).filter((n) => n !== name);
      await this.ctx.storage.put("window", window);
      if (alarms) {
        // Everyone asked has answered: decided now, not at the end of the window.
        const closes = window.waitingFor.length === 0 ? Date.now() : Date.now() + OUTAGE_WINDOW_MS;
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
      const outage = (await this.ctx.storage.get<Outage>("outage")) ?? null;
      if (outage && outage.ts === null && outage.items.some((i) => i.runId === runId)) return "wait";
      SqlOutbox.migrate(this.ctx.storage.sql);
      const unknownReplies = this.ctx.storage.sql
        .exec<{ key: string }>("SELECT key FROM outbox WHERE state != 'sent'")
        .toArray()
        .filter((r) => r.key.includes(":more:"));
      if (unknownReplies.some((r) => idsOfPart(r.key).includes(runId))) return "wait";
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

  /**
   * A test asked to poll did, and found nothing new to hold: once every test asked has answered
   * (held a failure, or this), the window closes at once.
   */
  polled(name: string): Promise<void> {
    return this.#serial(async () => {
      const window = await this.ctx.storage.get<Window>("window");
      if (!window || Object.keys(window.holds).length === 0 || !window.waitingFor?.includes(name)) return;
      window.waitingFor = window.waitingFor.filter((n) => n !== name);
      await this.ctx.storage.put("window", window);
      if (window.waitingFor.length === 0) await this.ctx.storage.setAlarm(Date.now());
    });
  }

  /** The window's alarm: decides what is held (a retry after a lost answer is one more window). */
  override async alarm(): Promise<void> {
    let config: Config;
    try {
      config = this.#config ?? readConfig(this.env);
    } catch (error) {
      console.error(`channel alarm: ${describeError(error)}`);
      return;
    }
    await this.closeWindow(config);
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
        const ts = decided.ts && decided.named.includes(runId) ? decided.ts : null;
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
   * A test named by the outage message `ts` passed again at `at`: the parent is edited so it no
   * longer says its tests are failing once they all pass, and the time starts the outage's
   * quiet period (a failure within it joins the outage). Only the channel's latest outage is kept;
   * an older one stays as it was posted. False while Slack refuses the edit for now: the test
   * tells it again at its next poll, so the parent never keeps saying they are failing.
   */
  noteRecovery(channelId: string, ts: string, testId: number, at: string, config: Config): Promise<boolean> {
    return this.#serial(async () => {
      const outage = (await this.ctx.storage.get<Outage>("outage")) ?? null;
      if (!outage?.ts || outage.ts !== ts || !outage.items.some((i) => i.testId === testId)) return true;
      const known = (outage.recovered ?? []).includes(testId);
      if (known && !outage.editOwed) return true;
      const team = await this.#teamConfig(config);
      if (!team) return true;
      config = team;
      const updated: Outage & { ts: string } = known
        ? { ...outage, ts: outage.ts }
        : { ...outage, ts: outage.ts, recovered: [...(outage.recovered ?? []), testId], lastRecoveredAt: at };
      await this.ctx.storage.put("outage", updated);
      const deps = createEngineDeps(config, this.env, {
        budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
      });
      const shown = await editParent(deps.slack, channelId, updated, config.decipherAppUrl);
      await this.ctx.storage.put("outage", updated);
      return shown;
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
      .flatMap((e) =>
        e.subscription.kind === "test"
          ? [objectNames.subscription({ teamId, channelId, kind: "test", id: e.subscription.testId })]
          : [],
      );
  }

  /**
   * The channel's subscriptions as the digest and the weekly report read them: from its index
   * (no KV read per subscription), in the order of their KV keys, as they were always listed.
   */
  async #subscriptions(channelId: string, at: string): Promise<Subscription[]> {
    return (await this.#index(channelId, at))
      .entries()
      .map((e) => e.subscription)
      .sort((a, b) => subscriptionKey(a).localeCompare(subscriptionKey(b)));
  }

  async channelIndex(channelId: string, at: string): Promise<ChannelIndex> {
    const index = await this.#index(channelId, at);
    const channel = await this.ctx.storage.get<Stored>("channel");
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
    return this.#serial(async () => {
      const team = await this.#teamConfig(config);
      return team
        ? sendDueWeekly(this.ctx.storage, this.env, at, team, (channelId) =>
            this.#subscriptions(channelId, at),
          )
        : { sent: false };
    });
  }

  /** The configuration of this channel's team (multi-workspace mode), or null: nothing to send with. */
  async #teamConfig(config: Config): Promise<Config | null> {
    if (!config.install) return config;
    const stored = await this.ctx.storage.get<Stored>("channel");
    return teamConfig(this.env, config, stored?.teamId ?? this.ctx.id.name?.split(":")[0]);
  }

  /** Uninstall (src/objects/tenancy.ts): the digest and weekly report off, then nothing kept. */
  purge(teamId: string, channelId: string, at: string): Promise<void> {
    return this.#serial(async () => {
      await setWeekly(this.ctx.storage, this.env, teamId, channelId, null, at);
      await this.#save({ channelId, teamId, schedule: null, failedAt: null });
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    });
  }

  /**
   * Sends the digest if it is due. One that failed (Slack or Decipher down) is tried each
   * minute for three minutes, then every fifth minute.
   */
  sendDueDigest(at: string, config: Config): Promise<ReportCall> {
    return this.#serial(async () => {
      const stored = await this.ctx.storage.get<Stored>("channel");
      const now = new Date(at);
      if (!stored?.schedule || !isDue(stored.schedule, now)) return { sent: false };
      const team = await teamConfig(this.env, config, stored.teamId);
      if (!team) return { sent: false };
      config = team;
      if (stored.failedAt) {
        const minutes = Math.floor((now.getTime() - Date.parse(stored.failedAt)) / 60_000);
        if (minutes >= 3 && minutes % 5 !== 0) return { sent: false };
      }
      const deps = createEngineDeps(config, this.env, {
        now: () => now,
        budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
      });
      const subscriptions = await this.#subscriptions(stored.channelId, at);
      SqlOutbox.migrate(this.ctx.storage.sql);
      const outbox = new SqlOutbox(
        this.ctx.storage.sql,
        deps.slack,
        stored.channelId,
        now,
        { storage: 0 },
        config.slackLookupAfterMs,
        richBlockGate(deps, stored.teamId),
      );
      const reads = new SqlReportReads(this.ctx.storage.sql, "digest", stored.schedule.nextDueAt);
      const outcome = await sendDigest(
        deps,
        stored.channelId,
        stored.schedule,
        subscriptions,
        now,
        outbox,
        // Each test's line comes from its own object's ledger: one internal call each, no vendor read.
        () => ledgerLines(this.env, stored.teamId, stored.channelId, subscriptions, at),
        reads.read("collections"),
      );
      if (outcome.kind === "reading") {
        reads.add("collections", outcome.reads);
        return { sent: false, more: true };
      }
      reads.clear();
      if (outcome.kind === "retry") {
        if (!stored.failedAt) await this.ctx.storage.put("channel", { ...stored, failedAt: at });
        return { sent: false };
      }
      await this.#save({ ...stored, schedule: outcome.next, failedAt: null });
      return { sent: outcome.kind === "sent" };
    });
  }
}
