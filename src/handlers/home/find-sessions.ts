import type { SlackEdgeAppEnv, SlackRequest, ViewSubmission } from "slack-edge";
import { FIND_FIELDS, findSessionsModal } from "../../messages/find-sessions-modal.ts";
import { errorMessage } from "../../messages/help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { renderSessionsPage } from "../commands/sessions-command.ts";
import { isEmail, type SessionSearch, type SessionsFilter } from "../commands/sessions-query.ts";
import { parseTimeBound } from "../commands/time-bound.ts";

type Values = Record<string, Record<string, { value?: string | null }>>;
type Field = keyof typeof FIND_FIELDS;

function fieldValue(values: Values, field: Field): string {
  return (values[FIND_FIELDS[field]]?.value?.value ?? "").trim();
}

export type FindSessionsCheck =
  | { ok: true; query: SessionSearch }
  | { ok: false; errors: Record<string, string> };

const ONE_OF = "Fill in one of email, user id or visited URL.";

/** "7d", "7 d", "2026-11-01" or "2026-11-01 10:00"; null when it is none of those. */
function readSince(text: string, now: Date): Date | null {
  for (const candidate of [text, text.replace(/\s+/g, "")]) {
    try {
      return parseTimeBound("since", candidate, now);
    } catch (error) {
      if (!(error instanceof CommandInputError)) throw error;
    }
  }
  return null;
}

/**
 * The form read field by field (not as `/sessions` text), so each problem is answered under
 * its own field in the form's words, never in slash-command syntax.
 */
export function checkFindSessions(values: Values, now: Date): FindSessionsCheck {
  const email = fieldValue(values, "email");
  const user = fieldValue(values, "user").replace(/\s+/g, "");
  const url = fieldValue(values, "url");
  const since = fieldValue(values, "since").replace(/\s+/g, " ");
  const errors: Record<string, string> = {};
  const filled = (["email", "user", "url"] as const).filter((f) => fieldValue(values, f) !== "");
  if (filled.length === 0) errors[FIND_FIELDS.email] = ONE_OF;
  for (const extra of filled.slice(1))
    errors[FIND_FIELDS[extra]] = `${ONE_OF} Clear this one or the ${filled[0]}.`;
  if (email && !isEmail(email))
    errors[FIND_FIELDS.email] = "This is not an email address, e.g. jane@acme.com.";
  const from = since ? readSince(since, now) : undefined;
  if (from === null) errors[FIND_FIELDS.since] = "Use a span like 24h, 7d or 2w, or a date like 2026-11-01.";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const filter: SessionsFilter = email ? { userEmail: email } : user ? { userId: user } : { url };
  return { ok: true, query: { filter, ...(from ? { since: from } : {}) } };
}

type Submission = SlackRequest<SlackEdgeAppEnv, ViewSubmission>;

/**
 * Find sessions from the Home tab: the button opens the form; a bad form is answered in place
 * (`response_action: errors`), a good one closes and the cards arrive in the person's DM
 * with the app, where their buttons (Timeline, Clicks, More) work as in a channel.
 */
export const findSessions = {
  async open(triggerId: string | undefined, deps: Deps): Promise<void> {
    if (!triggerId) return;
    try {
      await deps.slack.views.open({ trigger_id: triggerId, view: findSessionsModal() });
    } catch (error) {
      console.warn(`views.open failed (${classifySlackFailure(error).code})`);
    }
  },
  ack: async (req: Submission, deps: Deps) => {
    const check = checkFindSessions(req.payload.view.state.values as Values, deps.now());
    return check.ok ? "" : { response_action: "errors" as const, errors: check.errors };
  },
  lazy: async (req: Submission, deps: Deps) => {
    const check = checkFindSessions(req.payload.view.state.values as Values, deps.now());
    if (!check.ok) return;
    const message = await renderSessionsPage(deps, check.query, undefined, "form").catch((error: unknown) =>
      errorMessage(vendorErrorSentence(error)),
    );
    try {
      await deps.slack.chat.postMessage({
        channel: req.payload.user.id,
        text: message.text,
        blocks: message.blocks,
      });
    } catch (error) {
      console.warn(`find sessions answer failed (${classifySlackFailure(error).code})`);
    }
  },
};
