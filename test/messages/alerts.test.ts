import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import * as ACTION_IDS from "../../src/messages/action-ids.ts";
import { decodeCollectionSessionsValue, decodeSessionButtonValue } from "../../src/messages/button-values.ts";
import {
  collectionGrowthThreadReply,
  collectionParent,
  collectionSessionsMessage,
} from "../../src/messages/collection-card.ts";
import {
  type FailedRunParentInput,
  failedRunParent,
  failedRunThreadReply,
  recoveryThreadReply,
} from "../../src/messages/failed-run-card.ts";
import { flakyThreadParent } from "../../src/messages/failure-meaning.ts";
import { runStrip } from "../../src/messages/run-strip.ts";
import { decodeSnoozeValue, decodeTriageRef } from "../../src/messages/triage-values.ts";
import type { SubscriptionRef } from "../../src/model/alert-control.ts";
import { collectionAlertEvidence } from "../../src/model/alert-evidence.ts";
import { assertWithinSlackLimits, buttonsOf } from "../helpers/block-kit.ts";
import { APP, aCollection, aCollectionSession, aRun, aTest, NOW } from "./fixtures.ts";

const runLink = `${APP}/tests/7/runs/1234`;
const testRef: SubscriptionRef = { teamId: "T0TEST", channelId: "C0ALERTS", kind: "test", id: 7 };
const collectionRef: SubscriptionRef = {
  teamId: "T0TEST",
  channelId: "C0ALERTS",
  kind: "collection",
  id: 55,
};

const parentInput = (over: Partial<FailedRunParentInput> = {}): FailedRunParentInput => ({
  ref: testRef,
  test: aTest,
  firstRun: aRun(),
  streak: { failedRuns: 1, lastRun: { id: 1234, at: "2026-02-16T11:52:05.000Z" } },
  appUrl: APP,
  now: NOW,
  ...over,
});

const elementsOf = (m: { blocks: { type: string }[] }) =>
  m.blocks.flatMap((b) =>
    b.type === "actions" ? (b as unknown as { elements: Record<string, unknown>[] }).elements : [],
  );

describe("run strip", () => {
  it("shows the last 10 runs oldest first, newest last, whatever order they come in", () => {
    const runs = Array.from({ length: 12 }, (_, i) => ({
      id: 100 + i,
      status: i % 3 === 0 ? "failed" : "passed",
    }));
    expect(runStrip([...runs].reverse())).toBe("🟩🟥🟩🟩🟥🟩🟩🟥🟩🟩");
    expect(
      runStrip([
        { id: 2, status: "running" },
        { id: 1, status: "failed" },
      ]),
    ).toBe("🟥⬜");
  });
});

describe("failed-run parent", () => {
  const first = failedRunParent(
    parentInput({
      evidence: {
        recentRuns: [
          { id: 1233, status: "passed" },
          { id: 1234, status: "failed" },
        ],
        classification: null,
        impact: null,
      },
    }),
  );
  const text = visibleText(first);

  it("leads with the test's name, linked, then one context line of run facts with the time once", () => {
    expect(first.blocks[0]).toMatchObject({
      type: "section",
      text: { text: `:x: Test failed: *<${APP}/tests/7|Checkout works>*` },
    });
    expect(first.blocks[1]).toMatchObject({ type: "context" });
    const facts = (first.blocks[1] as { elements: { text: string }[] }).elements[0]?.text;
    expect(facts).toBe(
      `<${runLink}|Run #1234> · step 3 of 7 · 2/7 steps failed · 2 m 05 s · schedule · <!date^1771242725^{ago}|2026-02-16 11:52 UTC>`,
    );
    expect(text.match(/!date\^/g)).toHaveLength(1);
  });

  it("has no field grid, then the summary and the strip of recent runs", () => {
    expect(first.blocks.some((b) => b.type === "section" && "fields" in b && b.fields)).toBe(false);
    expect(text).toContain("Pay button did nothing");
    expect(text).toContain("Last runs 🟩🟥");
    expect(first.text).toBe("Test failed: Checkout works — Pay button did nothing");
  });

  it("says nothing about a streak for a single failure", () => {
    expect(text).not.toMatch(/failing for/);
  });

  it("offers Open run, Acknowledge, a Snooze menu with 'until it passes', and Mute behind a confirm", () => {
    const elements = elementsOf(first);
    expect(elements.map((e) => e.action_id)).toEqual([
      ACTION_IDS.runOpen,
      ACTION_IDS.triageAcknowledge,
      ACTION_IDS.triageSnooze,
      ACTION_IDS.triageMute,
    ]);
    expect(decodeTriageRef(elements[1]?.value)).toEqual(testRef);
    const options = (elements[2] as { options: { text: { text: string }; value: string }[] }).options;
    expect(options.map((o) => o.text.text)).toEqual(["for 1 h", "for 4 h", "for 24 h", "until it passes"]);
    expect(options.map((o) => decodeSnoozeValue(o.value)?.choice)).toEqual([
      { kind: "for", hours: 1 },
      { kind: "for", hours: 4 },
      { kind: "for", hours: 24 },
      { kind: "until-pass" },
    ]);
    expect(elements[3]).toMatchObject({ confirm: { confirm: { text: "Mute" } } });
    expect(JSON.stringify(elements[3])).toContain("/decipher subscribe test 7");
  });

  it("says in Mute's confirm that the Unmute button undoes it, as status and Home offer it", () => {
    const mute = elementsOf(first)[3] as { confirm: { text: { text: string } } };
    expect(mute.confirm.text.text).toMatch(
      /until someone clicks Unmute \(on this alert, in \/decipher status or the app's Home\)/,
    );
  });

  it("keeps the first run and edits only the status line as the streak grows", () => {
    const later = failedRunParent(
      parentInput({ streak: { failedRuns: 3, lastRun: { id: 1240, at: "2026-02-16T11:58:00.000Z" } } }),
    );
    expect(visibleText(later)).toContain(`<${runLink}|Run #1234> · step 3 of 7`);
    expect(visibleText(later)).toContain("failing for 3 runs · last #1240 <!date^1771243080^{ago}|");
    // The latest run is linked from its own thread reply, not twice.
    expect(visibleText(later)).not.toContain("runs/1240");
    expect(later.text).toContain("is failing for 3 runs");
  });

  it("says who is looking, who snoozed until when, and who muted with the way to undo it", () => {
    const triaged = visibleText(
      failedRunParent(
        parentInput({
          acknowledgedBy: [
            { userId: "U0ALICE", at: "2026-02-16T11:55:00.000Z" },
            { userId: "U0BOB", at: "2026-02-16T11:56:00.000Z" },
          ],
          snooze: {
            by: "U0ALICE",
            at: "2026-02-16T11:57:00.000Z",
            until: "2026-02-16T14:00:00.000Z",
            choice: { kind: "for", hours: 2 },
            missedFailures: 0,
            countAtStart: null,
          },
        }),
      ),
    );
    // Since the first click, with the date: a day later it does not read as now.
    expect(triaged).toContain(
      ":eyes: <@U0ALICE> and <@U0BOB> are looking since <!date^1771242900^{date_short_pretty} at {time}|",
    );
    // The snooze's end names its date, not "today": the line stays on the alert once it ended.
    expect(triaged).toContain(
      ":sleeping: snoozed by <@U0ALICE> until <!date^1771250400^{date_short} at {time}|",
    );
    const muted = failedRunParent(parentInput({ muted: { by: "U0BOB", at: "2026-02-16T11:59:00.000Z" } }));
    expect(visibleText(muted)).toContain(":no_bell: muted by <@U0BOB> <!date^1771243140^");
    expect(visibleText(muted)).toContain("`/decipher subscribe test 7`");
    expect(elementsOf(muted).map((e) => e.action_id)).toEqual([ACTION_IDS.runOpen, ACTION_IDS.triageUnmute]);
  });

  it("offers Unsnooze instead of the menu while snoozed 'until it passes'", () => {
    const m = failedRunParent(
      parentInput({
        snooze: {
          by: "U0ALICE",
          at: NOW.toISOString(),
          until: null,
          choice: { kind: "until-pass" },
          missedFailures: 2,
          countAtStart: null,
        },
      }),
    );
    expect(visibleText(m)).toContain("snoozed by <@U0ALICE> until it passes · 2 failures while snoozed");
    expect(elementsOf(m).map((e) => e.action_id)).toContain(ACTION_IDS.triageUnsnooze);
  });

  it('says "Recovered" in words on recovery, without triage controls', () => {
    const m = failedRunParent(
      parentInput({
        streak: { failedRuns: 3, lastRun: { id: 1240, at: NOW.toISOString() } },
        recoveredBy: { id: 1241, at: NOW.toISOString() },
      }),
    );
    expect(visibleText(m)).toMatch(/passed again after 3 failed runs/);
    expect(visibleText(m)).not.toMatch(/failing for/);
    expect(m.blocks[0]).toMatchObject({
      text: { text: expect.stringMatching(/^:white_check_mark: Recovered: /) },
    });
    expect(m.text).toMatch(/^Recovered: Checkout works passed again after 3 failed runs/);
    expect(elementsOf(m).map((e) => e.action_id)).toEqual([ACTION_IDS.runOpen]);
  });

  it("a recovered card says its kept evidence is from the first failure, so 'failing' never reads as now", () => {
    const evidence = {
      recentRuns: [
        { id: 1233, status: "passed" as const },
        { id: 1234, status: "failed" as const },
      ],
      classification: null,
      impact: null,
    };
    const recovered = failedRunParent(
      parentInput({
        evidence,
        streak: { failedRuns: 2, lastRun: { id: 1240, at: NOW.toISOString() } },
        recoveredBy: { id: 1241, at: NOW.toISOString() },
      }),
    );
    expect(visibleText(recovered)).toMatch(/Before it passed again, at run #\d+: Last runs 🟩🟥/);
    expect(visibleText(failedRunParent(parentInput({ evidence })))).not.toMatch(/At run #/);
  });

  it("a recovered card shows no red sign under its ✅: the failure's class is said in words, as of its run", () => {
    const evidence = {
      recentRuns: [
        { id: 1233, status: "passed" as const },
        { id: 1234, status: "failed" as const },
      ],
      classification: { kind: "failing", reason: "its last run failed" },
      impact: null,
    } as never;
    const red = visibleText(failedRunParent(parentInput({ evidence })));
    expect(red).toContain(":x: failing — its last run failed");
    const green = visibleText(
      failedRunParent(parentInput({ evidence, recoveredBy: { id: 1241, at: NOW.toISOString() } })),
    );
    expect(green).toMatch(/:white_check_mark: Recovered/);
    expect(green).toMatch(
      /Before it passed again, at run #\d+: Last runs 🟩🟥 · failing — its last run failed/u,
    );
    expect(green).not.toMatch(/:x:|:red_circle:/);
  });

  it("still reads well when the vendor did not say which step failed, and without a ref has no triage", () => {
    const m = failedRunParent(
      parentInput({ ref: null, firstRun: aRun({ summary: null, durationMs: null }) }),
    );
    expect(visibleText(m)).toContain(
      "<https://app.getdecipher.com/tests/7/runs/1234|Run #1234> · 7 steps · 2/7 steps failed · schedule",
    );
    expect(elementsOf(m).map((e) => e.action_id)).toEqual([ACTION_IDS.runOpen]);
    assertWithinSlackLimits(m);
  });

  it("fits Slack's limits", () => {
    assertWithinSlackLimits(first);
  });
});

describe("flaky alert", () => {
  it("says until when its thread holds its failures as a date token, in words still true after that, the same when re-rendered a day later", () => {
    const at = (now: Date) =>
      flakyThreadParent({
        ref: testRef,
        test: aTest,
        run: aRun(),
        evidence: null,
        appUrl: APP,
        now,
        day: "2026-02-16",
      });
    const posted = visibleText(at(NOW));
    const dayLater = visibleText(at(new Date(NOW.getTime() + 86_400_000)));
    const endOfDay = Date.parse("2026-02-17T00:00:00Z") / 1000;
    // A date ("Feb 17 at 12:00 AM"), not Slack's pretty day: "until today" read the next day is false.
    expect(posted).toContain(
      `This thread holds its failures until <!date^${endOfDay}^{date_short} at {time}|`,
    );
    expect(posted).not.toMatch(/\btoday\b/i);
    expect(dayLater).toBe(posted);
  });

  it("says which run its flaky figure is as of, as a failure card does, and keeps saying it through Acknowledge, Mute and Unmute", () => {
    const flaky = (over: Partial<Parameters<typeof flakyThreadParent>[0]> = {}) =>
      flakyThreadParent({
        ref: testRef,
        test: aTest,
        run: aRun({ id: 1234 }),
        evidence: {
          recentRuns: [1227, 1228, 1229, 1230, 1231, 1232, 1233, 1234].map((id, i) => ({
            id,
            status: i % 2 ? "failed" : "passed",
          })),
          classification: { kind: "flaky", reason: "failed 4 of the last 8 runs" },
          impact: null,
        },
        appUrl: APP,
        now: NOW,
        day: "2026-02-16",
        ...over,
      });
    const later = new Date(NOW.getTime() + 3_600_000);
    const cards = [
      flaky(),
      flaky({ acknowledgedBy: [{ userId: "U1", at: NOW.toISOString() }], now: later }),
      flaky({ muted: { by: "U1", at: NOW.toISOString() }, now: later }),
      flaky({ unmutedBy: { by: "U1", at: later.toISOString() }, now: later }),
    ];
    for (const card of cards) {
      const text = visibleText(card);
      expect(text).toContain("At run #1234: :large_yellow_circle: flaky — failed 4 of the last 8 runs");
      // The block and the fallback text: neither says the figure without its run.
      expect(text.match(/failed 4 of the last 8 runs/g)).toHaveLength(2);
      expect(card.text).toContain("failed 4 of the last 8 runs (at run #1234)");
      assertWithinSlackLimits(card);
    }
  });
});

describe("failed-run thread replies", () => {
  it("a further failure is one compact block with that run's facts and summary", () => {
    const m = failedRunThreadReply({
      test: aTest,
      run: aRun({ id: 1240, summary: { oneLineSummary: "Card declined", firstFailedStepNumber: 5 } }),
      failedRuns: 4,
      appUrl: APP,
      now: NOW,
    });
    expect(m.blocks).toHaveLength(1);
    expect(visibleText(m)).toContain(`:x: <${APP}/tests/7/runs/1240|Run #1240> · step 5 of 7`);
    expect(visibleText(m)).toContain("Card declined");
    expect(m.text).toContain("4 runs in a row");
    assertWithinSlackLimits(m);
  });

  it("the recovery reply says after how many failures", () => {
    const m = recoveryThreadReply({
      test: aTest,
      run: aRun({ id: 1250, status: "passed" }),
      failedRuns: 3,
      appUrl: APP,
      now: NOW,
    });
    expect(visibleText(m)).toContain("*Checkout works* passed again after 3 failed runs");
    expect(visibleText(m)).toContain("Run #1250");
    assertWithinSlackLimits(m);
  });
});

describe("collection parent", () => {
  const sessions = [aCollectionSession(), aCollectionSession(), aCollectionSession()];
  const evidence = collectionAlertEvidence({
    sessions,
    screenshotsExpiresAt: "2026-02-16T15:00:00.000Z",
    since: "2026-02-16T09:00:00.000Z",
  });
  const input = {
    ref: collectionRef,
    collection: aCollection({ sessionCount: 25 }),
    previousCount: 18,
    evidence,
    regression: false,
    growthStep: 5,
    appUrl: APP,
    now: NOW,
  };
  const m = collectionParent(input);
  const text = visibleText(m);

  it("names the collection once, linked to it in Decipher, then one line of counts whose growth says since when it is counted", () => {
    expect(m.blocks[0]).toMatchObject({
      text: {
        text: `:chart_with_upwards_trend: *<${APP}/monitoring/issue-collections/${aCollection().id}|Stripe iframe fails to load>*`,
      },
    });
    expect(text).toContain(
      "18 → 25 sessions (+7 since <!date^1771232400^{date_short_pretty} at {time}|2026-02-16 09:00 UTC>) · 31 errors · 14 users · `/checkout`",
    );
    // The block and the fallback; the Mute button's dialog names it twice more, shown only on a click.
    expect(text.match(/Stripe iframe fails to load/g)?.length).toBe(4);
    expect(text.match(/Mute “Stripe iframe fails to load” \(collection \d+\)\?/g)?.length).toBe(1);
  });

  it("folds the AI summary to its most useful line", () => {
    expect(text).toContain(":robot_face: User cannot pay");
    expect(text).not.toContain("The iframe request timed out");
  });

  it("shows one new session inline with its overview cut short, its screenshot as an image, and its buttons", () => {
    expect(text.match(/stuck on the payment step/g)).toHaveLength(1);
    expect(m.blocks.filter((b) => b.type === "image")).toEqual([
      expect.objectContaining({ image_url: "https://shots.test/err.png" }),
    ]);
    const sessionButtons = buttonsOf(m).filter((b) => b.action_id?.startsWith("session"));
    expect(sessionButtons.map((b) => b.action_id)).toEqual([
      ACTION_IDS.sessionReplay,
      ACTION_IDS.sessionTimeline,
      ACTION_IDS.sessionClicks,
      ACTION_IDS.sessionScreenshots,
    ]);
    expect(sessionButtons[0]?.url).toMatch(new RegExp(`^${APP}/sessions/[0-9a-f-]{36}$`));
  });

  it("'…and 6 more new sessions' (+7, one shown) leads somewhere: a button that lists them since the alert's start", () => {
    expect(text).toContain("…and 6 more new sessions since <!date^1771232400^");
    const more = m.blocks
      .map((b) => (b as { accessory?: { action_id?: string; value?: string } }).accessory)
      .find((a) => a?.action_id === ACTION_IDS.collectionSessions);
    expect(decodeCollectionSessionsValue(more?.value)).toMatchObject({
      collectionId: aCollection().id,
      since: new Date("2026-02-16T09:00:00.000Z"),
      count: 7,
    });
  });

  it("the Screenshots button of the shown session names the collection, so it can show that error screenshot", () => {
    const shots = buttonsOf(m).find((b) => b.action_id === ACTION_IDS.sessionScreenshots);
    expect(decodeSessionButtonValue(shots?.value)).toMatchObject({
      id: sessions[0]?.id,
      collectionId: aCollection().id,
    });
  });

  it("says so in words, with no image, when the screenshot's link has expired or is about to", () => {
    const late = collectionParent({
      ...input,
      evidence: { ...evidence, screenshotsExpiresAt: "2026-02-16T12:05:00.000Z" },
    });
    expect(late.blocks.some((b) => b.type === "image")).toBe(false);
    expect(visibleText(late)).toContain("The error screenshot's link expired <!date^");
    expect(buttonsOf(late).map((b) => b.action_id)).toContain(ACTION_IDS.sessionScreenshots);
  });

  it("offers snoozing until +N more sessions", () => {
    const select = elementsOf(m).find((e) => e.action_id === ACTION_IDS.triageSnooze) as {
      options: { text: { text: string }; value: string }[];
    };
    expect(select.options.at(-1)?.text.text).toBe("until +5 more sessions");
    expect(decodeSnoozeValue(select.options.at(-1)?.value)).toEqual({
      ref: collectionRef,
      choice: { kind: "until-growth", sessions: 5 },
    });
  });

  it("titles a regression as such", () => {
    const r = collectionParent({ ...input, collection: aCollection({ isResolved: true }), regression: true });
    expect(r.blocks[0]).toMatchObject({
      text: {
        text: expect.stringMatching(
          /^:rotating_light: \*Regression:\* \*<.*\|Stripe iframe fails to load>\*$/,
        ),
      },
    });
    expect(r.text.startsWith("Regression")).toBe(true);
  });

  it("fits Slack's limits", () => assertWithinSlackLimits(m));
});

describe("collection thread replies", () => {
  const input = {
    collection: aCollection({ sessionCount: 25 }),
    previousCount: 18,
    sessions: [aCollectionSession(), aCollectionSession()],
    screenshotsExpiresAt: "2026-02-16T15:00:00.000Z",
    appUrl: APP,
    now: NOW,
  };

  it("the 'Show new sessions' answer counts the sessions the alert counted: '5 of 14', and how many more are in Decipher", () => {
    const five = [1, 2, 3, 4, 5].map(() => aCollectionSession());
    const d = collectionSessionsMessage({
      ...input,
      sessions: five,
      since: new Date("2026-02-16T09:00:00.000Z"),
      more: true,
      count: 14,
    });
    const text = visibleText(d);
    expect(text).toContain("5 of 14 sessions new to this collection since <!date^1771232400^");
    expect(text).toMatch(/…and 9 more new sessions: <[^|]+\/issue-collections\/\d+\|see them in Decipher>/);
    expect(text).not.toMatch(/of more|…and more/);
    assertWithinSlackLimits(d);
  });

  it("the 'Show new sessions' answer holds the full AI summary and the sessions, read fresh", () => {
    const d = collectionSessionsMessage({
      ...input,
      since: new Date("2026-02-16T09:00:00.000Z"),
      more: false,
    });
    const text = visibleText(d);
    expect(text).toContain("*Error*: Failed to load Stripe.js");
    expect(text).toContain("*Why*: The iframe request timed out");
    expect(text.match(/stuck on the payment step/g)).toHaveLength(2);
    expect(text).toContain("2 sessions new to this collection since <!date^1771232400^");
    assertWithinSlackLimits(d);
  });

  it("the 'Show new sessions' answer says they are new to the collection, not created since then, and lists them newest first by their own time", () => {
    const at = ["2026-02-16T11:20:00.000Z", "2026-02-16T11:22:00.000Z", "2026-02-16T11:21:00.000Z"];
    const d = collectionSessionsMessage({
      ...input,
      sessions: at.map((createdAt, i) => aCollectionSession({ id: `s${i}`, createdAt })),
      since: new Date("2026-02-16T11:23:00.000Z"),
      more: false,
    });
    const text = visibleText(d);
    expect(text).toContain(
      `3 sessions new to this collection since <!date^${Date.parse("2026-02-16T11:23:00.000Z") / 1000}^{date_short_pretty} at {time}|2026-02-16 11:23 UTC>, newest first`,
    );
    expect(text).not.toMatch(/new sessions since/);
    const order = [...text.matchAll(/<!date\^(\d+)\^[^|]*\|2026-02-16 11:2[0-2] UTC>/g)].map((m) =>
      Number(m[1]),
    );
    expect(order).toEqual(
      [...at]
        .sort()
        .reverse()
        .map((t) => Date.parse(t) / 1000),
    );
  });

  it("later growth replies with its own counts, counted from the last alert it names, and each new session in one line", () => {
    const g = collectionGrowthThreadReply({
      ...input,
      previousCount: 25,
      countedSince: "2026-02-16T10:00:00.000Z",
      collection: aCollection({ sessionCount: 31 }),
    });
    const text = visibleText(g);
    expect(text).toContain("Grew again: 25 → 31 sessions (+6 since <!date^1771236000^");
    // The overview and the screenshot are behind Show new sessions: a thread of growth stays light.
    expect(text).not.toContain("stuck on the payment step");
    expect(g.blocks.filter((b) => b.type === "image")).toEqual([]);
    expect(text).toMatch(/\n• <[^|]+\/sessions\/[^|]+\|[^>]+> · .* · <!date\^\d+\^\{ago\}\|/);
    assertWithinSlackLimits(g);
  });

  describe("a growth reply names its new sessions one line each, and offers their cards as the parent does", () => {
    const since = "2026-02-16T13:16:00.000Z";
    const reply = (count: number) =>
      collectionGrowthThreadReply({
        ...input,
        previousCount: 23,
        countedSince: since,
        collection: aCollection({ sessionCount: 28 }),
        sessions: Array.from({ length: count }, (_, i) => aCollectionSession({ id: `s${i}` })),
      });
    const showButton = (m: ReturnType<typeof reply>) =>
      m.blocks
        .map((b) => (b as { accessory?: { action_id?: string; value?: string } }).accessory)
        .find((a) => a?.action_id === ACTION_IDS.collectionSessions);
    const sinceToken = `<!date^${Date.parse(since) / 1000}^`;
    const lines = (m: ReturnType<typeof reply>) => visibleText(m).match(/^• /gm)?.length ?? 0;

    it("+5 with 3 read: three lines, '5 new sessions since …' and Show new sessions counting all 5", () => {
      const g = reply(3);
      const text = visibleText(g);
      expect(text).toContain("Grew again: 23 → 28 sessions (+5 since");
      expect(lines(g)).toBe(3);
      expect(text).toContain(`5 new sessions since ${sinceToken}`);
      expect(decodeCollectionSessionsValue(showButton(g)?.value)).toEqual({
        collectionId: aCollection().id,
        since: new Date(since),
        count: 5,
        total: 28,
      });
      assertWithinSlackLimits(g);
    });

    it("the vendor returned fewer than the growth: the growth is counted, the sessions read are named", () => {
      expect(lines(reply(1))).toBe(1);
      const none = reply(0);
      expect(lines(none)).toBe(0);
      expect(visibleText(none)).toContain(`5 new sessions since ${sinceToken}`);
      expect(decodeCollectionSessionsValue(showButton(none)?.value)?.count).toBe(5);
    });

    it("more read than it grew: the sessions read are counted", () => {
      const grewBy2 = collectionGrowthThreadReply({
        ...input,
        previousCount: 26,
        countedSince: since,
        collection: aCollection({ sessionCount: 28 }),
        sessions: [aCollectionSession(), aCollectionSession(), aCollectionSession()],
      });
      expect(visibleText(grewBy2)).toContain(`3 new sessions since ${sinceToken}`);
      expect(decodeCollectionSessionsValue(showButton(grewBy2)?.value)?.count).toBe(3);
    });

    it("more read than one reply names: five lines, all of them counted", () => {
      const g = reply(6);
      expect(lines(g)).toBe(5);
      expect(visibleText(g)).toContain(`6 new sessions since ${sinceToken}`);
      expect(decodeCollectionSessionsValue(showButton(g)?.value)?.count).toBe(6);
    });

    it("no starting date known: still says how many, linked to the collection in Decipher", () => {
      const g = collectionGrowthThreadReply({
        ...input,
        previousCount: 23,
        countedSince: null,
        collection: aCollection({ sessionCount: 28 }),
        sessions: [aCollectionSession()],
      });
      expect(visibleText(g)).toMatch(/5 new sessions since the last alert/);
    });
  });
});
