import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { ledgerDigestLine } from "../../src/engine/ledger-digest.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { classifyTest } from "../../src/model/test-classification.ts";
import { testState, testStateFacts } from "../../src/model/test-state.ts";
import { localWeekday } from "../../src/model/weekly-schedule.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { WeeklyStore } from "../../src/store/weekly-store.ts";

const NOW = new Date("2026-02-16T12:00:00.000Z");
const MINUTE = 60_000;

const sub = (extra: Partial<TestSubscription> = {}): TestSubscription => ({
  kind: "test",
  channelId: "C1",
  testId: 101,
  testName: "Login with SSO",
  createdAt: new Date(NOW.getTime() - 60 * MINUTE).toISOString(),
  createdBy: "U1",
  paused: null,
  lastError: null,
  lastChangeAt: NOW.toISOString(),
  lastRunId: 0,
  lastRunAt: null,
  streak: null,
  ...extra,
});

/** "FPFF…P" oldest first, one run every 5 minutes ending now, as the ledger holds them. */
function rows(pattern: string, fate: (i: number) => Partial<LedgerRow> = () => ({})): LedgerRow[] {
  return [...pattern].map((c, i) => {
    const at = new Date(NOW.getTime() - (pattern.length - 1 - i) * 5 * MINUTE).toISOString();
    return {
      id: 1000 + i,
      status: c === "F" ? "failed" : c === "R" ? "running" : "passed",
      createdAt: at,
      firstSeen: at,
      trigger: "schedule",
      fate: c === "F" ? "announced" : "quiet",
      ts: null,
      parentTs: null,
      reason: null,
      decidedAt: at,
      ...fate(i),
    };
  });
}

describe("the digest names a test's state as the alerts classify it", () => {
  it("calls a test that failed 7 of 9 runs, passing in between, failing — not passing because its last run passed", () => {
    const line = ledgerDigestLine(rows("FPFFFFFFP"), NOW, sub());
    expect(line).toMatchObject({ runs24h: 9, failures24h: 7, state: "failing" });
  });

  it("counts the runs its failures and pass rate are of: a run still running is not one yet", () => {
    // The sandbox's digest read "19 runs, 8 failures, 56 %": 18 had finished (10 of them passed)
    // and the 19th was running, so the row's own numbers did not add up (11 of 19 is 58 %).
    expect(ledgerDigestLine(rows("PPFPR"), NOW, sub())).toMatchObject({
      runs24h: 4,
      failures24h: 1,
      passRate: 0.75,
    });
  });

  it("calls a test flaky when the classification does (2 of 10 failed, passes between)", () => {
    expect(ledgerDigestLine(rows("PPFPPPPFPP"), NOW, sub()).state).toBe("flaky");
  });

  it("calls a test that keeps flipping at about 50 % flaky, as its alerts do, whether its last run failed or passed", () => {
    // The same runs the alerts classify: 53 % passed and 50 % passed are one state, not two.
    expect(ledgerDigestLine(rows("FPFPFPFPPFPFPPF"), NOW, sub()).state).toBe("flaky");
    expect(ledgerDigestLine(rows("FFPPFFPPFFPP"), NOW, sub()).state).toBe("flaky");
  });

  it("calls a test flaky when its failures went to the day's flaky thread, whatever the latest runs say", () => {
    const thread = "1771230000.000100";
    const told = rows("PPPPPFPPPPP", (i) => (i === 5 ? { ts: thread } : {}));
    expect(ledgerDigestLine(told, NOW, sub({ flakyThread: { ts: thread, day: "2026-02-16" } })).state).toBe(
      "flaky",
    );
    // The same runs without that thread: one failure in 11 is not flaky, and it passed since.
    expect(ledgerDigestLine(told, NOW, sub()).state).toBe("passing");
  });

  it("calls a test flaky when its flaky alert went out today, though its failures since were named in outage messages", () => {
    const called = new Date(NOW.getTime() - 40 * MINUTE).getTime() / 1000;
    const outage = "1771231000.000200";
    const told = rows("PPPPPPPPPFP", (i) => (i === 9 ? { fate: "grouped", ts: outage } : {}));
    const flakyThread = { ts: `${called}.000100`, day: "2026-02-16" };
    expect(ledgerDigestLine(told, NOW, sub({ flakyThread })).state).toBe("flaky");
    // Called flaky more than a day ago: the digest reads the day's runs alone.
    const old = { ts: `${called - 2 * 24 * 3600}.000100`, day: "2026-02-14" };
    expect(ledgerDigestLine(rows("PPPPPFPPPPP"), NOW, sub({ flakyThread: old })).state).toBe("passing");
  });

  it("calls a test flaky when a failure was counted as flaky for the digest", () => {
    const told = rows("PPPPPFPPPPP", (i) => (i === 5 ? { fate: "counted", reason: "flaky-digest" } : {}));
    expect(ledgerDigestLine(told, NOW, sub()).state).toBe("flaky");
  });

  it("calls a test broken now failing even if it was called flaky earlier in the day", () => {
    const thread = "1771230000.000100";
    const told = rows("PFPPPFFF", (i) => (i === 1 ? { ts: thread } : {}));
    expect(ledgerDigestLine(told, NOW, sub({ flakyThread: { ts: thread, day: "2026-02-16" } })).state).toBe(
      "failing",
    );
  });

  it("calls a test that recovered from one block of failures passing, as its recovery said", () => {
    expect(ledgerDigestLine(rows("PFFFFFFFP"), NOW, sub()).state).toBe("passing");
  });

  it("calls a test failing on and off failing until 3 passes in a row, then passing, as its Recovered alert said", () => {
    expect(ledgerDigestLine(rows("FPFFFFFFPP"), NOW, sub()).state).toBe("failing");
    expect(ledgerDigestLine(rows("FPFFFFFFPPP"), NOW, sub()).state).toBe("passing");
    expect(ledgerDigestLine(rows("FPFFFFFFPPPPP"), NOW, sub()).state).toBe("passing");
  });

  it("classifies only the runs of the subscription's trigger, as the alerts do", () => {
    const mixed = rows("FPFFFFFFP", (i) => ({ trigger: i === 8 || i === 1 ? "schedule" : "manual" }));
    expect(ledgerDigestLine(mixed, NOW, sub({ options: { trigger: "schedule" } })).state).toBe("passing");
    expect(ledgerDigestLine(mixed, NOW, sub()).state).toBe("failing");
  });

  it("says running while the only run is under way, and unknown without a run", () => {
    expect(ledgerDigestLine(rows("R"), NOW, sub()).state).toBe("running");
    expect(ledgerDigestLine([], NOW, sub()).state).toBe("unknown");
  });

  it("uses the state every alert's class maps to: new failure, broken and failing are failing", () => {
    const told = { anyRun: true, failingStreak: false, calledFlakyAt: null };
    const at = (pattern: string) =>
      testState(
        testStateFacts(
          classifyTest(
            rows(pattern).map((r) => ({
              id: r.id,
              status: r.status as "passed",
              createdAt: r.createdAt as string,
            })),
            NOW,
          ),
          told,
        ),
      );
    expect(at("PPPPPF")).toBe("failing");
    expect(at("PFFF")).toBe("failing");
    expect(at("PPPPPP")).toBe("passing");
  });
});

describe("a digest in the channel", () => {
  it("says failing, not passing, for a test that failed most of its runs with passes between", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    // A test of its own: no seeded history adds flips of its own to the window.
    const test = await org.addTest("Checkout flow");
    await bot.command("/decipher", `subscribe test ${test.id}`);
    await bot.command("/decipher", "digest 09:00 UTC");
    for (const status of [
      "failed",
      "passed",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "passed",
    ] as const)
      await org.addRun(test.id, status);
    await bot.cron();
    const { env } = await import("cloudflare:test");
    const due = ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt;
    await bot.cron(new Date(Date.parse(due) + 5_000));
    const digest = (await bot.posted()).find((m) => /digest/i.test(visibleText(m)));
    const text = visibleText(digest as StoredMessage);
    // The tests table: name, then state. Over 40 % failed, failing again after a pass once: failing.
    expect(text).toMatch(
      /Checkout flow\n🔴 failing: over 40 % of its recent runs failed; its last run passed\n/,
    );
    expect(text).not.toMatch(/passing/);
  });

  it("and the weekly report name a test the bot called flaky flaky, though its latest runs failed", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    const test = await org.addTest("Flappy flow");
    await bot.command("/decipher", `subscribe test ${test.id}`);
    const soon = new Date(Date.now() + 3 * 60_000);
    const hhmm = soon.toISOString().slice(11, 16);
    await bot.command("/decipher", `digest ${hhmm} UTC`);
    await bot.command("/decipher", `weekly ${localWeekday(soon, "UTC")} ${hhmm} UTC`);
    const t0 = Date.now();
    // Flaky by the rule: its failure goes to the day's flaky thread.
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed", "passed"] as const)
      await org.addRun(test.id, status);
    await bot.cron(new Date(t0));
    // Two more failures: 4 of 9 is more than flaky allows, so the runs alone say failing.
    await org.addRun(test.id, "failed");
    await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + 60_000));
    const { env } = await import("cloudflare:test");
    const digestDue = Date.parse(
      ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt,
    );
    const weeklyDue = Date.parse(
      ((await new WeeklyStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt,
    );
    await bot.cron(new Date(Math.max(digestDue, weeklyDue) + 5_000));
    const posted = await bot.posted();
    const digest = posted.find((m) => /Daily Decipher digest/.test(m.text ?? ""));
    const weekly = posted.find((m) => /Weekly Decipher report/.test(m.text ?? ""));
    expect(visibleText(digest as StoredMessage)).toMatch(
      /Flappy flow\n🟡 flaky: .* · called flaky \d{4}-\d\d-\d\d \d\d:\d\d UTC\n/,
    );
    expect(visibleText(weekly as StoredMessage)).toMatch(/Flappy flow\n🟡 flaky\n/);
  });
});
