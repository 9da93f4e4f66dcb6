import type { DigestDay } from "./digest-history.ts";

/** A channel's daily digest, as its channel object keeps it (and mirrors to KV). */
export type DigestSchedule = {
  /** Local wall-clock time, `HH:MM`. */
  time: string;
  /** IANA zone, e.g. `Europe/Berlin`. */
  zone: string;
  /** The next instant a digest is owed (ISO). */
  nextDueAt: string;
  lastSentAt: string | null;
  /** Session counts at the last digest, to show change since then. */
  collectionCounts: Record<string, number>;
  /** The figures of the last 14 digests, oldest first (src/model/digest-history.ts); absent on older copies. */
  history?: DigestDay[];
};
