import type { SlackEdgeAppEnv, SlackRequest, ViewSubmission } from "slack-edge";
import { FIND_FIELDS, findSessionsModal } from "../../messages/find-sessions-modal.ts";
import { errorMessage } from "../../messages/help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { CommandInputError } from "../commands/parse-error.ts";
import { renderSessionsPage } from "../commands/sessions-command.ts";
import { parseSessionSearch, type SessionSearch } from "../commands/sessions-query.ts";

type Values = Record<string, Record<string, { value?: string | null }>>;
type Field = keyof typeof FIND_FIELDS;

function fieldValue(values: Values, field: Field): string {
  return (values[FIND_FIELDS[field]]?.value?.value ?? "").trim();
}

/** The form as `/sessions` text, so both share one parser and one set of error sentences. */
export function findSessionsText(values: Values): string {
  const email = fieldValue(values, "email");
  const user = fieldValue(values, "user");
  const url = fieldValue(values, "url");
  const since = fieldValue(values, "since");
  return [
    email,
    user ? `user:${user.replace(/\s+/g, "")}` : "",
    url ? `url:${url.replace(/\s+/g, "")}` : "",
    since ? `since:${since.replace(/\s+/g, "")}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** Which field an error sentence belongs under in the modal. */
function fieldOf(message: string, values: Values): string {
  if (/since|until/i.test(message)) return FIND_FIELDS.since;
  for (const field of ["email", "user", "url"] as const) {
    if (fieldValue(values, field)) return FIND_FIELDS[field];
  }
  return FIND_FIELDS.email;
}

export type FindSessionsCheck =
  | { ok: true; query: SessionSearch }
  | { ok: false; errors: Record<string, string> };

export function checkFindSessions(values: Values, now: Date): FindSessionsCheck {
  try {
    return { ok: true, query: parseSessionSearch(findSessionsText(values), now) };
  } catch (error) {
    if (!(error instanceof CommandInputError)) throw error;
    // Modal errors are plain text; the parser writes `code` marks.
    return { ok: false, errors: { [fieldOf(error.message, values)]: error.message.replace(/`/g, "") } };
  }
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
    const message = await renderSessionsPage(deps, check.query).catch((error: unknown) =>
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
