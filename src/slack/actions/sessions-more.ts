import { decodeMoreValue } from "../blocks/action-ids.ts";
import { errorMessage } from "../blocks/index.ts";
import { renderSessionsPage } from "../commands/sessions-command.ts";
import type { SessionsFilter } from "../commands/sessions-query.ts";
import { respond } from "../respond.ts";
import { vendorErrorSentence } from "../vendor-error-message.ts";
import { type ButtonHandler, clickedValue, noAck } from "./types.ts";

/** **More**: the next page of the same search, in place of the page it was clicked on. */
export const sessionsMoreAction: ButtonHandler = {
  ack: noAck,
  lazy: async (req, deps) => {
    const responseUrl = req.context.responseUrl;
    if (!responseUrl) return;
    const more = decodeMoreValue(clickedValue(req));
    const filter: SessionsFilter | null = more?.query.userEmail
      ? { userEmail: more.query.userEmail }
      : more?.query.userId
        ? { userId: more.query.userId }
        : more?.query.url
          ? { url: more.query.url }
          : null;
    if (!more || !filter) {
      await respond(responseUrl, errorMessage("That button no longer works. Run `/sessions` again."));
      return;
    }
    const query = {
      filter,
      ...(more.query.since ? { since: new Date(more.query.since) } : {}),
      ...(more.query.until ? { until: new Date(more.query.until) } : {}),
    };
    const message = await renderSessionsPage(deps, query, more.cursor).catch((error: unknown) =>
      errorMessage(vendorErrorSentence(error)),
    );
    await respond(responseUrl, message, { replaceOriginal: true });
  },
};
