import { describe, expect, it } from "vitest";
import { findPosted, HISTORY_TIERS, turnWait, windowOf } from "../../src/slack-api/find-posted.ts";
import { postMetadata } from "../../src/slack-api/post-message.ts";
import type { SlackClient } from "../../src/slack-api/slack-client.ts";

// Review of the lookup of a lost answer: a busy channel must not hide the post for ever.

type Message = { ts: string; metadata?: ReturnType<typeof postMetadata> };

/** `conversations.history` as Slack pages it: newest first, `oldest`/`latest` exclusive, cursors. */
function slackWithHistory(all: Message[]): SlackClient {
  const history = async (args: { oldest?: string; latest?: string; limit?: number; cursor?: string }) => {
    const oldest = Number(args.oldest ?? 0);
    const latest = args.latest ? Number(args.latest) : Number.POSITIVE_INFINITY;
    const inRange = all
      .filter((m) => Number(m.ts) > oldest && Number(m.ts) < latest)
      .sort((a, b) => Number(b.ts) - Number(a.ts));
    const start = Number(args.cursor ?? 0);
    const limit = args.limit ?? 100;
    const more = start + limit < inRange.length;
    return {
      ok: true,
      messages: inRange.slice(start, start + limit),
      has_more: more,
      response_metadata: { next_cursor: more ? String(start + limit) : "" },
    };
  };
  return { conversations: { history } } as unknown as SlackClient;
}

describe("findPosted", () => {
  it("finds a lost post in a channel that got 500 more messages after it", async () => {
    const intended = Date.parse("2026-11-20T10:00:00.000Z");
    const sec = intended / 1000;
    const post: Message = { ts: `${sec + 1}.000100`, metadata: postMetadata("run:10069") };
    // Chatter in the hours the lookup waited (Slack rate limits, a long outage).
    const chatter = Array.from({ length: 500 }, (_, i) => ({ ts: `${sec + 600 + i * 10}.000100` }));
    const found = await findPosted(
      slackWithHistory([post, ...chatter]),
      "C1",
      { key: "run:10069" },
      windowOf(new Date(intended), new Date(intended + 3 * 60 * 60_000)),
      HISTORY_TIERS.internal,
    );
    expect(found).toEqual({ found: true, ts: post.ts, textOnly: false });
  });
});

describe("the workspace's turn at a history method (turnWait)", () => {
  const spacing = HISTORY_TIERS.distributed.spacingMs;
  it("reads at once when the workspace has not read with the method", () => {
    expect(turnWait(undefined, 1_000_000, spacing)).toBe(0);
  });
  it("waits out the rest of the spacing after the workspace's last read", () => {
    expect(turnWait(1_000_000, 1_000_000 + 20_000, spacing)).toBe(spacing - 20_000);
    expect(turnWait(1_000_000, 1_000_000 + spacing, spacing)).toBe(0);
  });
  it("never waits longer than the spacing, for a caller whose clock lags the last reader's", () => {
    expect(turnWait(1_000_000, 1_000_000 - 30_000, spacing)).toBe(spacing);
  });
});
