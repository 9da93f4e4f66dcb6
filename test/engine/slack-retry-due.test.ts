import { describe, expect, it } from "vitest";
import { slackRetryDue } from "../../src/engine/poll-outcome.ts";
import type { Subscription } from "../../src/model/subscription.ts";

// While Slack keeps failing, a subscription tries each minute for three minutes, then every
// fifth (src/engine/poll-outcome.ts). A post whose answer was lost backs off the same way (a
// Slack outage answers 500 to every post), but its settle bound must be reached at 30
// minutes, not up to four minutes later.

const since = new Date("2026-11-29T10:00:00.000Z");
const at = (minutes: number) => new Date(since.getTime() + minutes * 60_000);
const withError = (lastError: Subscription["lastError"]) => ({ lastError }) as Subscription;

describe("slackRetryDue", () => {
  it("backs off a failing post: after three minutes, only every fifth", () => {
    const failing = withError({
      message: "Slack answered http_500.",
      at: since.toISOString(),
      source: "slack",
    });
    expect(slackRetryDue(failing, at(2))).toBe(true);
    expect(slackRetryDue(failing, at(7))).toBe(false);
    expect(slackRetryDue(failing, at(10))).toBe(true);
  });

  it("tries in the minute the settle bound passes while the bot checks whether a post landed", () => {
    const checking = withError({
      message: "Slack's answer to a post was lost; the bot is checking whether it landed.",
      at: since.toISOString(),
      source: "slack",
      checking: true,
    });
    const due = [1, 2, 7, 29, 30, 31, 33, 35].filter((m) => slackRetryDue(checking, at(m + 0.5)));
    expect(due).toEqual([1, 2, 30, 35]);
  });
});
