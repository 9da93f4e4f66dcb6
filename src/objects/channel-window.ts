import type { PollMode } from "../engine/poll-context.ts";
import type { HeldFailure } from "../model/held-failure.ts";

// The outage window's stored shapes (src/objects/channel-object.ts is their one writer).

/** A new failure a test handed to this channel's outage window, waiting for the decision. */
export type Hold = { name: string; item: HeldFailure; at: string };
/** The window: which channel, and the held failures by run id (in this object's storage, one writer). */
export type Window = {
  channelId: string;
  teamId: string;
  holds: Record<string, Hold>;
  /** The channel's other tests asked to poll now that have not answered yet. */
  waitingFor?: string[];
  /**
   * Opened by a poll of the team's clock, which is polling the channel's other tests at the
   * same time: none is asked, and the window closes at its full length.
   */
  byClock?: boolean;
};
/**
 * What was decided for a held run (by run id): the outage message that names it, or null for
 * alone. A run is decided once: a test that holds it again (its telling failed, or another
 * cycle saw it too) is told the same, so no run is ever both named and told alone.
 */
export type Decided = Record<string, { ts: string | null; at: string; passedNext?: boolean }>;
/** Decisions are kept this long: a run unfated for longer is overdue, and its object asks again (`claim`). */
export const DECIDED_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

/** How a decided run is told: in the message `ts` (its pass there too, when it named one), or alone. */
export const modeOf = (runId: number, ts: string | null, passedNext = false): PollMode =>
  ts
    ? { told: true, group: { ts, runIds: [runId], ...(passedNext ? { passedNext: [runId] } : {}) } }
    : { told: true };
