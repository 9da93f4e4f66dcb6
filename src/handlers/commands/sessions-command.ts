import type { SlackEdgeAppEnv, SlackRequestWithRespond, SlashCommand } from "slack-edge";
import type { SessionSummary, TimelineBody } from "../../decipher/types.ts";
import { encodeMoreValue } from "../../messages/button-values.ts";
import { errorMessage, usageMessage } from "../../messages/help.ts";
import type { AskedIn } from "../../messages/sessions-reply.ts";
import { noSessionsMessage, sessionsMessage } from "../../messages/sessions-reply.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { reply } from "../../slack-api/respond.ts";
import { withDeadline } from "../../util/deadline.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { Deps } from "../../wiring.ts";
import { perRequest } from "../per-request.ts";
import {
  describeSessionSearch,
  parseSessionSearch,
  type SessionSearch,
  toSearchValue,
} from "./sessions-query.ts";

type Request = SlackRequestWithRespond<SlackEdgeAppEnv, SlashCommand>;

/** Cards per reply: five cards with their buttons stay well inside 50 blocks. */
export const SESSIONS_PAGE_SIZE = 5;
const TIMELINE_CONCURRENCY = 3;
/** A late overview is left out rather than holding the whole reply past Slack's patience. */
const TIMELINE_DEADLINE_MS = 4_000;

export type PagePosition = { cursor: string | null; page: number };

/** Fetches a page of sessions and the timelines of those that have one, then renders them. */
export async function renderSessionsPage(
  deps: Deps,
  search: SessionSearch,
  at: PagePosition = { cursor: null, page: 1 },
  askedIn: AskedIn = "command",
) {
  const page = await deps.vendor.listSessions({
    ...search.filter,
    ...(search.since ? { since: search.since } : {}),
    ...(search.until ? { until: search.until } : {}),
    limit: SESSIONS_PAGE_SIZE,
    ...(at.cursor ? { cursor: at.cursor } : {}),
  });
  const subject = describeSessionSearch(search);
  if (page.data.length === 0)
    return noSessionsMessage(subject, askedIn, search.since !== undefined || search.until !== undefined);
  const timelines = await fetchTimelines(deps, page.data);
  const query = toSearchValue(search);
  const more =
    page.hasMore && page.nextCursor
      ? encodeMoreValue({ query, cursor: page.nextCursor, page: at.page + 1 })
      : null;
  return sessionsMessage({
    sessions: page.data,
    timelines,
    subject,
    appUrl: deps.config.decipherAppUrl,
    now: deps.now(),
    page: at.page,
    askedIn,
    first: at.page > 1 ? encodeMoreValue({ query, cursor: null, page: 1 }) : null,
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
    withDeadline(
      deps.vendor.getSessionTimeline(s.id).catch(() => null),
      TIMELINE_DEADLINE_MS,
      () => null,
    ),
  );
  return Object.fromEntries(withTimeline.map((s, i) => [s.id, fetched[i] ?? null]));
}

type Parsed = { ok: true; search: SessionSearch } | { ok: false; problem: string };

async function answerLater(deps: Deps, search: SessionSearch, req: Request): Promise<void> {
  const message = await renderSessionsPage(deps, search).catch((error: unknown) =>
    errorMessage(vendorErrorSentence(error)),
  );
  await reply(req.context.respond, message, { replaceOriginal: true });
}

/**
 * `/sessions …`: bad input is answered in the ack; otherwise the ack says what is being looked
 * up and the lazy listener replaces that progress message with the answer.
 */
export function sessionsCommand(deps: Deps) {
  const parsed = perRequest((req: Request): Parsed => {
    try {
      return { ok: true, search: parseSessionSearch(req.payload.text ?? "", deps.now()) };
    } catch (error) {
      if (error instanceof CommandInputError) return { ok: false, problem: error.message };
      throw error;
    }
  });
  return {
    ack: async (req: Request) => {
      const p = parsed(req);
      if (!p.ok) return { response_type: "ephemeral" as const, ...usageMessage(p.problem) };
      return {
        response_type: "ephemeral" as const,
        text: `Looking up sessions for ${describeSessionSearch(p.search)}…`,
      };
    },
    /** Bad input has no work after the ack (the ack explained it): nothing, so no `waitUntil`. */
    lazy: (req: Request): Promise<void> | undefined => {
      const p = parsed(req);
      if (!p.ok) return undefined;
      return answerLater(deps, p.search, req);
    },
  };
}
