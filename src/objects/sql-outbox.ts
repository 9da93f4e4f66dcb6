import type { Outbox } from "../engine/outbox.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { findPosted } from "../slack-api/find-posted.ts";
import { type PostResult, post, type RichBlockGate, update } from "../slack-api/post-message.ts";
import type { SlackClient } from "../slack-api/slack-client.ts";

/** Sent keys are remembered this long: longer than any run stays in a poll's window. */
const KEEP_SENT_MS = 8 * 24 * 60 * 60 * 1000;

type Row = {
  key: string;
  state: "intended" | "unknown" | "sent";
  ts: string | null;
  thread_ts: string | null;
  intended_at: string;
};

/** Writes made through the outbox, counted for the idle-poll promise (no write when nothing happens). */
export type WriteCounter = { storage: number };

/** The outbox of one Durable Object, in its SQLite storage (see src/engine/outbox.ts). */
export class SqlOutbox implements Outbox {
  readonly #sql: SqlStorage;
  readonly #slack: SlackClient;
  readonly #channel: string;
  readonly #now: Date;
  readonly #writes: WriteCounter;
  /**
   * An unknown outcome younger than this is not looked up yet: Slack may still be storing a
   * post whose answer we stopped waiting for (`SLACK_LOOKUP_AFTER_MS`, 30 s by default, past
   * the client's 10 s deadline).
   */
  readonly #lookupAfterMs: number;
  /** Whether the workspace takes charts and tables (src/engine/rich-block-gate.ts). */
  readonly #gate: RichBlockGate | undefined;

  static migrate(sql: SqlStorage): void {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS outbox (key TEXT PRIMARY KEY, state TEXT NOT NULL, ts TEXT, thread_ts TEXT, intended_at TEXT NOT NULL)",
    );
  }

  constructor(
    sql: SqlStorage,
    slack: SlackClient,
    channel: string,
    now: Date,
    writes: WriteCounter,
    lookupAfterMs = 30_000,
    gate?: RichBlockGate,
  ) {
    this.#gate = gate;
    this.#lookupAfterMs = lookupAfterMs;
    this.#sql = sql;
    this.#slack = slack;
    this.#channel = channel;
    this.#now = now;
    this.#writes = writes;
  }

  #row(key: string): Row | null {
    return (
      (this.#sql.exec<Row>("SELECT * FROM outbox WHERE key = ?", key).toArray()[0] as Row | undefined) ?? null
    );
  }

  #write(query: string, ...args: (string | null)[]): void {
    this.#sql.exec(query, ...args);
    this.#writes.storage++;
  }

  async send(key: string, message: SlackMessage, threadTs?: string): Promise<PostResult> {
    const row = this.#row(key);
    // Sent before (by a poll that died before recording it, or decided again since): its ts,
    // and whether it is in the place this decision wants, so the caller can bring it up to date.
    const earlier = row !== null && row.thread_ts === (threadTs ?? null);
    if (row?.state === "sent" && row.ts) return { ok: true, ts: row.ts, earlier };
    if (row) {
      const found = await this.resolve(row);
      if (found !== "absent") return found.ok ? { ...found, earlier } : found;
    }
    this.#write(
      "INSERT OR REPLACE INTO outbox (key, state, ts, thread_ts, intended_at) VALUES (?, 'intended', NULL, ?, ?)",
      key,
      threadTs ?? null,
      this.#now.toISOString(),
    );
    const result = await post(this.#slack, this.#channel, message, threadTs, key, this.#gate);
    if (result.ok) this.#write("UPDATE outbox SET state = 'sent', ts = ? WHERE key = ?", result.ts, key);
    else if (result.failure.kind === "unknown")
      this.#write("UPDATE outbox SET state = 'unknown' WHERE key = ?", key);
    // Slack answered no: nothing was posted, so the intent goes and the key may be sent later.
    else this.#write("DELETE FROM outbox WHERE key = ?", key);
    return result;
  }

  edit(ts: string, message: SlackMessage): Promise<PostResult> {
    return update(this.#slack, this.#channel, ts, message, this.#gate);
  }

  /**
   * Settles an intent whose outcome is unknown by looking its key up in Slack: found → sent
   * (with its ts); not there → "absent", free to send. Too young to tell, or the lookup
   * failed → still unknown, and nothing is sent.
   */
  async resolve(row: Row): Promise<PostResult | "absent"> {
    const intended = new Date(row.intended_at);
    if (this.#now.getTime() - intended.getTime() < this.#lookupAfterMs)
      return { ok: false, failure: { kind: "unknown", code: "awaiting_lookup" } };
    const lookup = await findPosted(this.#slack, this.#channel, row.key, intended, row.thread_ts);
    if ("failed" in lookup) {
      // A scope or token refusal concerns the workspace (status and /health show it); anything
      // else leaves the outcome unknown.
      const kind =
        lookup.failed.kind === "deferred" || lookup.failed.kind === "workspace"
          ? lookup.failed.kind
          : "unknown";
      return { ok: false, failure: { kind, code: `lookup_${lookup.failed.code}` } };
    }
    if (lookup.found) {
      this.#write("UPDATE outbox SET state = 'sent', ts = ? WHERE key = ?", lookup.ts, row.key);
      return { ok: true, ts: lookup.ts, ...(lookup.textOnly ? { textOnly: true } : {}) };
    }
    return "absent";
  }

  /**
   * Settles one unknown key without sending: its ts (Slack has it), "absent" (it does not; the
   * intent is dropped, so the key may be sent later), or "unknown" (too young, or the lookup failed).
   */
  async settle(key: string): Promise<{ ts: string; textOnly?: boolean } | "absent" | "unknown"> {
    const row = this.#row(key);
    if (!row) return "absent";
    if (row.state === "sent" && row.ts) return { ts: row.ts };
    const result = await this.resolve(row);
    if (result === "absent") {
      this.#write("DELETE FROM outbox WHERE key = ?", key);
      return "absent";
    }
    return result.ok ? { ts: result.ts, ...(result.textOnly ? { textOnly: true } : {}) } : "unknown";
  }

  /** Keys whose outcome is still unknown: shown in status until the next poll settles them. */
  unknown(): { key: string; at: string }[] {
    return this.#sql
      .exec<Row>("SELECT * FROM outbox WHERE state != 'sent' ORDER BY intended_at")
      .toArray()
      .map((r) => ({ key: r.key, at: r.intended_at }));
  }

  keys(): Set<string> {
    return new Set(
      this.#sql
        .exec<{ key: string }>("SELECT key FROM outbox")
        .toArray()
        .map((r) => r.key),
    );
  }

  /**
   * Looks up, at most `limit` at a time (history reads are rate-limited), the unknown intents
   * no decision asks for again; a key Slack does not have is dropped, since whatever needed
   * it decides again from its own state.
   */
  async sweep(limit: number): Promise<number> {
    const stale = this.#sql
      .exec<Row>("SELECT * FROM outbox WHERE state != 'sent' ORDER BY intended_at LIMIT ?", limit)
      .toArray();
    let settled = 0;
    for (const row of stale) {
      const result = await this.resolve(row);
      if (result === "absent") this.#write("DELETE FROM outbox WHERE key = ?", row.key);
      if (result === "absent" || result.ok) settled++;
    }
    return settled;
  }

  /** Forgets sent keys past their use; called only on a poll that writes anyway. */
  prune(): void {
    const before = new Date(this.#now.getTime() - KEEP_SENT_MS).toISOString();
    this.#sql.exec("DELETE FROM outbox WHERE state = 'sent' AND intended_at < ?", before);
  }
}

/**
 * A channel object's outbox, for its outage messages and its reports: one table in the
 * object's SQLite, created on first use, no storage writes counted.
 */
export function channelOutbox(
  sql: SqlStorage,
  slack: SlackClient,
  channelId: string,
  now: Date,
  lookupAfterMs: number,
  gate?: RichBlockGate,
): SqlOutbox {
  SqlOutbox.migrate(sql);
  return new SqlOutbox(sql, slack, channelId, now, { storage: 0 }, lookupAfterMs, gate);
}
