/**
 * The outbox's tables (src/objects/sql-outbox.ts). Columns added since the first version are
 * added to an object's existing table on its first use after a deploy.
 */
const COLUMNS_SINCE = ["cursor TEXT", "lookup_after TEXT", "stray_since TEXT", "text_only INTEGER"];

export function migrateOutbox(sql: SqlStorage): void {
  sql.exec(
    "CREATE TABLE IF NOT EXISTS outbox (key TEXT PRIMARY KEY, state TEXT NOT NULL, ts TEXT, thread_ts TEXT, intended_at TEXT NOT NULL)",
  );
  const have = new Set(
    sql
      .exec<{ name: string }>("PRAGMA table_info(outbox)")
      .toArray()
      .map((c) => c.name),
  );
  for (const column of COLUMNS_SINCE) {
    if (!have.has(column.split(" ")[0] as string)) sql.exec(`ALTER TABLE outbox ADD COLUMN ${column}`);
  }
  sql.exec(
    "CREATE TABLE IF NOT EXISTS outbox_removed (key TEXT NOT NULL, ts TEXT NOT NULL, removed_at TEXT NOT NULL)",
  );
}
