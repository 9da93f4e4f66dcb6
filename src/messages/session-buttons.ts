import type { Button } from "slack-edge";
import * as ACTION_IDS from "./action-ids.ts";
import { encodeShareValue, type SharedSessionCard } from "./button-values.ts";
import { button } from "./elements.ts";
import { sessionUrl } from "./links.ts";

/**
 * The buttons every session gets, on cards and in alerts: ▶ Watch replay (a link into the
 * web app), Timeline and Clicks (answered just to the clicker), and, where a session has
 * screenshots, Screenshots: it asks Decipher for fresh URLs, since the ones in an alert
 * expire after about 3 hours.
 */
export function sessionButtons(
  session: SharedSessionCard,
  appUrl: string,
  options: {
    screenshots?: boolean;
    /** A collection's session: Screenshots then also shows its error screenshot, fetched fresh. */
    collectionId?: number;
  } = {},
): (Button | null)[] {
  // The card, not just the id: the answer then names whose session it is and when.
  const idValue = encodeShareValue(session);
  const shotsValue =
    options.collectionId === undefined ? idValue : encodeShareValue(session, options.collectionId);
  return [
    button({
      text: "▶ Watch replay",
      actionId: ACTION_IDS.sessionReplay,
      url: sessionUrl(appUrl, session.id),
      style: "primary",
    }),
    session.hasTimeline && idValue
      ? button({ text: "Timeline", actionId: ACTION_IDS.sessionTimeline, value: idValue })
      : null,
    idValue ? button({ text: "Clicks", actionId: ACTION_IDS.sessionClicks, value: idValue }) : null,
    options.screenshots && shotsValue
      ? button({ text: "Screenshots", actionId: ACTION_IDS.sessionScreenshots, value: shotsValue })
      : null,
  ];
}
