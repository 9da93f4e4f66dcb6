import { describe, expect, it } from "vitest";
import {
  afterLookup,
  lookupNow,
  type OutboxRow,
  onPosted,
  pastBound,
  SETTLE_BOUND_MS,
} from "../../src/engine/settle-outcome.ts";
import { HISTORY_TIERS } from "../../src/slack-api/find-posted.ts";

// How an outbox row whose answer was lost is settled (docs/architecture.md, "An unknown
// outcome, settled"): decisions only, no Slack.

const T0 = Date.parse("2026-11-29T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms);
const slackTs = (ms: number) => `${Math.floor((T0 + ms) / 1000)}.000100`;

const row = (fields: Partial<OutboxRow> = {}): OutboxRow => ({
  key: "run:10069",
  state: "unknown",
  ts: null,
  thread_ts: null,
  intended_at: at(0).toISOString(),
  cursor: null,
  lookup_after: null,
  stray_since: null,
  text_only: null,
  ...fields,
});

describe("when a lost answer is looked up", () => {
  it("waits for Slack's own event first, then the tier's turn", () => {
    expect(lookupNow(row(), at(10_000), 30_000)).toBe("young");
    expect(lookupNow(row({ lookup_after: at(90_000).toISOString() }), at(60_000), 30_000)).toBe("paced");
    expect(lookupNow(row({ lookup_after: at(90_000).toISOString() }), at(90_000), 30_000)).toBe("read");
  });

  it("goes on from its cursor a minute later in a distributed app, and never restarts on a refusal", () => {
    const more = afterLookup({ cursor: "page-2" }, at(60_000), HISTORY_TIERS.distributed);
    expect(more.write).toEqual({ cursor: "page-2", lookup_after: at(121_000).toISOString() });
    const refused = afterLookup(
      { failed: { kind: "transient", code: "ratelimited", retryAfterSeconds: 120 } },
      at(60_000),
      HISTORY_TIERS.distributed,
    );
    expect(refused.write).toEqual({ lookup_after: at(180_000).toISOString() });
    // Objects of one workspace that all waited Retry-After would meet again: each waits a little more.
    const spread = afterLookup(
      { failed: { kind: "transient", code: "ratelimited", retryAfterSeconds: 60 } },
      at(60_000),
      HISTORY_TIERS.distributed,
      25_000,
    );
    expect(spread.write.lookup_after).toBe(at(145_000).toISOString());
    expect(
      afterLookup({ failed: { kind: "transient", code: "invalid_cursor" } }, at(0), HISTORY_TIERS.internal)
        .write,
    ).toEqual({ lookup_after: null, cursor: null });
  });

  it("is decided at the bound, not a moment before", () => {
    expect(pastBound(row(), at(SETTLE_BOUND_MS - 1))).toBe(false);
    expect(pastBound(row(), at(SETTLE_BOUND_MS))).toBe(true);
  });
});

describe("when Slack says a post landed", () => {
  it("settles a lost answer, and leaves one already known alone", () => {
    expect(onPosted(row(), slackTs(1_000))).toEqual({ kind: "settle" });
    expect(onPosted(row({ state: "sent", ts: slackTs(1_000) }), slackTs(1_000))).toEqual({ kind: "ignore" });
    expect(onPosted(null, slackTs(1_000))).toEqual({ kind: "ignore" });
  });

  it("removes a copy the ledger does not point at: a second copy, or one of an abandoned intent", () => {
    expect(onPosted(row({ state: "sent", ts: slackTs(1_800_000) }), slackTs(1_000))).toEqual({
      kind: "remove",
    });
    expect(onPosted(row({ state: "abandoned", stray_since: at(0).toISOString() }), slackTs(1_000))).toEqual({
      kind: "remove",
    });
  });

  it("tells the earlier copy from the one being posted again while that post is under way", () => {
    const reposting = row({
      state: "intended",
      intended_at: at(SETTLE_BOUND_MS).toISOString(),
      stray_since: at(0).toISOString(),
    });
    expect(onPosted(reposting, slackTs(1_000))).toEqual({ kind: "remove" });
    expect(onPosted(reposting, slackTs(SETTLE_BOUND_MS + 500))).toEqual({ kind: "settle" });
  });
});
