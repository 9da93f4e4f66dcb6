import { runInDurableObject } from "cloudflare:test";

/**
 * Rows an object writes, as Cloudflare bills them (docs/cloudflare-limits.md): each SQL
 * statement's `rowsWritten` (index rows included), each key put or deleted, each `setAlarm` or
 * `deleteAlarm`. `by` keeps them by what wrote them (the statement's first words, `put <key>`,
 * `setAlarm`), so a test can say where the rows go.
 */
export type RowsWritten = { total: number; by: Record<string, number>; pending: [string, Cursor][] };

export const noRows = (): RowsWritten => ({ total: 0, by: {}, pending: [] });

/** Adds up the statements run so far: a cursor's `rowsWritten` is final once it was read. */
export function settled(tally: RowsWritten): RowsWritten {
  for (const [what, cursor] of tally.pending) add(tally, what, cursor.rowsWritten);
  tally.pending = [];
  return tally;
}

function add(tally: RowsWritten, what: string, rows: number) {
  if (rows === 0) return;
  tally.total += rows;
  tally.by[what] = (tally.by[what] ?? 0) + rows;
}

type Cursor = { rowsWritten: number };

/** Counts, from now on, what the object behind `stub` writes into `into` (until it is evicted). */
export async function countRowsWritten(stub: DurableObjectStub, into: RowsWritten): Promise<void> {
  await runInDurableObject(stub, (_instance, state) => {
    const storage = state.storage as unknown as Record<string, unknown> & { __rowsCounted?: RowsWritten };
    if (storage.__rowsCounted) {
      // Counted already: later writes go to the newest tally.
      storage.__rowsCounted = into;
      return;
    }
    storage.__rowsCounted = into;
    const count = (what: string, rows: number) => add(storage.__rowsCounted as RowsWritten, what, rows);
    const keysOf = (arg: unknown) =>
      typeof arg === "string" ? [arg] : Array.isArray(arg) ? (arg as string[]) : Object.keys(arg as object);
    for (const name of ["put", "delete"] as const) {
      const real = (storage[name] as (...a: unknown[]) => unknown).bind(state.storage);
      storage[name] = (...args: unknown[]) => {
        for (const key of keysOf(args[0])) count(`${name} ${key}`, 1);
        return real(...args);
      };
    }
    // The platform clears an alarm as it fires it, unbilled: `fireAlarm` does so without a count.
    storage.__clearFiredAlarm = state.storage.deleteAlarm.bind(state.storage);
    for (const name of ["setAlarm", "deleteAlarm"] as const) {
      const real = (storage[name] as (...a: unknown[]) => unknown).bind(state.storage);
      storage[name] = (...args: unknown[]) => {
        count(name, 1);
        return real(...args);
      };
    }
    const sql = state.storage.sql as unknown as { exec: (...a: unknown[]) => Cursor };
    const exec = sql.exec.bind(sql);
    sql.exec = (...args: unknown[]) => {
      const cursor = exec(...args);
      const what = String(args[0]).replace(/\s+/g, " ").trim().slice(0, 48);
      (storage.__rowsCounted as RowsWritten).pending.push([what, cursor]);
      return cursor;
    };
  });
}

/** Clears the object's alarm as the platform does when it fires it (uncounted); false when it has none. */
export function clearFiredAlarm(stub: DurableObjectStub): Promise<boolean> {
  return runInDurableObject(stub, async (_instance, state) => {
    if ((await state.storage.getAlarm()) === null) return false;
    const clear = (state.storage as unknown as { __clearFiredAlarm?: () => Promise<void> }).__clearFiredAlarm;
    await (clear ? clear() : state.storage.deleteAlarm());
    return true;
  });
}

/** Runs the object's alarm as the platform fires it (runDurableObjectAlarm's own clearing uncounted). */
export async function fireAlarm(stub: DurableObjectStub): Promise<boolean> {
  if (!(await clearFiredAlarm(stub))) return false;
  await runInDurableObject(stub, (instance: unknown) => (instance as { alarm: () => Promise<void> }).alarm());
  return true;
}
