import { DurableObject } from "cloudflare:workers";
import type { Config, Env } from "../config.ts";
import { isDue, sendDigest } from "../engine/compose-digest.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import type { LedgerDigestLine } from "../engine/ledger-digest.ts";
import { richBlockGate } from "../engine/rich-block-gate.ts";
import { type OutageItem, type OutagePart, outageAddition, outageMessages } from "../messages/outage.ts";
import type { TestSubscription } from "../model/subscription.ts";
import { type DigestSchedule, DigestStore } from "../store/digest-store.ts";
import { SubscriptionStore } from "../store/subscription-store.ts";
import { nextOccurrence } from "../util/local-time.ts";
import { mapLimit } from "../util/map-limit.ts";
import { SerialQueue } from "../util/serial-queue.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { objectNames, registry, subscriptionObject } from "./addresses.ts";
import { sendDueWeekly, setWeekly, type WeeklyWhen } from "./channel-weekly.ts";
import { SqlOutbox } from "./sql-outbox.ts";

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
};

/**
 * How an outage went: posted (its ts, and the runs its delivered messages name: only those are
 * grouped), refused (the tests then alert alone), or unknown (Slack did not answer yet): the
 * failures stay owed, and the next cycle settles them through the outbox.
 */
export type OutagePost = { ts: string; named: number[] } | { ts: null; unknown: boolean };

/**
 * One channel, and the only writer of its digest schedule: a `/decipher digest` change and
 * a due digest never overwrite each other, and a digest is sent once however many crons
 * overlap. The schedule is mirrored to KV for `/decipher list`.
 */
export class ChannelObject extends DurableObject<Env> {
  readonly #queue = new SerialQueue();

  #serial<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.run(work);
  }

  async #save(state: Stored): Promise<void> {
    await this.ctx.storage.put("channel", state);
    await new DigestStore(this.env.STATE).writeCopy(state.channelId, state.schedule);
    await registry(this.env).setDigestDue(
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
   * Decides and posts one message for tests of this channel that failed in the same cycle.
   * Every message goes through this object's outbox, so a retried or overlapping cycle, or a
   * crash mid-post, never posts it twice: an outage whose outcome is still unknown is settled
   * first (looked up in Slack), and failures it does not name are added in its thread.
   */
  postOutage(
    channelId: string,
    items: OutageItem[],
    subscribed: number,
    config: Config,
  ): Promise<OutagePost> {
    return this.#serial(async () => {
      const now = new Date();
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
      const sendAll = async (outage: Outage & { ts: string }, parts: OutagePart[], threadTs: string) => {
        for (const [i, part] of parts.entries()) {
          const sent = await outbox.send(
            `${outage.key}:more:${part.runIds.join(",")}:${i}`,
            part.message,
            threadTs,
          );
          if (!sent.ok) break;
          outage.named = [...new Set([...outage.named, ...part.runIds])];
        }
      };
      let outage = (await this.ctx.storage.get<Outage>("outage")) ?? null;
      if (outage && outage.ts === null) {
        // An earlier outage message may be in the channel: the same key, so the outbox finds it or sends it once.
        const { parent, overflow } = outageMessages({
          items: outage.items,
          appUrl,
          subscribed: outage.subscribed,
        });
        const sent = await outbox.send(outage.key, parent.message, undefined);
        if (sent.ok) {
          const settled = { ...outage, ts: sent.ts, named: parent.runIds };
          await sendAll(settled, overflow, sent.ts);
          await this.ctx.storage.put("outage", settled);
          outage = settled;
        } else if (sent.failure.kind === "unknown" || sent.failure.kind === "deferred") {
          return { ts: null, unknown: true };
        } else {
          await this.ctx.storage.delete("outage");
          outage = null;
        }
      }
      const wanted = items.map((i) => i.runId);
      const earlier = outage?.ts ? { ...outage, ts: outage.ts } : null;
      if (earlier && items.some((i) => earlier.items.some((o) => o.runId === i.runId))) {
        // Some or all of these are the earlier outage's (a retried cycle, or one settled just
        // now): what it does not name yet joins its thread, each test once.
        const fresh = items.filter((i) => !earlier.named.includes(i.runId));
        earlier.items = [
          ...earlier.items,
          ...fresh.filter((i) => !earlier.items.some((o) => o.runId === i.runId)),
        ];
        if (fresh.length > 0) await sendAll(earlier, outageAddition(fresh, appUrl), earlier.ts);
        await this.ctx.storage.put("outage", earlier);
        return { ts: earlier.ts, named: wanted.filter((id) => earlier.named.includes(id)) };
      }
      const next: Outage = {
        key: `outage:${now.toISOString()}`,
        at: now.toISOString(),
        items,
        subscribed,
        ts: null,
        named: [],
      };
      // Stored first: if this object dies mid-post, the next cycle settles this key instead of posting anew.
      await this.ctx.storage.put("outage", next);
      const { parent, overflow } = outageMessages({ items, appUrl, subscribed });
      const sent = await outbox.send(next.key, parent.message, undefined);
      if (!sent.ok) {
        if (sent.failure.kind === "unknown" || sent.failure.kind === "deferred")
          return { ts: null, unknown: true };
        await this.ctx.storage.delete("outage");
        return { ts: null, unknown: false };
      }
      const posted = { ...next, ts: sent.ts, named: parent.runIds };
      await sendAll(posted, overflow, sent.ts);
      await this.ctx.storage.put("outage", posted);
      return { ts: sent.ts, named: wanted.filter((id) => posted.named.includes(id)) };
    });
  }

  // The weekly report (src/objects/channel-weekly.ts), in this object's one-at-a-time queue.
  setWeekly(teamId: string, channelId: string, when: WeeklyWhen | null, at: string) {
    return this.#serial(() => setWeekly(this.ctx.storage, this.env, teamId, channelId, when, at));
  }
  sendDueWeekly(at: string, config: Config) {
    return this.#serial(() => sendDueWeekly(this.ctx.storage, this.env, at, config));
  }

  /**
   * Sends the digest if it is due. One that failed (Slack or Decipher down) is tried each
   * minute for three minutes, then every fifth minute.
   */
  sendDueDigest(at: string, config: Config): Promise<{ sent: boolean }> {
    return this.#serial(async () => {
      const stored = await this.ctx.storage.get<Stored>("channel");
      const now = new Date(at);
      if (!stored?.schedule || !isDue(stored.schedule, now)) return { sent: false };
      if (stored.failedAt) {
        const minutes = Math.floor((now.getTime() - Date.parse(stored.failedAt)) / 60_000);
        if (minutes >= 3 && minutes % 5 !== 0) return { sent: false };
      }
      const deps = createEngineDeps(config, this.env, {
        now: () => now,
        budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
      });
      const subscriptions = await new SubscriptionStore(this.env.STATE).listForChannel(stored.channelId);
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
      // Each test's line comes from its own object's ledger: one internal call each, no vendor read.
      const tests = subscriptions.filter(
        (s): s is TestSubscription => s.kind === "test" && s.channelId === stored.channelId,
      );
      const lines = new Map<number, LedgerDigestLine>();
      await mapLimit(tests, 10, async (t) => {
        const ref = {
          teamId: stored.teamId,
          channelId: stored.channelId,
          kind: "test" as const,
          id: t.testId,
        };
        const line = await subscriptionObject(this.env, ref)
          .digestLine(at)
          .catch(() => null);
        if (line) lines.set(t.testId, line);
      });
      const outcome = await sendDigest(
        deps,
        stored.channelId,
        stored.schedule,
        subscriptions,
        now,
        outbox,
        lines,
      );
      if (outcome.kind === "retry") {
        if (!stored.failedAt) await this.ctx.storage.put("channel", { ...stored, failedAt: at });
        return { sent: false };
      }
      await this.#save({ ...stored, schedule: outcome.next, failedAt: null });
      return { sent: outcome.kind === "sent" };
    });
  }
}
