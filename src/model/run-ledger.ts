/**
 * The run ledger: every run a test subscription has seen, with what became of it (its fate).
 * It is the source of truth for "was this failure told?": the read window, the watermark shown
 * in status and the overdue audit are all derived from it. No order is assumed between runs:
 * not by id, not by list order, not by `createdAt`, which is validated like any other field.
 *
 * A collection subscription keeps the same table. Its rows are the growth it alerted on
 * (status `grown`), keyed by the session count it grew from (what its alert's outbox key
 * names), with the same fates: announced, threaded, or counted while snoozed.
 */

/** What became of a run. Passes get a fate too, so a poll never looks at them again. */
export type Fate =
  /** Its own alert in the channel (`ts`). */
  | "announced"
  /** A reply in an open thread (`ts` the reply, `parentTs` the thread). */
  | "threaded"
  /** Named in a channel's outage message (`ts`, or the outage thread's reply naming it). */
  | "grouped"
  /** A pass that ended a failure streak (`ts` the reply or the edited parent). */
  | "recovered"
  /** Counted, not posted, for a reason the channel chose (`reason`), shown in status and the digest. */
  | "counted"
  /** Unreadable when it was due (`reason` says what); superseded if it later reads as failed. */
  | "quarantined"
  /** Already there when the channel subscribed. */
  | "baseline"
  /** A pass, or a run of another trigger, with nothing to tell. */
  | "quiet";

/** Why a failure was counted and not posted. */
export type CountedReason = "after" | "trigger" | "flaky-digest" | "snoozed" | "muted" | "paused";

/** The reason of a pass that was told as a failure first: Decipher reran that run under its id. */
export const RERUN_PASSED = "rerun";

export type RunStatus = "passed" | "failed" | "running" | "unreadable" | "grown";

export type LedgerRow = {
  id: number;
  status: RunStatus;
  /** The vendor's `createdAt` when it is a plausible time (see `plausibleTime`), else null. */
  createdAt: string | null;
  /** When this object first saw the run: the time every deadline counts from. */
  firstSeen: string;
  /** `triggeredBy`, for `trigger:` and the digest. */
  trigger: string | null;
  fate: Fate | null;
  /** The message that carries the fate. */
  ts: string | null;
  parentTs: string | null;
  reason: string | null;
  /** When the fate was recorded. */
  decidedAt: string | null;
};

/** A failed run with no fate this long after it was first seen is overdue: told late, and counted. */
export const OVERDUE_AFTER_MS = 5 * 60 * 1000;
/** Rows are kept at least this long (the digest's 24 h and a week's questions). */
export const LEDGER_KEEP_MS = 8 * 24 * 60 * 60 * 1000;

const FUTURE_SKEW_MS = 5 * 60 * 1000;
const OLDEST_PLAUSIBLE_MS = 400 * 24 * 60 * 60 * 1000;

/**
 * A vendor time taken as a time: it parses, is not in the future (beyond a few minutes of
 * clock skew) and not absurdly old. Anything else is kept out of every cursor and ordering.
 */
export function plausibleTime(value: string | null | undefined, now: Date): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return null;
  const age = now.getTime() - ms;
  return age >= -FUTURE_SKEW_MS && age <= OLDEST_PLAUSIBLE_MS ? new Date(ms).toISOString() : null;
}

/** The time a row is ordered and windowed by: its plausible `createdAt`, else when it was first seen. */
export function rowTime(row: Pick<LedgerRow, "createdAt" | "firstSeen">): number {
  return Date.parse(row.createdAt ?? row.firstSeen);
}

/** Oldest first, ties by id: the only order the engine uses, and only to tell a story in order. */
export function byRowTime(a: LedgerRow, b: LedgerRow): number {
  return rowTime(a) - rowTime(b) || a.id - b.id;
}

/** A row seen at `at` with no fate yet. */
export function undecidedRow(id: number, status: RunStatus, at: string): LedgerRow {
  return {
    id,
    status,
    createdAt: at,
    firstSeen: at,
    trigger: null,
    fate: null,
    ts: null,
    parentTs: null,
    reason: null,
    decidedAt: null,
  };
}

export function isOverdue(row: LedgerRow, now: Date): boolean {
  return (
    (row.status === "failed" || row.status === "grown") &&
    (row.fate === null || row.fate === "quarantined") &&
    now.getTime() - Date.parse(row.firstSeen) >= OVERDUE_AFTER_MS
  );
}

export function overdueCount(rows: readonly LedgerRow[], now: Date): number {
  return rows.filter((row) => isOverdue(row, now)).length;
}

/** Shown in status and counted in the digest: the failures the channel chose not to see. */
export function countedFailures(rows: readonly LedgerRow[], since: Date): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) {
    if (row.status !== "failed" || row.fate !== "counted" || rowTime(row) < since.getTime()) continue;
    const reason = row.reason ?? "other";
    out[reason] = (out[reason] ?? 0) + 1;
  }
  return out;
}
