import { DurableObject } from "cloudflare:workers";

/**
 * One per Slack team: the single place that answers, atomically, questions several isolates
 * may ask at once about that team's events.
 *
 * - "Is this event_id new?" Slack retries an event it thinks was not acknowledged; the retry
 *   can land on another isolate, so only a single writer can say "first" exactly once.
 * - Unfurl lookups, cached for 60 s: the Cache API does nothing on *.workers.dev (the deploy
 *   target) and KV is eventually consistent, so a link pasted ten times would cost ten lookups.
 *   Concurrent askers for the same key share one load (single flight).
 * - The hash of the App Home view last published per user, so an unchanged Home is not
 *   republished (views.publish is rate limited).
 *
 * SQLite-backed; expired rows are pruned by an alarm, so the tables stay small.
 */

/** Slack retries three times within about five minutes; an hour is a wide margin. */
export const EVENT_ID_TTL_MS = 60 * 60 * 1000;
export const LOOKUP_TTL_MS = 60 * 1000;
/** Home hashes expire so a view Slack lost (reinstall, cleared cache) is republished eventually. */
export const HOME_HASH_TTL_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

const SCHEMA = `CREATE TABLE IF NOT EXISTS events (event_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS lookups (key TEXT PRIMARY KEY, value TEXT, expires_at INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS home_views (user_id TEXT PRIMARY KEY, hash TEXT NOT NULL, expires_at INTEGER NOT NULL);`;

export class SlackEventGate extends DurableObject {
  readonly #sql: SqlStorage;
  readonly #inflight = new Map<string, Promise<string | null>>();

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.#sql = ctx.storage.sql;
    this.#sql.exec(SCHEMA);
  }

  /** True exactly once per event id (within the TTL), whichever isolate asks first. */
  async firstTime(eventId: string, now: number = Date.now()): Promise<boolean> {
    // Synchronous SQL with no await in between: no other request can interleave here.
    const seen = this.#sql
      .exec<{ expires_at: number }>("SELECT expires_at FROM events WHERE event_id = ?", eventId)
      .toArray()[0];
    if (seen && seen.expires_at > now) return false;
    this.#sql.exec(
      "INSERT OR REPLACE INTO events (event_id, expires_at) VALUES (?, ?)",
      eventId,
      now + EVENT_ID_TTL_MS,
    );
    await this.#schedulePrune(now);
    return true;
  }

  /** Forgets an event whose handling failed, so Slack's next retry may try again. */
  async forget(eventId: string): Promise<void> {
    this.#sql.exec("DELETE FROM events WHERE event_id = ?", eventId);
  }

  /**
   * The cached value of `key`, or what `load` returns (stored for `ttlMs`). `load` runs in the
   * caller's Worker (an RPC callback), so its vendor requests count against that invocation.
   * Concurrent callers for one key wait for the same load. `null` is a value too: "no unfurl"
   * is remembered as well, or an unknown id pasted ten times would cost ten lookups.
   */
  async cached(
    key: string,
    load: () => Promise<string | null>,
    ttlMs: number = LOOKUP_TTL_MS,
  ): Promise<string | null> {
    const now = Date.now();
    const row = this.#sql
      .exec<{ value: string | null }>("SELECT value FROM lookups WHERE key = ? AND expires_at > ?", key, now)
      .toArray()[0];
    if (row) return row.value;
    const pending = this.#inflight.get(key);
    if (pending) return pending;
    const loading = (async () => {
      try {
        const value = await load();
        this.#sql.exec(
          "INSERT INTO lookups (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
          key,
          value,
          Date.now() + ttlMs,
        );
        await this.#schedulePrune(Date.now());
        return value;
      } finally {
        this.#inflight.delete(key);
      }
    })();
    this.#inflight.set(key, loading);
    return loading;
  }

  /** True when `hash` is what this user's Home tab already shows. */
  async homeUnchanged(userId: string, hash: string, now: number = Date.now()): Promise<boolean> {
    const row = this.#sql
      .exec<{ hash: string }>("SELECT hash FROM home_views WHERE user_id = ? AND expires_at > ?", userId, now)
      .toArray()[0];
    return row?.hash === hash;
  }

  /** Records a successful publish (only then: a failed one must be retried at the next open). */
  async homePublished(userId: string, hash: string, now: number = Date.now()): Promise<void> {
    this.#sql.exec(
      "INSERT INTO home_views (user_id, hash, expires_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, expires_at = excluded.expires_at",
      userId,
      hash,
      now + HOME_HASH_TTL_MS,
    );
    await this.#schedulePrune(now);
  }

  /** Uninstall (src/objects/tenancy.ts): the team's event ids, cached lookups and Home hashes go. */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // The object lives on in this isolate: a reinstall's first event needs the tables again.
    this.#sql.exec(SCHEMA);
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    this.#sql.exec("DELETE FROM events WHERE expires_at <= ?", now);
    this.#sql.exec("DELETE FROM lookups WHERE expires_at <= ?", now);
    this.#sql.exec("DELETE FROM home_views WHERE expires_at <= ?", now);
    const left = this.#sql
      .exec<{ n: number }>(
        "SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM lookups) + (SELECT COUNT(*) FROM home_views) AS n",
      )
      .one().n;
    if (left > 0) await this.ctx.storage.setAlarm(now + PRUNE_EVERY_MS);
  }

  async #schedulePrune(now: number): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + PRUNE_EVERY_MS);
  }
}
