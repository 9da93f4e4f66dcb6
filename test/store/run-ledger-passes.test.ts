import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import { SqlRunLedger } from "../../src/objects/sql-run-ledger.ts";
import { ledgerRow, storeAsBefore } from "../helpers/ledger-rows.ts";

// Issue #35: a quiet pass is kept in a ring of buckets (src/objects/sql-pass-buckets.ts), one
// row written and none deleted, while every other row stays in `runs`, and the rows an object
// deployed before it holds in `runs` stay there until they age out. Every reader sees both.

const HOUR = 3_600_000;
const now = Date.parse("2026-11-20T12:00:00.000Z");

const row = ledgerRow;
const failed = (id: number, at: number) => row(id, at, { status: "failed", fate: "announced", ts: "1.1" });

/** Runs `work` on a fresh test object's ledger; `old` rows are stored in `runs` as the ledger before #35 stored them. */
function onLedger<T>(
  old: readonly LedgerRow[],
  work: (ledger: SqlRunLedger, sql: SqlStorage) => T,
): Promise<T> {
  const stub = env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(`ledger-passes-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_i, state) => {
    const sql = state.storage.sql;
    SqlRunLedger.migrate(sql);
    for (const r of old) storeAsBefore(sql, r);
    return work(new SqlRunLedger(sql, { storage: 0 }), sql);
  });
}

const ids = (rows: readonly LedgerRow[]) => rows.map((r) => r.id).sort((a, b) => a - b);

describe("the run ledger's quiet passes (issue #35)", () => {
  it("reads the rows an older deployment stored beside the passes kept in buckets, and rewrites none of them", async () => {
    const old = Array.from({ length: 48 }, (_, i) => row(100 + i, now - 60 * HOUR + i * HOUR));
    const seen = await onLedger(old, (ledger, sql) => {
      const fresh = [row(500, now - 5 * HOUR), row(501, now - 2 * HOUR), failed(502, now - HOUR)];
      ledger.save(fresh);
      const kept = sql.exec("SELECT COUNT(*) AS n FROM runs").one().n;
      return {
        day: ledger.recent(new Date(now), 24 * HOUR),
        week: ledger.recent(new Date(now), 8 * 24 * HOUR),
        kept,
      };
    });
    // The old rows are where they were (48), beside the failure; the passes are not in `runs`.
    expect(seen.kept).toBe(49);
    expect(ids(seen.day)).toEqual([
      ...Array.from({ length: 48 }, (_, i) => 100 + i).filter(
        (id) => now - 60 * HOUR + (id - 100) * HOUR >= now - 24 * HOUR,
      ),
      500,
      501,
      502,
    ]);
    expect(seen.week).toHaveLength(51);
    expect(seen.day.find((r) => r.id === 501)).toEqual(row(501, now - 2 * HOUR));
  });

  it("writes one row for a quiet pass, and none to make room for it", async () => {
    const written = await onLedger([], (ledger, sql) => {
      ledger.save(Array.from({ length: 8 * 24 }, (_, i) => row(1_000 + i, now - 8 * 24 * HOUR + i * HOUR)));
      const cursors: { rowsWritten: number }[] = [];
      const exec = sql.exec.bind(sql);
      const counted = new Proxy(sql, {
        get: (target, prop) =>
          prop === "exec"
            ? (...a: Parameters<SqlStorage["exec"]>) => {
                const c = exec(...a);
                cursors.push(c);
                return c;
              }
            : Reflect.get(target, prop, target),
      });
      const next = new SqlRunLedger(counted, { storage: 0 });
      next.save([row(2_000, now - 60_000)]);
      next.prune(new Date(now));
      return cursors.reduce((n, c) => n + c.rowsWritten, 0);
    });
    expect(written).toBe(1);
  });

  it("ends an older failing streak at a pass kept in a bucket, as at a pass in `runs`", async () => {
    const streak = await onLedger([failed(1, now - 40 * HOUR)], (ledger) => {
      ledger.save([row(2, now - 36 * HOUR), failed(3, now - 30 * HOUR), failed(4, now - 28 * HOUR)]);
      return {
        afterPass: ledger.failingBefore(now - 24 * HOUR, 50),
        beforePass: ledger.failingBefore(now - 37 * HOUR, 50),
      };
    });
    expect(streak.afterPass.map((r) => r.id)).toEqual([4, 3]);
    expect(streak.beforePass.map((r) => r.id)).toEqual([1]);
  });

  it("finds a pass read again by the time its run is stamped with, and keeps one row for a run saved again with a fate", async () => {
    const at = now - 30 * HOUR;
    const read = await onLedger([], (ledger, sql) => {
      ledger.save([row(7, at)]);
      const again = new SqlRunLedger(sql, { storage: 0 });
      const found = again.byIds([7], () => at);
      const unknown = again.byIds([7]);
      // Decipher reran it under its id and it failed: the row moves to `runs`, and leaves its bucket.
      again.save([failed(7, at)]);
      return { found, unknown, week: ledger.recent(new Date(now), 8 * 24 * HOUR) };
    });
    expect(read.found).toEqual([row(7, at)]);
    expect(read.unknown).toEqual([]);
    expect(read.week).toEqual([failed(7, at)]);
  });

  it("moves a run seen running to its bucket when it passes quietly, and reads it once", async () => {
    const at = now - 2 * HOUR;
    const read = await onLedger([], (ledger, sql) => {
      ledger.save([row(8, at, { status: "running", fate: null, decidedAt: null })]);
      ledger.save([row(8, at)]);
      const inRuns = sql.exec("SELECT COUNT(*) AS n FROM runs").one().n;
      return { inRuns, day: ledger.recent(new Date(now), 24 * HOUR), found: ledger.byIds([8], () => at) };
    });
    expect(read.inRuns).toBe(0);
    expect(read.day).toEqual([row(8, at)]);
    expect(read.found).toEqual([row(8, at)]);
  });

  it("keeps a pass older than the ring holds in `runs`, never over newer passes", async () => {
    const week = await onLedger([], (ledger) => {
      ledger.save([row(1, now - HOUR)]);
      // Stamped 9 days before, in the slot the newest pass now holds.
      ledger.save([row(2, now - HOUR - 9 * 24 * HOUR)]);
      return ledger.recent(new Date(now), 10 * 24 * HOUR);
    });
    expect(ids(week)).toEqual([1, 2]);
  });
});
