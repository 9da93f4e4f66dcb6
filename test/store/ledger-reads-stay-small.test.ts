import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SqlRunLedger } from "../../src/objects/sql-run-ledger.ts";
import { ledgerRow } from "../helpers/ledger-rows.ts";

// Issue #35: each poll reads its test's run ledger. Read by a full scan, rows read grow with the
// ledger (8 days of runs): `npm run bench:day` counted 96,000 rows read a subscription on a
// first day, and a ledger holding a week reads several times that, past the Free plan's
// 5,000,000 a day with some twenty subscriptions. What a poll reads must not grow with the
// runs that are old and settled.

const HOUR = 3_600_000;

/** The SQL storage, adding up what its statements read. */
function counting(sql: SqlStorage) {
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
  const wrapped = new Proxy(sql, {
    get(target, prop) {
      if (prop !== "exec") return Reflect.get(target, prop, target);
      return (query: string, ...bindings: SqlStorageValue[]) => {
        const cursor = target.exec(query, ...bindings);
        cursors.push(cursor);
        return cursor;
      };
    },
  });
  return { sql: wrapped, rowsRead: () => cursors.reduce((n, c) => n + c.rowsRead, 0) };
}

const row = ledgerRow;

describe("a poll's read of the run ledger", () => {
  it("reads the day's rows and the unsettled ones, not a week of settled runs", async () => {
    const stub = env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(`ledger-reads-${crypto.randomUUID()}`));
    const now = Date.now();
    const read = await runInDurableObject(stub, (_i, state) => {
      SqlRunLedger.migrate(state.storage.sql);
      const ledger = new SqlRunLedger(state.storage.sql, { storage: 0 });
      // A week of hourly runs, settled, then today's 24 and one still running.
      const week = Array.from({ length: 24 * 7 }, (_, i) => row(1_000 + i, now - 8 * 24 * HOUR + i * HOUR));
      const today = Array.from({ length: 24 }, (_, i) => row(5_000 + i, now - 23.5 * HOUR + i * HOUR));
      ledger.save([...week, ...today, row(9_000, now - 60_000, { status: "running", fate: null })]);
      const meter = counting(state.storage.sql);
      const rows = new SqlRunLedger(meter.sql, { storage: 0 }).recent(new Date(now), 24 * HOUR);
      const unsettled = new SqlRunLedger(meter.sql, { storage: 0 }).recent(new Date(now), 0);
      return { rows: rows.length, unsettled: unsettled.length, rowsRead: meter.rowsRead() };
    });
    expect(read.rows).toBe(25);
    expect(read.unsettled).toBe(1);
    // The two reads return 26 rows; an index reads a few more, a full scan 386.
    expect(read.rowsRead).toBeLessThan(60);
  });
});
