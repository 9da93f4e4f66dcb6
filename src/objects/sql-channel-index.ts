import { type IndexEntry, indexEntry, sortEntries } from "../model/channel-index.ts";
import { type Subscription, storedSubscription } from "../model/subscription.ts";

/** Marks that a channel's index holds every subscription its KV copies had when it was first read. */
const FILLED = "index-filled";

/** An index row as stored, its subscription in today's words. */
function storedEntry(json: string): IndexEntry {
  const entry = JSON.parse(json) as IndexEntry;
  return { ...entry, subscription: storedSubscription(entry.subscription) };
}

/**
 * A channel's index of its subscriptions (src/model/channel-index.ts) in its ChannelObject's
 * SQLite storage: one row per subscription, written only by that subscription's object when
 * what the index shows of it changed. Every method is synchronous, so no other request of the
 * object interleaves with one.
 */
export class SqlChannelIndex {
  readonly #sql: SqlStorage;

  static migrate(sql: SqlStorage): void {
    sql.exec("CREATE TABLE IF NOT EXISTS channel_index (key TEXT PRIMARY KEY, entry TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS channel_index_marks (mark TEXT PRIMARY KEY)");
  }

  constructor(sql: SqlStorage) {
    SqlChannelIndex.migrate(sql);
    this.#sql = sql;
  }

  #get(key: string): IndexEntry | null {
    const row = this.#sql
      .exec<{ entry: string }>("SELECT entry FROM channel_index WHERE key = ?", key)
      .toArray()[0];
    return row ? storedEntry(row.entry) : null;
  }

  /** The subscription's row, keeping its last alert when the subscription no longer names one. */
  put(sub: Subscription, now: Date): IndexEntry {
    const entry = indexEntry(sub, now, this.#get(indexEntry(sub, now).key));
    this.#sql.exec(
      "INSERT INTO channel_index (key, entry) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET entry = excluded.entry",
      entry.key,
      JSON.stringify(entry),
    );
    return entry;
  }

  remove(key: string): void {
    this.#sql.exec("DELETE FROM channel_index WHERE key = ?", key);
    // Until the index is filled, a removal must outlive the (possibly stale) KV copy `fill` reads.
    if (!this.filled)
      this.#sql.exec("INSERT OR IGNORE INTO channel_index_marks (mark) VALUES (?)", `removed:${key}`);
  }

  entries(): IndexEntry[] {
    const rows = this.#sql.exec<{ entry: string }>("SELECT entry FROM channel_index").toArray();
    return sortEntries(rows.map((r) => storedEntry(r.entry)));
  }

  get filled(): boolean {
    return this.#sql.exec("SELECT mark FROM channel_index_marks WHERE mark = ?", FILLED).toArray().length > 0;
  }

  /**
   * Adds the subscriptions that existed before the index (their KV copies), once per channel;
   * a row a subscription object wrote meanwhile is newer and stays.
   */
  fill(subscriptions: readonly Subscription[], now: Date): void {
    const removed = new Set(
      this.#sql
        .exec<{ mark: string }>("SELECT mark FROM channel_index_marks WHERE mark LIKE 'removed:%'")
        .toArray()
        .map((r) => r.mark.slice("removed:".length)),
    );
    for (const sub of subscriptions) {
      const entry = indexEntry(sub, now);
      if (removed.has(entry.key)) continue;
      this.#sql.exec(
        "INSERT OR IGNORE INTO channel_index (key, entry) VALUES (?, ?)",
        entry.key,
        JSON.stringify(entry),
      );
    }
    this.#sql.exec("DELETE FROM channel_index_marks WHERE mark LIKE 'removed:%'");
    this.#sql.exec("INSERT OR IGNORE INTO channel_index_marks (mark) VALUES (?)", FILLED);
  }
}
