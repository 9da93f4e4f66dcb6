/** What a failing test means in production, as the engine reads it and the messages show it. */

export type ImpactCollection = {
  id: number;
  rootCause: string;
  /** The collection's page (its `shortenedPath`). */
  path: string;
  /** Its session count: the stored one (at its last alert), or a fresher one the caller passed. */
  sessions: number;
  /** Sessions added in the last 24 h, when the caller knows (its poll this cycle); else null. */
  addedToday: number | null;
};

export type ImpactExample = {
  sessionId: string;
  createdAt: string;
  userEmail: string | null;
  hasTimeline: boolean;
  /** The AI overview, or null: no timeline, no budget for it, or the timeline request failed. */
  overview: string | null;
};

export type ProductionImpact = {
  unavailable: false;
  page: string;
  /** Start of the 24 h window, ISO. */
  since: string;
  /** Sessions on the page in the window, up to `IMPACT_SESSION_LIMIT`… */
  sessions: number;
  /** …and whether there were more ("100+"). */
  more: boolean;
  example: ImpactExample | null;
  collections: ImpactCollection[];
};

export type ImpactUnavailable = { unavailable: true; page: string; reason: string };

export type ImpactResult = ProductionImpact | ImpactUnavailable;
