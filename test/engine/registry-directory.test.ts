import { describe, expect, it } from "vitest";
import { LEASE_MS, LEASE_RENEW_MS, SHARD_CHECK_SLACK_MS } from "../../src/model/poll-clock.ts";
import { publishDue, type ShardSummary } from "../../src/objects/registry-directory.ts";

// A registry shard tells the directory of shards only what the cron or /health would otherwise
// get wrong (src/objects/registry-directory.ts): never on every poll or lease renewal.

const T0 = Date.parse("2026-03-02T09:00:00Z");
const MINUTE = 60_000;
/** The earliest lease a shard told the directory. */
const TOLD_AT = T0 + LEASE_MS;

const summary = (over: Partial<ShardSummary> = {}): ShardSummary => ({
  teamId: "T1",
  checkAt: TOLD_AT,
  subscriptions: 20,
  erroring: 0,
  paused: 0,
  overdue: 0,
  lastSuccessAt: new Date(T0).toISOString(),
  workspace: null,
  seq: T0,
  ...over,
});

describe("when a registry shard tells the directory", () => {
  it("lease renewals tell the directory only once its time is 5 minutes from coming due", () => {
    const told = summary();
    // A renewal every minute of the shard's earliest lease: quiet until the directory's time is
    // 5 minutes away (told every 5 minutes at full speed, as the leases move on).
    const renewals = [1, 5, 9, 10, 11].map((m) =>
      publishDue(told, summary({ checkAt: TOLD_AT + m * MINUTE, seq: T0 + m * MINUTE }), T0 + m * MINUTE),
    );
    expect(renewals).toEqual([false, false, false, true, true]);
    expect(SHARD_CHECK_SLACK_MS).toBe(LEASE_RENEW_MS);
    // What it told is still in the future while the leases run, so the cron never looks there.
    expect(TOLD_AT - (T0 + 5 * MINUTE)).toBeGreaterThan(0);
  });

  it("on a slowed clock, a shard's earliest lease hours ahead is told when the directory's time nears, not at each renewal", () => {
    // Polled hourly, a lease is 15 hours and renewed every 12 (src/model/plan-governor.ts): the
    // earliest lease of a shard is about 3 hours ahead and moves on with every renewal.
    const told = summary({ checkAt: T0 + 180 * MINUTE });
    const renewed = (m: number) =>
      publishDue(told, summary({ checkAt: T0 + (180 + m) * MINUTE, seq: T0 + m * MINUTE }), T0 + m * MINUTE);
    expect([12, 24, 60, 120, 174].map(renewed)).toEqual([false, false, false, false, false]);
    // Within 5 minutes of the directory's time, the later one goes: the cron never looks in vain.
    expect(renewed(176)).toBe(true);
  });

  it("an earlier lease or digest time goes at once", () => {
    expect(publishDue(summary(), summary({ checkAt: T0 + LEASE_MS - 1 }), T0)).toBe(true);
    expect(publishDue(summary({ checkAt: null, subscriptions: 0 }), summary({ subscriptions: 0 }), T0)).toBe(
      true,
    );
  });

  it("a passed time with nothing due any more goes, so the cron stops looking", () => {
    expect(publishDue(summary({ checkAt: T0 - MINUTE }), summary({ checkAt: T0 + 2 * MINUTE }), T0)).toBe(
      true,
    );
    expect(publishDue(summary({ checkAt: T0 - MINUTE }), summary({ checkAt: null }), T0)).toBe(true);
  });

  it("a change of subscriptions, failing, paused, overdue or Slack refusal goes at once", () => {
    for (const changed of [
      { subscriptions: 21 },
      { erroring: 1 },
      { paused: 1 },
      { overdue: 1 },
      { workspace: { code: "invalid_auth", since: new Date(T0).toISOString() } },
    ])
      expect(publishDue(summary(), summary(changed), T0)).toBe(true);
    expect(publishDue(summary(), summary({ seq: T0 + 1 }), T0)).toBe(false);
  });

  it("a newer successful poll goes once it is 5 minutes newer than told", () => {
    const at = (m: number) => new Date(T0 + m * MINUTE).toISOString();
    expect(publishDue(summary(), summary({ lastSuccessAt: at(4) }), T0)).toBe(false);
    expect(publishDue(summary(), summary({ lastSuccessAt: at(6) }), T0)).toBe(true);
    expect(publishDue(summary({ lastSuccessAt: null }), summary(), T0)).toBe(true);
  });

  it("an empty shard that never told says nothing; one with subscriptions does", () => {
    expect(publishDue(null, summary({ subscriptions: 0, checkAt: null }), T0)).toBe(false);
    expect(publishDue(null, summary(), T0)).toBe(true);
  });
});
