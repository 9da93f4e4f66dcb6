import { DurableObject } from "cloudflare:workers";
import type { Config, Env } from "../config.ts";
import { isDue, sendDigest } from "../engine/compose-digest.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import { type OutageItem, outageMessage } from "../messages/outage.ts";
import { post } from "../slack-api/post-message.ts";
import { type DigestSchedule, DigestStore } from "../store/digest-store.ts";
import { SubscriptionStore } from "../store/subscription-store.ts";
import { nextOccurrence } from "../util/local-time.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { objectNames, registry } from "./addresses.ts";
import { sendDueWeekly, setWeekly, type WeeklyWhen } from "./channel-weekly.ts";

type Stored = { channelId: string; teamId: string; schedule: DigestSchedule | null; failedAt: string | null };

/** The last outage message: a cycle that is retried (the cron ran twice) posts it once. */
type LastOutage = { key: string; ts: string | null };

/**
 * How an outage message went: posted (its ts), refused (the tests then alert alone), or
 * unknown (Slack did not answer, or an earlier try died mid-post): it may be in the channel,
 * so the tests must not announce these failures again.
 */
export type OutagePost = { ts: string } | { ts: null; unknown: boolean };

/**
 * One channel, and the only writer of its digest schedule: a `/decipher digest` change and
 * a due digest never overwrite each other, and a digest is sent once however many crons
 * overlap. The schedule is mirrored to KV for `/decipher list`.
 */
export class ChannelObject extends DurableObject<Env> {
  #tail: Promise<unknown> = Promise.resolve();

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work, work);
    this.#tail = run.catch(() => {});
    return run;
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
   * Posts one message for tests of this channel that failed in the same cycle; returns its ts
   * (null when Slack refused, so the tests then alert one by one). The same failures asked
   * twice get the same message, never a second one.
   */
  postOutage(
    channelId: string,
    items: OutageItem[],
    subscribed: number,
    config: Config,
  ): Promise<OutagePost> {
    return this.#serial(async () => {
      const key = items
        .map((i) => `${i.testId}:${i.runId}`)
        .sort()
        .join(",");
      const last = await this.ctx.storage.get<LastOutage>("outage");
      if (last?.key === key) return last.ts ? { ts: last.ts } : { ts: null, unknown: true };
      const deps = createEngineDeps(config, this.env, {
        budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
      });
      // Written first: if this object dies mid-post, a retry finds the key and does not post again.
      await this.ctx.storage.put("outage", { key, ts: null } satisfies LastOutage);
      const result = await post(
        deps.slack,
        channelId,
        outageMessage({ items, appUrl: config.decipherAppUrl, subscribed }),
      );
      if (!result.ok) {
        if (result.failure.kind === "unknown") return { ts: null, unknown: true };
        await this.ctx.storage.delete("outage");
        return { ts: null, unknown: false };
      }
      await this.ctx.storage.put("outage", { key, ts: result.ts } satisfies LastOutage);
      return { ts: result.ts };
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
      const outcome = await sendDigest(
        deps,
        stored.channelId,
        stored.schedule,
        subscriptions,
        now,
        stored.teamId,
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
