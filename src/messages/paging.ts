import type { SectionBlock } from "slack-edge";
import { actions, button, section } from "./elements.ts";
import { type MessageBlock, truncateMrkdwn } from "./limits.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";

/**
 * The **More** and **« First page** buttons of an ephemeral reply that does not fit one
 * message (`/sessions`, `/decipher list` and `status`): each click replaces the reply with the
 * page its button names.
 */
export function pageButtons(p: {
  page: number;
  /** Value of the First page button; no button on page 1 or when null. */
  first: string | null;
  /** Value of the More button; no button when null (the last page). */
  more: string | null;
  actionIds: { first: string; more: string };
}): MessageBlock[] {
  return actions(
    p.page > 1 && p.first
      ? button({ text: "« First page", actionId: p.actionIds.first, value: p.first })
      : null,
    p.more ? button({ text: "More", actionId: p.actionIds.more, value: p.more }) : null,
  );
}

/** What a page's footer says of paging: "Page 2" (nothing on page 1)… */
export const pageLabel = (page: number) => (page > 1 ? `Page ${page}` : "");
/** …and, when there is a More button, what it does. */
export const MORE_NOTE = "*More* loads the next page";

/** The first page of a paged list. */
export type PageAt = { from: number; page: number };
export const FIRST_PAGE: PageAt = { from: 0, page: 1 };

/**
 * One page of a list of mrkdwn lines from line `from`: at most `maxLines` lines, packed into
 * at most `maxSections` sections of at most 3,000 characters each (a longer line is cut). At
 * least one line, so paging always moves on. `next` is where the next page starts, or null.
 */
export function linesPage(
  lines: readonly string[],
  from: number,
  limits: { maxLines: number; maxSections: number },
): { sections: SectionBlock[]; shown: number; next: number | null } {
  const limit = SLACK_LIMITS.sectionText;
  const chunks: string[][] = [];
  let size = 0;
  let i = Math.max(0, Math.min(from, lines.length));
  const start = i;
  for (; i < lines.length && i - start < limits.maxLines; i++) {
    const line = truncateMrkdwn(lines[i] as string, limit);
    const last = chunks[chunks.length - 1];
    if (last && size + 1 + line.length <= limit) {
      last.push(line);
      size += 1 + line.length;
    } else if (chunks.length < limits.maxSections) {
      chunks.push([line]);
      size = line.length;
    } else break;
  }
  return {
    sections: chunks.map((c) => section(c.join("\n"))),
    shown: i - start,
    next: i < lines.length ? i : null,
  };
}
