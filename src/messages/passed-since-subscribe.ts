import type { TestInfo, TestRun } from "../decipher/types.ts";
import type { FailingAtSubscribe } from "../model/failing-at-subscribe.ts";
import { section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { runUrl, testUrl } from "./links.ts";
import { dateToken, link, oneLine, plural } from "./mrkdwn.ts";

/**
 * "✅ Checkout flow passed again: it had failed 5 runs in a row when this channel subscribed":
 * the pass the subscribe reply promised to tell, in the channel (no alert of the bot's was
 * open). Times are Slack date tokens, so the line reads true a day later.
 */
export function passedSinceSubscribeMessage(
  test: TestInfo,
  run: TestRun,
  was: FailingAtSubscribe,
  appUrl: string,
): SlackMessage {
  const name = test.name.trim() || `Test ${test.id}`;
  // One run is no row: "its last run had failed, today at 6:16 AM, when …".
  const failed =
    was.failedRuns === 1
      ? `its last run had failed, ${dateToken(was.since)}, when this channel subscribed`
      : `it had failed ${plural(was.failedRuns, "run")} in a row, since ${dateToken(was.since)}, when this channel subscribed`;
  const runLink = link(runUrl(appUrl, test.id, run.id), `Run #${run.id}`);
  return fitMessage({
    text: `${oneLine(name)} passed again: ${failed}.`.replace(/<!date\^\d+\^[^|]*\|([^>]*)>/g, "$1"),
    blocks: [
      section(
        `:white_check_mark: *${link(testUrl(appUrl, test.id), name)}* passed again (${runLink} ${dateToken(run.endTime ?? run.createdAt, "{ago}")}): ${failed}.`,
      ),
    ],
  });
}
