import type { Button } from "slack-edge";
import { expect } from "vitest";
import { strictMessageProblems } from "../../dev/slack/block-limits.ts";
import type { SlackMessage } from "../../src/messages/limits.ts";

/** What the builder tests share: Slack's limits held strictly, and what a reader sees. */

/** Fails with the first problems when Slack would refuse the message or show it broken. */
export function assertWithinSlackLimits(message: SlackMessage): void {
  const violations = strictMessageProblems(message);
  expect(violations, violations.slice(0, 5).join("\n")).toEqual([]);
}

/** Every text a reader can see (fallback, headers, sections, fields, context, buttons). */
export function visibleTexts(message: SlackMessage): string[] {
  const out = [message.text];
  for (const block of message.blocks) {
    if (block.type === "header") out.push(block.text.text);
    if (block.type === "section") {
      if (block.text) out.push(block.text.text);
      for (const f of block.fields ?? []) out.push(f.text);
    }
    if (block.type === "context") for (const el of block.elements) if ("text" in el) out.push(el.text);
    if (block.type === "actions")
      for (const el of block.elements) if (el.type === "button") out.push(el.text.text);
  }
  return out;
}

export const allText = (message: SlackMessage) => visibleTexts(message).join("\n");

export function buttonsOf(message: SlackMessage): Button[] {
  return message.blocks.flatMap((b) =>
    b.type === "actions" ? b.elements.filter((el): el is Button => el.type === "button") : [],
  );
}
