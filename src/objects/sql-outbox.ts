import type { Config } from "../config.ts";
import type { Outbox } from "../engine/outbox.ts";
import {
  afterLookup,
  jitterOf,
  lookupNow,
  type OutboxRow,
  onPosted,
  pastBound,
  strayWanted,
} from "../engine/settle-outcome.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { CHANNEL_OWNER } from "../model/post-owner.ts";
import {
  findPosted,
  HISTORY_TIERS,
  type HistoryPace,
  type HistoryTier,
  type Lookup,
  windowOf,
} from "../slack-api/find-posted.ts";
import { type PostResult, post, type RichBlockGate, update } from "../slack-api/post-message.ts";
import type { SlackClient } from "../slack-api/slack-client.ts";
import { classifySlackFailure } from "../slack-api/slack-errors.ts";
import { describeError } from "../util/describe-error.ts";
import { migrateOutbox } from "./outbox-schema.ts";

/** Sent keys are remembered this long: longer than any run stays in a poll's window. */
const KEEP_SENT_MS = 8 * 24 * 60 * 60 * 1000;

/** Writes made through the outbox, counted for the idle-poll promise (no write when nothing happens). */
export type WriteCounter = { storage: number };

export type OutboxOptions = {
  channel: string;
  now: Date;
  writes: WriteCounter;
  /**
   * An unknown outcome younger than this is not looked up yet: Slack may still be storing a
   * post whose answer we stopped waiting for (`SLACK_LOOKUP_AFTER_MS`, 30 s by default, past
   * the client's 10 s deadline), and its `message_metadata_posted` is on its way.
   */
  lookupAfterMs: number;
  /** How this workspace may read history (src/slack-api/find-posted.ts). */
  tier: HistoryTier;
  /** The workspace's shared turns at history reads, when its tier paces them (src/objects/history-pace.ts). */
  pace?: HistoryPace | undefined;
  /** Whether the workspace takes charts and tables (src/engine/rich-block-gate.ts). */
  gate?: RichBlockGate | undefined;
  /** Who holds this outbox, put in each post's metadata so Slack's event finds it (src/model/post-owner.ts). */
  owner?: string | undefined;
};

/** History reads one poll of an object makes at most: the distributed tier allows one a minute. */
const readsPerPoll = (tier: HistoryTier) => (tier.spacingMs > 0 ? 1 : 4);

/** The outbox of one Durable Object, in its SQLite storage (see src/engine/outbox.ts). */
export class SqlOutbox implements Outbox {
  readonly #sql: SqlStorage;
  readonly #slack: SlackClient;
  readonly #o: OutboxOptions;
  #reads: number;

  static migrate(sql: SqlStorage): void {
    migrateOutbox(sql);
  }

  constructor(sql: SqlStorage, slack: SlackClient, options: OutboxOptions) {
    this.#sql = sql;
    this.#slack = slack;
    this.#o = options;
    this.#reads = readsPerPoll(options.tier);
  }

  #row(key: string): OutboxRow | null {
    return (this.#sql.exec<OutboxRow>("SELECT * FROM outbox WHERE key = ?", key).toArray()[0] ??
      null) as OutboxRow | null;
  }

  #write(query: string, ...args: (string | null)[]): void {
    this.#sql.exec(query, ...args);
    this.#o.writes.storage++;
  }

  #set(key: string, fields: Partial<OutboxRow>): void {
    const names = Object.keys(fields);
    if (names.length === 0) return;
    const values = Object.values(fields) as (string | null)[];
    this.#write(`UPDATE outbox SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE key = ?`, ...values, key);
  }

  async send(key: string, message: SlackMessage, threadTs?: string): Promise<PostResult> {
    const row = this.#row(key);
    // Sent before (by a poll that died before recording it, or decided again since): its ts,
    // and whether it is in the place this decision wants, so the caller can bring it up to date.
    const earlier = row !== null && row.thread_ts === (threadTs ?? null);
    if (row?.state === "sent" && row.ts) return { ok: true, ts: row.ts, earlier };
    // Posted again past the bound: the earlier copy, should it turn up, is removed.
    let strays = row?.state === "abandoned" ? row.stray_since : null;
    if (row && row.state !== "abandoned") {
      const found = await this.resolve(row);
      if (found === "bound") strays = row.stray_since ?? row.intended_at;
      else if (found !== "absent") return found.ok ? { ...found, earlier } : found;
    }
    this.#write(
      "INSERT OR REPLACE INTO outbox (key, state, ts, thread_ts, intended_at, stray_since) VALUES (?, 'intended', NULL, ?, ?, ?)",
      key,
      threadTs ?? null,
      this.#o.now.toISOString(),
      strays,
    );
    const result = await post(
      this.#slack,
      this.#o.channel,
      message,
      threadTs,
      key,
      this.#o.gate,
      this.#o.owner,
    );
    // Counted by the chaos suite (test/chaos/exactly-once.test.ts): every copy the bound may double.
    if (strays) console.log(`outbox: ${key.split(":")[0]} post sent again at the settle bound`);
    if (result.ok) this.#set(key, { state: "sent", ts: result.ts, text_only: result.textOnly ? 1 : null });
    else if (result.failure.kind === "unknown") this.#set(key, { state: "unknown" });
    // Slack answered no: nothing was posted, so the intent goes and the key may be sent later
    // (kept, without a post of its own, while an earlier copy may still turn up).
    else if (strays) this.#set(key, { state: "abandoned" });
    else this.#write("DELETE FROM outbox WHERE key = ?", key);
    return result;
  }

  edit(ts: string, message: SlackMessage): Promise<PostResult> {
    return update(this.#slack, this.#o.channel, ts, message, this.#o.gate);
  }

  /** One history read for `row`, if this poll has one left. */
  async #lookup(row: OutboxRow, since: string, exceptTs: string | null): Promise<Lookup | null> {
    if (this.#reads <= 0) return null;
    this.#reads--;
    const wait = await this.#o.pace?.(row.thread_ts ? "conversations.replies" : "conversations.history");
    if (wait) {
      // Another object of the workspace read this minute: this lookup comes back after it.
      const after = this.#o.now.getTime() + wait + jitterOf(row.key, this.#o.now, 30_000);
      this.#set(row.key, { lookup_after: new Date(after).toISOString() });
      return null;
    }
    // Slack stamps a post by its own clock, not by the cycle's time (a test's, or a late alarm's).
    // A search for second copies reads from the first intent to the latest one: each post the
    // bound made in between may be there.
    const window = {
      ...windowOf(new Date(since), new Date(), new Date(row.intended_at)),
      cursor: row.cursor,
    };
    const lookup = await findPosted(
      this.#slack,
      this.#o.channel,
      { key: row.key, owner: this.#o.owner },
      window,
      this.#o.tier,
      row.thread_ts,
      exceptTs,
    );
    // Slack said wait: no other lookup of this poll goes before it.
    if ("failed" in lookup && lookup.failed.code === "ratelimited") this.#reads = 0;
    return lookup;
  }

  /**
   * Settles an intent whose outcome is unknown by looking its key up in Slack: found → sent
   * (with its ts); not there → "absent", free to send. Too young to tell, paced, or the lookup
   * failed → still unknown, and nothing is sent; past the bound (src/engine/settle-outcome.ts)
   * → "bound": decided as not there, and posted again by whoever asks.
   */
  async resolve(row: OutboxRow): Promise<PostResult | "absent" | "bound"> {
    const when = lookupNow(row, this.#o.now, this.#o.lookupAfterMs);
    const lookup = when === "read" ? await this.#lookup(row, row.intended_at, null) : null;
    if (!lookup) {
      if (pastBound(row, this.#o.now)) return "bound";
      const code = when === "young" ? "awaiting_lookup" : "lookup_paced";
      return { ok: false, failure: { kind: "unknown", code } };
    }
    const step = afterLookup(lookup, this.#o.now, this.#o.tier, jitterOf(row.key, this.#o.now));
    this.#set(row.key, step.write);
    const { outcome } = step;
    if (outcome === "absent") return "absent";
    if ("found" in outcome) {
      this.#set(row.key, {
        state: "sent",
        ts: outcome.found.ts,
        text_only: outcome.found.textOnly ? 1 : null,
        cursor: null,
        lookup_after: null,
      });
      return { ok: true, ts: outcome.found.ts, ...(outcome.found.textOnly ? { textOnly: true } : {}) };
    }
    if (pastBound(row, this.#o.now)) return "bound";
    // A scope or token refusal concerns the workspace (status and /health show it); anything
    // else leaves the outcome unknown.
    const failed = outcome.unknown;
    const kind = failed.kind === "deferred" || failed.kind === "workspace" ? failed.kind : "unknown";
    return { ok: false, failure: { kind, code: `lookup_${failed.code}` } };
  }

  /**
   * Settles one unknown key without sending: its ts (Slack has it), "absent" (it does not, or
   * the bound passed: the caller decides again without it), or "unknown" (too young, or the
   * lookup failed or waits its turn).
   */
  async settle(key: string): Promise<{ ts: string; textOnly?: boolean } | "absent" | "unknown"> {
    const row = this.#row(key);
    if (!row || row.state === "abandoned") return "absent";
    if (row.state === "sent" && row.ts) return { ts: row.ts, ...(row.text_only ? { textOnly: true } : {}) };
    const result = await this.resolve(row);
    if (result === "absent" || result === "bound") {
      this.#drop(row, result);
      return "absent";
    }
    return result.ok ? { ts: result.ts, ...(result.textOnly ? { textOnly: true } : {}) } : "unknown";
  }

  /** An intent decided without its post: forgotten when Slack has none, kept to remove a late copy otherwise. */
  #drop(row: OutboxRow, why: "absent" | "bound"): void {
    if (why === "absent") this.#write("DELETE FROM outbox WHERE key = ?", row.key);
    else
      this.#set(row.key, {
        state: "abandoned",
        stray_since: row.stray_since ?? row.intended_at,
        cursor: null,
        lookup_after: null,
      });
  }

  /**
   * Slack's `message_metadata_posted` for a post of this outbox: a lost answer settled with no
   * history read, or a second copy found (src/engine/settle-outcome.ts `onPosted`).
   */
  async posted(key: string, ts: string, textOnly = false): Promise<"settled" | "removed" | "ignored"> {
    const row = this.#row(key);
    const action = onPosted(row, ts);
    if (!row || action.kind === "ignore") return "ignored";
    if (action.kind === "settle") {
      this.#set(key, { state: "sent", ts, text_only: textOnly ? 1 : null, cursor: null, lookup_after: null });
      return "settled";
    }
    await this.#remove(row, ts);
    return "removed";
  }

  /** Deletes the bot's own copy at `ts` that the ledger does not point at, and records it. */
  async #remove(row: OutboxRow, ts: string): Promise<void> {
    try {
      await this.#slack.chat.delete({ channel: this.#o.channel, ts });
    } catch (error) {
      // Gone already (a person deleted it) is as good as deleted.
      if (classifySlackFailure(error).code !== "message_not_found") {
        console.warn(`outbox: a second copy could not be deleted: ${describeError(error)}`);
        return;
      }
    }
    this.#write(
      "INSERT INTO outbox_removed (key, ts, removed_at) VALUES (?, ?, ?)",
      row.key,
      ts,
      this.#o.now.toISOString(),
    );
    console.log(`outbox: deleted a second copy of ${row.key.split(":")[0]} post`);
    // The search reads the window again from its start: two bounds in a row leave two copies.
    this.#set(row.key, { cursor: null, lookup_after: null });
  }

  /** Keys whose outcome is still unknown: shown in status until the next poll settles them. */
  unknown(): { key: string; at: string }[] {
    return this.#sql
      .exec<OutboxRow>("SELECT * FROM outbox WHERE state IN ('intended', 'unknown') ORDER BY intended_at")
      .toArray()
      .map((r) => ({ key: r.key, at: r.intended_at }));
  }

  /** Whether a sweep has work: an unknown outcome, or a second copy still looked for. */
  owesLookups(): boolean {
    return (
      this.#sql
        .exec(
          "SELECT 1 FROM outbox WHERE state IN ('intended', 'unknown') OR stray_since IS NOT NULL LIMIT 1",
        )
        .toArray().length > 0
    );
  }

  /** Whether a second copy is still looked for. */
  owesStrays(): boolean {
    return (
      this.#sql
        .exec("SELECT 1 FROM outbox WHERE stray_since IS NOT NULL AND state IN ('sent', 'abandoned') LIMIT 1")
        .toArray().length > 0
    );
  }

  /** Abandoned keys are not here: decided as absent, whatever needed one decides again. */
  keys(): Set<string> {
    return new Set(
      this.#sql
        .exec<{ key: string }>("SELECT key FROM outbox WHERE state != 'abandoned'")
        .toArray()
        .map((r) => r.key),
    );
  }

  /**
   * Looks up, at most `limit` at a time (history reads are rate-limited), the unknown intents
   * no decision asks for again (a key Slack does not have is dropped, since whatever needed it
   * decides again from its own state), then the second copies the bound may have left.
   */
  async sweep(limit: number): Promise<number> {
    const stale = this.#sql
      .exec<OutboxRow>(
        "SELECT * FROM outbox WHERE state IN ('intended', 'unknown') ORDER BY intended_at LIMIT ?",
        limit,
      )
      .toArray();
    let settled = 0;
    for (const row of stale) {
      const result = await this.resolve(row);
      if (result === "absent" || result === "bound") this.#drop(row, result);
      if (result === "absent" || result === "bound" || result.ok) settled++;
    }
    await this.#sweepStrays(limit);
    return settled;
  }

  /** Second copies only: what an outbox whose decisions are stopped (a muted collection) still owes. */
  removeStrays(limit: number): Promise<void> {
    return this.#sweepStrays(limit);
  }

  /** Looks for copies the bound may have doubled, and removes each one found. */
  async #sweepStrays(limit: number): Promise<void> {
    const rows = this.#sql
      .exec<OutboxRow>(
        "SELECT * FROM outbox WHERE stray_since IS NOT NULL AND state IN ('sent', 'abandoned') ORDER BY stray_since LIMIT ?",
        limit,
      )
      .toArray();
    for (const row of rows) {
      if (!strayWanted(row, this.#o.now)) {
        this.#straysDone(row);
        continue;
      }
      if (lookupNow({ ...row, intended_at: row.stray_since as string }, this.#o.now, 0) !== "read") continue;
      const lookup = await this.#lookup(row, row.stray_since as string, row.ts);
      if (!lookup) return;
      const step = afterLookup(lookup, this.#o.now, this.#o.tier, jitterOf(row.key, this.#o.now));
      this.#set(row.key, step.write);
      if (step.outcome === "absent") this.#straysDone(row);
      else if ("found" in step.outcome) await this.#remove(row, step.outcome.found.ts);
    }
  }

  /** No second copy is looked for any more: an abandoned intent goes, a sent one stops searching. */
  #straysDone(row: OutboxRow): void {
    if (row.state === "abandoned") this.#write("DELETE FROM outbox WHERE key = ?", row.key);
    else this.#set(row.key, { stray_since: null, cursor: null, lookup_after: null });
  }

  /** Forgets sent keys past their use; called only on a poll that writes anyway. */
  prune(): void {
    const before = new Date(this.#o.now.getTime() - KEEP_SENT_MS).toISOString();
    this.#sql.exec("DELETE FROM outbox WHERE state = 'sent' AND intended_at < ?", before);
    this.#sql.exec("DELETE FROM outbox_removed WHERE removed_at < ?", before);
  }
}

/**
 * A channel object's outbox, for its outage messages and its reports: one table in the
 * object's SQLite, created on first use, no storage writes counted.
 */
export function channelOutbox(
  sql: SqlStorage,
  slack: SlackClient,
  team: OutboxConfig,
  where: { channel: string; now: Date; pace: HistoryPace | undefined; gate?: RichBlockGate },
): SqlOutbox {
  SqlOutbox.migrate(sql);
  return new SqlOutbox(sql, slack, {
    ...outboxSettings(team),
    ...where,
    writes: { storage: 0 },
    owner: CHANNEL_OWNER,
  });
}

type OutboxConfig = Pick<Config, "slackLookupAfterMs" | "slackHistoryTier">;

/** The outbox's settings that come from the configuration. */
export const outboxSettings = (config: OutboxConfig) => ({
  lookupAfterMs: config.slackLookupAfterMs,
  tier: HISTORY_TIERS[config.slackHistoryTier],
});
