import type { ImpactCollection, ImpactExample, ImpactResult } from "../model/production-impact.ts";
import { button, context, section } from "./elements.ts";
import { type MessageBlock, truncatePlain } from "./limits.ts";
import { sessionUrl } from "./links.ts";
import { code, dateToken, oneLine, toDate } from "./mrkdwn.ts";

/**
 * A failing test's production impact as a few blocks for its alert (or a reply in its
 * thread): "Production: 37 sessions on `/checkout` in 24 h; 4 in 'TypeError in
 * PaymentForm.submit' (+5 in 24 h)", then one example session with its AI overview cut short
 * and a button to watch its replay. Pure: the lookup (src/engine/read-production-impact.ts) has
 * already happened.
 */

/**
 * The replay button's action id. A link button still sends Slack an interaction, which the
 * app must acknowledge: register it with a no-op listener, as `run_open` is.
 */
export const IMPACT_REPLAY_ACTION_ID = "impact_watch_replay";

/** Long enough to say what happened in the session, short enough to stay a footnote. */
export const IMPACT_OVERVIEW_MAX = 200;
const ROOT_CAUSE_MAX = 80;
/** Pages are checked to 200 characters when subscribed; kept to that here too. */
const PAGE_MAX = 200;
const COLLECTIONS_MAX = 5;

export type ImpactBlocksInput = {
  impact: ImpactResult;
  /** Web-app base for the replay link, e.g. `https://app.getdecipher.com`. */
  appUrl: string;
};

/** Raw text on one line, cut to `max`, then escaped: the cut never lands inside an entity. */
const short = (raw: string, max: number) => oneLine(truncatePlain(raw.replace(/\s+/g, " ").trim(), max));

/** Growth over the headline's own window ("in 24 h" before the alert), never "today": the alert is read days later. */
function collectionPart(c: ImpactCollection): string {
  const added = c.addedToday !== null && c.addedToday > 0 ? ` (+${c.addedToday} in 24 h)` : "";
  return `${c.sessions.toLocaleString("en-US")} in '${short(c.rootCause, ROOT_CAUSE_MAX) || `collection ${c.id}`}'${added}`;
}

/** The headline sentence, mrkdwn. Also the notification text. */
export function productionImpactLine(impact: ImpactResult): string {
  const page = code(truncatePlain(impact.page, PAGE_MAX)) || "the page";
  if (impact.unavailable) return `Production impact on ${page} unavailable (${short(impact.reason, 120)}).`;
  const count = impact.more ? `${impact.sessions}+` : impact.sessions.toLocaleString("en-US");
  const visits =
    impact.sessions === 0
      ? `no sessions on ${page} in 24 h`
      : `${count} session${impact.sessions === 1 && !impact.more ? "" : "s"} on ${page} in 24 h`;
  return [
    `*Production:* ${visits}`,
    ...impact.collections.slice(0, COLLECTIONS_MAX).map(collectionPart),
  ].join("; ");
}

function exampleBlock(example: ImpactExample, appUrl: string): MessageBlock[] {
  const who = example.userEmail ? short(example.userEmail, 100) : "a visitor";
  // A date token, never "5 min ago": the alert is read (and re-rendered) long after.
  const when = toDate(example.createdAt) ? dateToken(example.createdAt) : "";
  const about = example.overview
    ? `“${short(example.overview, IMPACT_OVERVIEW_MAX)}”`
    : example.hasTimeline
      ? "(no AI overview fetched)"
      : "(no AI timeline for this session)";
  const block = section(`*Example:* ${who}${when ? `, ${when}` : ""}\n${about}`);
  const watch = button({
    text: "▶ Watch replay",
    actionId: IMPACT_REPLAY_ACTION_ID,
    url: sessionUrl(appUrl, example.sessionId),
  });
  return [watch ? { ...block, accessory: watch } : block];
}

/** One to two blocks to append to an alert; never empty. */
export function productionImpactBlocks({ impact, appUrl }: ImpactBlocksInput): MessageBlock[] {
  if (impact.unavailable) return [context(`:grey_question: ${productionImpactLine(impact)}`)];
  return [
    section(productionImpactLine(impact)),
    ...(impact.example ? exampleBlock(impact.example, appUrl) : []),
  ];
}
