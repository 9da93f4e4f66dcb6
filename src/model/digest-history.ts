/**
 * The daily figures each digest already read, kept per channel for 14 local days so the next
 * digests can chart them without asking Decipher again. Pure: the channel's object stores the
 * result with its digest schedule (src/model/digest-schedule.ts).
 */

export const HISTORY_DAYS = 14;

export type DigestDay = {
  /** The channel's local date, `YYYY-MM-DD`. */
  date: string;
  /** The channel's tests together: settled runs in the 24 h before the digest, and failures among them. */
  tests: { settled: number; failures: number };
  /** Per collection id: sessions with issues in those 24 h (a floor when the read was capped). */
  collections: Record<string, number>;
};

const isDate = (v: unknown): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** A stored day is used only when it reads whole: history from an older or corrupt copy is skipped. */
export function isDigestDay(value: unknown): value is DigestDay {
  if (typeof value !== "object" || value === null) return false;
  const day = value as Partial<DigestDay>;
  return (
    isDate(day.date) &&
    typeof day.tests === "object" &&
    day.tests !== null &&
    isCount(day.tests.settled) &&
    isCount(day.tests.failures) &&
    typeof day.collections === "object" &&
    day.collections !== null &&
    Object.values(day.collections).every(isCount)
  );
}

/**
 * The history with `day` in it: a second digest on the same local date replaces that date's
 * figures, days are kept oldest first, and only the last `HISTORY_DAYS` dates stay.
 */
export function recordDay(history: readonly unknown[] | undefined, day: DigestDay): DigestDay[] {
  const byDate = new Map<string, DigestDay>();
  for (const d of history ?? []) if (isDigestDay(d)) byDate.set(d.date, d);
  byDate.set(day.date, day);
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date)).slice(-HISTORY_DAYS);
}
