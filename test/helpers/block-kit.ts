import type { Button } from "slack-edge";
import { expect } from "vitest";
import { strictMessageProblems } from "../../dev/slack/block-limits.ts";
import type { SlackMessage } from "../../src/messages/limits.ts";

/** What the builder tests share: Slack's limits held strictly, and a message's buttons. */

/** Fails with the first problems when Slack would refuse the message or show it broken. */
export function assertWithinSlackLimits(message: SlackMessage): void {
  const violations = strictMessageProblems(message);
  expect(violations, violations.slice(0, 5).join("\n")).toEqual([]);
}

export function buttonsOf(message: SlackMessage): Button[] {
  return message.blocks.flatMap((b) =>
    b.type === "actions" ? b.elements.filter((el): el is Button => el.type === "button") : [],
  );
}
