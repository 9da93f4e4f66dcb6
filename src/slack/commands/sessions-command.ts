import type { SlackEdgeAppEnv, SlackRequestWithRespond, SlashCommand } from "slack-edge";
import type { Deps } from "../../deps.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { SessionSummary, TimelineBody } from "../../vendor/types.ts";
import { encodeMoreValue } from "../blocks/action-ids.ts";
import { errorMessage, noSessionsMessage, sessionsMessage, usageMessage } from "../blocks/index.ts";
import { respond } from "../respond.ts";
import { vendorErrorSentence } from "../vendor-error-message.ts";
import { CommandInputError } from "./parse-error.ts";
import { describeSessionsQuery, parseSessionsQuery, type SessionsQuery } from "./sessions-query.ts";

type Request = SlackRequestWithRespond<SlackEdgeAppEnv, SlashCommand>;

/** Cards per reply: five cards with their buttons stay well inside 50 blocks. */
export const SESSIONS_PAGE_SIZE = 5;
const TIMELINE_CONCURRENCY = 3;
/** A late overview is left out rather than holding the whole reply past Slack's patience. */
const TIMELINE_DEADLINE_MS = 4_000;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([work.catch(() => null), late]).finally(() => clearTimeout(timer));
}

/** Fetches a page of sessions and the timelines of those that have one, then renders them. */
export async function renderSessionsPage(deps: Deps, query: SessionsQuery, cursor?: string) {
  const page = await deps.vendor.listSessions({
    ...query.filter,
    ...(query.since ? { since: query.since } : {}),
    ...(query.until ? { until: query.until } : {}),
    limit: SESSIONS_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  const subject = describeSessionsQuery(query);
  if (page.data.length === 0) return noSessionsMessage(subject);
  const timelines = await fetchTimelines(deps, page.data);
  const more =
    page.hasMore && page.nextCursor
      ? encodeMoreValue({
          query: {
            ...query.filter,
            ...(query.since ? { since: query.since.toISOString() } : {}),
            ...(query.until ? { until: query.until.toISOString() } : {}),
          },
          cursor: page.nextCursor,
        })
      : null;
  return sessionsMessage({
    sessions: page.data,
    timelines,
    subject,
    appUrl: deps.config.decipherAppUrl,
    now: deps.now(),
    ...(more ? { more } : {}),
  });
}

/** A missing or failing timeline only costs that card its overview. */
async function fetchTimelines(
  deps: Deps,
  sessions: SessionSummary[],
): Promise<Record<string, TimelineBody | null>> {
  const withTimeline = sessions.filter((s) => s.hasTimeline);
  const fetched = await mapLimit(withTimeline, TIMELINE_CONCURRENCY, (s) =>
    withDeadline(deps.vendor.getSessionTimeline(s.id), TIMELINE_DEADLINE_MS),
  );
  return Object.fromEntries(withTimeline.map((s, i) => [s.id, fetched[i] ?? null]));
}

/** `/sessions …`: answers bad input at once; otherwise acks and replies through `response_url`. */
export const sessionsCommand = {
  ack: async (req: Request, deps: Deps) => {
    try {
      const query = parseSessionsQuery(req.payload.text ?? "", deps.now());
      return {
        response_type: "ephemeral" as const,
        text: `Looking up sessions for ${describeSessionsQuery(query)}…`,
      };
    } catch (error) {
      if (error instanceof CommandInputError)
        return { response_type: "ephemeral" as const, ...usageMessage(error.message) };
      throw error;
    }
  },
  lazy: async (req: Request, deps: Deps) => {
    let query: SessionsQuery;
    try {
      query = parseSessionsQuery(req.payload.text ?? "", deps.now());
    } catch {
      return; // the ack already explained it
    }
    const message = await renderSessionsPage(deps, query).catch((error: unknown) =>
      errorMessage(vendorErrorSentence(error)),
    );
    await respond(req.payload.response_url, message, { replaceOriginal: true });
  },
};
