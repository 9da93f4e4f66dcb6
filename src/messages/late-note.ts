import { context } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { dateToken } from "./mrkdwn.ts";

/**
 * An alert told past its deadline says so, with the time the bot first saw the run (a date
 * token, so it stays true): a late alert that looks on time would hide that something slipped.
 */
export function withLateNote(message: SlackMessage, firstSeen: string): SlackMessage {
  const note = `:hourglass: Late: the bot first saw this run ${dateToken(firstSeen)} and could not tell it in time.`;
  return fitMessage({ text: `${message.text} (late)`, blocks: [...message.blocks, context(note)] });
}

/** An alert posted again because a person deleted the earlier one: the thread goes on here. */
export function withDeletedNote(message: SlackMessage, what: "test" | "collection" = "test"): SlackMessage {
  const note = `:wastebasket: The earlier alert for this ${what} was deleted, so this one carries on: its thread continues here.`;
  return fitMessage({
    text: `${message.text} (the earlier alert was deleted)`,
    blocks: [...message.blocks, context(note)],
  });
}
