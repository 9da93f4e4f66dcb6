import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mrkdwnProblems } from "../../dev/slack/block-limits.ts";
import {
  homeView,
  listMessage,
  noticeMessage,
  statusMessage,
  subscribedMessage,
} from "../../src/kinds/messages.ts";
import { brokenNowMessage } from "../../src/messages/broken-now.ts";
import { clicksMessage } from "../../src/messages/clicks.ts";
import {
  collectionGrowthThreadReply,
  collectionParent,
  collectionSessionsMessage,
} from "../../src/messages/collection-card.ts";
import { digestMessage } from "../../src/messages/digest-message.ts";
import {
  failedRunParent,
  failedRunThreadReply,
  recoveryThreadReply,
} from "../../src/messages/failed-run-card.ts";
import {
  flakyThreadParent,
  flakyThreadReply,
  withProductionLines,
} from "../../src/messages/failure-meaning.ts";
import { errorMessage, usageMessage } from "../../src/messages/help.ts";
import type { SlackMessage } from "../../src/messages/limits.ts";
import { outageMessages } from "../../src/messages/outage.ts";
import { screenshotsMessage } from "../../src/messages/screenshots.ts";
import { sessionUnfurl } from "../../src/messages/session-unfurl.ts";
import { noSessionsMessage, sessionsMessage } from "../../src/messages/sessions-reply.ts";
import { sharedSessionMessage } from "../../src/messages/shared-session.ts";
import { streakReply } from "../../src/messages/streak-reply.ts";
import { testUnfurl } from "../../src/messages/test-unfurl.ts";
import { timelineMessage } from "../../src/messages/timeline.ts";
import { type WeeklyTestLine, weeklyMessage } from "../../src/messages/weekly-message.ts";
import { collectionAlertEvidence, testAlertEvidence } from "../../src/model/alert-evidence.ts";
import { indexEntry } from "../../src/model/channel-index.ts";
import type { FailureContext } from "../../src/model/failure-context.ts";
import type { ImpactResult } from "../../src/model/production-impact.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../../src/model/subscription.ts";
import { classifyTest } from "../../src/model/test-classification.ts";
import { productionImpactMessage } from "../helpers/production-impact.ts";
import {
  APP,
  aCollection,
  aCollectionSession,
  aRun,
  aSession,
  aTest,
  aTimeline,
  NOW,
  SESSION_ID,
  someClicks,
} from "./fixtures.ts";

/**
 * Names as people write them: `&`, `<`, `>`, emoji and mrkdwn characters. Every builder must
 * escape them exactly once, so a reader sees "Search & filters", never "Search &amp;amp;
 * filters" (escaped twice) nor a broken message (escaped not at all). No `;` and no backtick:
 * then no raw name holds an entity of its own, and `code()` has nothing to replace.
 */
const name = fc
  .array(
    fc.constantFrom(
      "&",
      "<",
      ">",
      "😀",
      "🇩🇪",
      "*",
      "_",
      "~",
      ":tada:",
      "Search",
      "filters",
      "a",
      "1",
      "é",
      "|",
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => `${parts.join(" ")} x`.replace(/\s+/g, " ").trim());

type Text = { type: string; text: string };

/** Every text of a message, with whether Slack reads it as mrkdwn. */
function texts(message: { text?: string; blocks?: unknown[] }): Text[] {
  const out: Text[] = message.text ? [{ type: "mrkdwn", text: message.text }] : [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const n = node as Record<string, unknown>;
      if ((n.type === "mrkdwn" || n.type === "plain_text") && typeof n.text === "string")
        out.push({ type: n.type, text: n.text });
      // Table cells and rich-text links are literal: Slack shows them as they are, like plain text.
      else if ((n.type === "raw_text" || n.type === "link") && typeof n.text === "string")
        out.push({ type: "plain_text", text: n.text });
      else for (const value of Object.values(n)) walk(value);
    }
  };
  walk(message.blocks ?? []);
  return out;
}

/** What a reader sees of mrkdwn: entities decoded once, link targets dropped. */
const seen = (t: Text) =>
  t.type === "mrkdwn"
    ? t.text
        .replace(/<(?:https?:[^|>]*\|)([^>]*)>/g, "$1")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&")
    : t.text;

/** The name shows as written, and nothing anywhere is escaped twice (or escaped in plain text). */
function escapedOnce(message: { text?: string; blocks?: unknown[] }, raw: string, where: string) {
  const all = texts(message);
  for (const t of all) {
    if (t.type === "mrkdwn") {
      expect(t.text, where).not.toMatch(/&amp;(amp|lt|gt);/);
      expect(mrkdwnProblems(t.text, where).join("; ")).toBe("");
    } else expect(t.text, where).not.toMatch(/&(amp|lt|gt);/);
  }
  expect(all.map(seen).join("\n"), where).toContain(raw);
  saysNoStaleTime(message, raw, where);
}

/**
 * Outside the name itself and Slack's date tokens (rendered when read), no text says a time
 * that goes stale: "just now", "19 min ago", "today", "yesterday", "this morning", "currently".
 */
function saysNoStaleTime(message: { text?: string; blocks?: unknown[] }, raw: string, where: string) {
  const said = texts(message)
    .map(seen)
    .join("\n")
    .split(raw)
    .join(" ")
    .replace(/<!date\^[^>]*>/g, " ");
  expect(said, where).not.toMatch(
    /\bjust now\b|\b\d+\s*(?:s|sec|secs|m|min|mins|minutes?|h|hrs?|hours?|d|days?) ago\b|\b(?:today|yesterday|tonight|this (?:morning|afternoon|evening)|currently|right now|still failing)\b/i,
  );
}

const RUNS = { numRuns: 60 } as const;

function testSub(testName: string, over: Partial<TestSubscription> = {}): TestSubscription {
  const at = "2026-02-16T11:00:00.000Z";
  return {
    kind: "test",
    channelId: "C0ALERTS",
    createdAt: at,
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: at,
    testId: 101,
    testName,
    lastRunId: 10_069,
    lastRunAt: at,
    streak: {
      threadTs: "1732200000.000100",
      failedRuns: 2,
      firstRunId: 10_060,
      lastRunId: 10_069,
      firstRun: aRun({ summary: { oneLineSummary: testName, firstFailedStepNumber: 2 } }),
    },
    muted: { by: "U0BOB", at },
    ...over,
  };
}

function collectionSub(rootCause: string): CollectionSubscription {
  const at = "2026-02-16T11:00:00.000Z";
  return {
    kind: "collection",
    channelId: "C0ALERTS",
    createdAt: at,
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: at,
    collectionId: 501,
    rootCause,
    growth: null,
    alertedCount: 12,
    alertedAt: at,
    wasResolved: false,
    regressed: true,
    threadTs: "1732200000.000200",
  };
}

describe("names are escaped exactly once, and no time goes stale, in every message builder", () => {
  it("test alerts: parent (with its evidence), thread reply, recovery, flaky thread, outage", () => {
    fc.assert(
      fc.property(name, (raw) => {
        const test = { ...aTest, name: raw };
        const run = aRun({ summary: { oneLineSummary: raw, firstFailedStepNumber: 2 } });
        const impact: ImpactResult = {
          unavailable: false,
          page: "/checkout",
          since: NOW.toISOString(),
          sessions: 3,
          more: false,
          example: {
            sessionId: SESSION_ID,
            createdAt: NOW.toISOString(),
            userEmail: raw,
            hasTimeline: true,
            overview: raw,
          },
          collections: [{ id: 501, rootCause: raw, path: "/checkout", sessions: 4, addedToday: 1 }],
        };
        const evidence = { recentRuns: [{ id: 1, status: "failed" }], classification: null, impact };
        const streak = { failedRuns: 2, lastRun: { id: 1240, at: NOW.toISOString() } };
        escapedOnce(
          failedRunParent({ ref: null, test, firstRun: run, streak, evidence, appUrl: APP, now: NOW }),
          raw,
          "failedRunParent",
        );
        escapedOnce(failedRunThreadReply({ test, run, failedRuns: 2, appUrl: APP, now: NOW }), raw, "reply");
        escapedOnce(
          streakReply({
            test,
            runs: [run, run],
            failedRuns: 3,
            recoveredBy: run,
            appUrl: APP,
            now: NOW,
            named: true,
          }),
          raw,
          "streakReply",
        );
        escapedOnce(
          recoveryThreadReply({ test, run, failedRuns: 2, appUrl: APP, now: NOW }),
          raw,
          "recovery",
        );
        const meaning: FailureContext = {
          history: [run],
          classification: classifyTest([run], NOW),
          impact: null,
        };
        escapedOnce(
          flakyThreadParent({
            ref: null,
            test,
            run,
            evidence: testAlertEvidence(meaning, run.id),
            appUrl: APP,
            now: NOW,
            day: "2026-02-16",
          }),
          raw,
          "flakyThreadParent",
        );
        escapedOnce(flakyThreadReply(test, run, meaning, APP), raw, "flakyThreadReply");
        escapedOnce(
          outageMessages({
            items: [{ testId: 7, testName: raw, runId: 3, summary: raw }],
            appUrl: APP,
            subscribed: 3,
          }).parent.message,
          raw,
          "outageMessage",
        );
        escapedOnce(productionImpactMessage({ impact, appUrl: APP }), raw, "productionImpactMessage");
      }),
      RUNS,
    );
  });

  it("collection alerts: parent, growth reply, the Show new sessions answer", () => {
    fc.assert(
      fc.property(name, (raw) => {
        const collection = aCollection({ rootCause: raw });
        const sessions = [aCollectionSession({ userEmail: raw })];
        const input = {
          collection,
          previousCount: 3,
          sessions,
          screenshotsExpiresAt: null,
          appUrl: APP,
          now: NOW,
        };
        const evidence = collectionAlertEvidence({
          sessions,
          screenshotsExpiresAt: null,
          since: NOW.toISOString(),
          guards: [{ testId: 7, testName: raw, lastRunId: 3, failing: true }],
        });
        const parent = collectionParent({ ...input, ref: null, evidence, regression: true });
        escapedOnce(parent, raw, "collectionParent");
        escapedOnce(collectionGrowthThreadReply(input), raw, "collectionGrowthThreadReply");
        escapedOnce(
          collectionSessionsMessage({ ...input, since: NOW, more: true }),
          raw,
          "collectionSessionsMessage",
        );
      }),
      RUNS,
    );
  });

  it("channel replies: list, status, subscribe, digest, notices, what is broken, Home", () => {
    fc.assert(
      fc.property(name, (raw) => {
        const subs: Subscription[] = [testSub(raw), collectionSub(raw)];
        const entries = subs.map((s) => indexEntry(s, NOW));
        escapedOnce(listMessage(entries, null, APP, NOW), raw, "listMessage");
        escapedOnce(statusMessage(entries, null, APP, NOW), raw, "statusMessage");
        for (const sub of subs) escapedOnce(subscribedMessage(sub, APP, false), raw, "subscribedMessage");
        escapedOnce(
          noticeMessage({
            sub: testSub(raw, { paused: { reason: raw, at: NOW.toISOString() } }),
            kind: "paused",
            appUrl: APP,
          }),
          raw,
          "noticeMessage",
        );
        const digest = digestMessage({
          title: raw,
          date: "2026-02-16",
          zone: "UTC",
          collections: [
            { collection: aCollection({ rootCause: raw }), muted: { by: "U0BOB", at: NOW.toISOString() } },
          ],
          tests: [
            { test: { ...aTest, name: raw }, runs24h: 3, failures24h: 1, passRate: 0.6, state: "failing" },
          ],
          appUrl: APP,
          now: NOW,
        });
        escapedOnce(digest, raw, "digestMessage");
        const week = { runs: 9, settled: 9, failures: 3, recoveries: 2, flips: 4, perDay: {} };
        const weekly: WeeklyTestLine = {
          test: { ...aTest, name: raw },
          state: "flaky",
          figures: week,
          capped: false,
        };
        escapedOnce(
          weeklyMessage({
            days: ["2026-02-10", "2026-02-16"],
            zone: "UTC",
            tests: [weekly],
            collections: [
              {
                collection: aCollection({ rootCause: raw }),
                newSessions: { count: 3, atLeast: false },
                since: "2026-02-09T09:00:00.000Z",
                regressed: false,
              },
            ],
            flakiest: [weekly],
            appUrl: APP,
          }),
          raw,
          "weeklyMessage",
        );
        const impact: ImpactResult = { unavailable: true, page: "/checkout", reason: "timeout" };
        escapedOnce(withProductionLines(digest, [{ testName: raw, impact }]), raw, "withProductionLines");
        escapedOnce(
          brokenNowMessage({
            subscriptions: subs,
            appUrl: APP,
            teamUrl: "https://acme.slack.com/",
            lastPollAt: null,
            now: new Date(),
          }),
          raw,
          "brokenNowMessage",
        );
        escapedOnce(
          homeView({ subscriptions: subs, appUrl: APP, teamUrl: "https://acme.slack.com/" }),
          raw,
          "homeView",
        );
      }),
      RUNS,
    );
  });

  it("sessions: cards, shared card, timeline, clicks, screenshots, unfurls, help and errors", () => {
    fc.assert(
      fc.property(name, (raw) => {
        const session = aSession({ userEmail: raw });
        escapedOnce(
          sessionsMessage({ sessions: [session], timelines: {}, subject: raw, appUrl: APP, now: NOW }),
          raw,
          "sessionsMessage",
        );
        escapedOnce(noSessionsMessage(raw), raw, "noSessionsMessage");
        escapedOnce(
          sharedSessionMessage({ session, timeline: null, sharedBy: "U0BOB", appUrl: APP, now: NOW }),
          raw,
          "sharedSessionMessage",
        );
        escapedOnce(
          timelineMessage({
            sessionId: SESSION_ID,
            session,
            timeline: aTimeline({ overview: raw }),
            appUrl: APP,
          }),
          raw,
          "timelineMessage",
        );
        escapedOnce(
          clicksMessage({ sessionId: SESSION_ID, session, clicks: someClicks(), appUrl: APP, now: NOW }),
          raw,
          "clicksMessage",
        );
        escapedOnce(
          screenshotsMessage({ sessionId: SESSION_ID, session, clicks: someClicks(), appUrl: APP, now: NOW }),
          raw,
          "screenshotsMessage",
        );
        const unfurl = (blocks: unknown[]): SlackMessage => ({
          text: "",
          blocks: blocks as SlackMessage["blocks"],
        });
        escapedOnce(
          unfurl(
            sessionUnfurl({
              url: `${APP}/sessions/${SESSION_ID}`,
              sessionId: SESSION_ID,
              lookup: { session, overview: raw, tags: [], hasTimeline: true, screenshot: null },
              now: NOW,
            }),
          ),
          raw,
          "sessionUnfurl",
        );
        const facts = { ...aRun(), summary: { oneLineSummary: raw, firstFailedStepNumber: 1 } };
        escapedOnce(
          unfurl(
            testUnfurl({
              url: `${APP}/tests/7`,
              lookup: { test: { ...aTest, name: raw }, recent: [facts], lastFailure: facts, run: null },
            }),
          ),
          raw,
          "testUnfurl",
        );
        escapedOnce(usageMessage(raw), raw, "usageMessage");
        escapedOnce(errorMessage(raw), raw, "errorMessage");
      }),
      RUNS,
    );
  });

  it("the outage message shows 'Search & filters' as written", () => {
    const m = outageMessages({
      items: [{ testId: 7, testName: "Search & filters", runId: 3, summary: null }],
      appUrl: APP,
      subscribed: 3,
    }).parent.message;
    expect(JSON.stringify(m.blocks)).toContain("|Search &amp; filters · run #3>");
    expect(JSON.stringify(m)).not.toContain("&amp;amp;");
  });

  it("no message says a relative time that goes stale ('just now', '19 min ago')", () => {
    const at = new Date(NOW.getTime() - 19 * 60_000).toISOString();
    const messages = [
      sessionsMessage({
        sessions: [aSession({ createdAt: at })],
        timelines: {},
        subject: "x",
        appUrl: APP,
        now: NOW,
      }),
      clicksMessage({ sessionId: SESSION_ID, clicks: someClicks(), appUrl: APP, now: NOW }),
      collectionParent({
        ref: null,
        collection: aCollection(),
        previousCount: 3,
        evidence: collectionAlertEvidence({
          sessions: [aCollectionSession({ createdAt: at })],
          screenshotsExpiresAt: null,
          since: at,
        }),
        regression: false,
        appUrl: APP,
        now: NOW,
      }),
      productionImpactMessage({
        impact: {
          unavailable: false,
          page: "/checkout",
          since: at,
          sessions: 1,
          more: false,
          example: {
            sessionId: SESSION_ID,
            createdAt: at,
            userEmail: "jane@acme.com",
            hasTimeline: false,
            overview: null,
          },
          collections: [],
        },
        appUrl: APP,
      }),
    ];
    for (const m of messages) {
      const text = texts(m)
        .map((t) => t.text)
        .join("\n");
      expect(text).not.toMatch(/just now|\d+ (min|h|d|mo|y) ago/);
      expect(text).toMatch(/<!date\^\d+\^/);
    }
  });
});
