/** The counts of bench/day/counting.ts, shared with the Node side of `npm run bench:day`. */
export type Tally = {
  doRequests: Record<string, number>;
  rowsWritten: { sql: number; storageApi: number; alarms: number };
  /** The same rows written, by the binding of the objects that wrote them. */
  rowsWrittenBy: Record<string, number>;
  /** The same rows written, by object and what wrote them (`subscriptions: INSERT INTO runs`, `channels: put window`, `registry: setAlarm`). */
  rowsWrittenHow: Record<string, number>;
  rowsRead: { sql: number; storageApi: number };
  kv: { reads: number; writes: number; deletes: number; lists: number };
  vendor: number;
  slack: number;
  /** Worker invocations the harness made (the cron). */
  workerRequests: number;
};

export const zeroTally = (): Tally => ({
  doRequests: {},
  rowsWritten: { sql: 0, storageApi: 0, alarms: 0 },
  rowsWrittenBy: {},
  rowsWrittenHow: {},
  rowsRead: { sql: 0, storageApi: 0 },
  kv: { reads: 0, writes: 0, deletes: 0, lists: 0 },
  vendor: 0,
  slack: 0,
  workerRequests: 0,
});

export const doRequestsOf = (t: Tally) => Object.values(t.doRequests).reduce((a, b) => a + b, 0);
export const rowsWrittenOf = (t: Tally) =>
  t.rowsWritten.sql + t.rowsWritten.storageApi + t.rowsWritten.alarms;
export const rowsReadOf = (t: Tally) => t.rowsRead.sql + t.rowsRead.storageApi;

const sub = <T extends Record<string, number>>(x: T, y: T) =>
  Object.fromEntries(Object.keys({ ...x, ...y }).map((k) => [k, (x[k] ?? 0) - (y[k] ?? 0)])) as T;
const add = <T extends Record<string, number>>(x: T, y: T, f = 1) =>
  Object.fromEntries(Object.keys({ ...x, ...y }).map((k) => [k, (x[k] ?? 0) + f * (y[k] ?? 0)])) as T;

/** `a - b`, field by field. */
export function minus(a: Tally, b: Tally): Tally {
  return {
    // A kind of request with none in between is left out.
    doRequests: Object.fromEntries(
      Object.entries(sub(a.doRequests, b.doRequests)).filter(([, v]) => v !== 0),
    ),
    rowsWritten: sub(a.rowsWritten, b.rowsWritten),
    rowsWrittenBy: sub(a.rowsWrittenBy, b.rowsWrittenBy),
    rowsWrittenHow: sub(a.rowsWrittenHow ?? {}, b.rowsWrittenHow ?? {}),
    rowsRead: sub(a.rowsRead, b.rowsRead),
    kv: sub(a.kv, b.kv),
    vendor: a.vendor - b.vendor,
    slack: a.slack - b.slack,
    workerRequests: a.workerRequests - b.workerRequests,
  };
}

/** `a + f × b`, field by field. */
export function plus(a: Tally, b: Tally, f = 1): Tally {
  return {
    doRequests: add(a.doRequests, b.doRequests, f),
    rowsWritten: add(a.rowsWritten, b.rowsWritten, f),
    rowsWrittenBy: add(a.rowsWrittenBy, b.rowsWrittenBy, f),
    rowsWrittenHow: add(a.rowsWrittenHow ?? {}, b.rowsWrittenHow ?? {}, f),
    rowsRead: add(a.rowsRead, b.rowsRead, f),
    kv: add(a.kv, b.kv, f),
    vendor: a.vendor + f * b.vendor,
    slack: a.slack + f * b.slack,
    workerRequests: a.workerRequests + f * b.workerRequests,
  };
}
