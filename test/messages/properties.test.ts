import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { withAlternative } from "../../src/messages/charts.ts";
import { clicksMessage } from "../../src/messages/clicks.ts";
import {
  collectionGrowthThreadReply,
  collectionParent,
  collectionSessionsMessage,
} from "../../src/messages/collection-card.ts";
import { digestMessage } from "../../src/messages/digest-message.ts";
import { section } from "../../src/messages/elements.ts";
import {
  failedRunParent,
  failedRunThreadReply,
  recoveryThreadReply,
} from "../../src/messages/failed-run-card.ts";
import { errorMessage, usageMessage } from "../../src/messages/help.ts";
import { fitMessage } from "../../src/messages/limits.ts";
import { outageMessages } from "../../src/messages/outage.ts";
import { forRichClients, withoutRichBlocks } from "../../src/messages/rich-blocks.ts";
import { screenshotsMessage } from "../../src/messages/screenshots.ts";
import { noSessionsMessage, sessionsMessage } from "../../src/messages/sessions-reply.ts";
import { sharedSessionMessage } from "../../src/messages/shared-session.ts";
import { FAILURES_PER_REPLY, streakReply } from "../../src/messages/streak-reply.ts";
import { timelineMessage } from "../../src/messages/timeline.ts";
import { weeklyMessage } from "../../src/messages/weekly-message.ts";
import { collectionAlertEvidence } from "../../src/model/alert-evidence.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import {
  anyCard,
  anyClicks,
  anyCollection,
  anyCollectionSession,
  anyDate,
  anyHistory,
  anyMention,
  anyNumber,
  anyRichBlock,
  anyRun,
  anySession,
  anyTest,
  anyTimeline,
  anyUrl,
  nasty,
  RUNS,
} from "./arbitraries.ts";

const slackId = fc.stringMatching(/^[A-Z0-9]{2,32}$/);
const anyRef = fc.record({
  teamId: slackId,
  channelId: slackId,
  kind: fc.constantFrom("test" as const, "collection" as const),
  id: fc.integer({ min: 1, max: 2 ** 40 }),
});
const anyUserId = fc.oneof(fc.stringMatching(/^U[A-Z0-9]{2,12}$/), nasty);
const anyAck = fc.record({ userId: anyUserId, at: anyDate });
const anySnooze = fc.record({
  by: anyUserId,
  at: anyDate,
  until: fc.option(anyDate, { nil: null }),
  choice: fc.oneof(
    fc.record({ kind: fc.constant("for" as const), hours: fc.integer() }),
    fc.constant({ kind: "until-pass" as const }),
    fc.record({ kind: fc.constant("until-growth" as const), sessions: fc.integer() }),
  ),
  missedFailures: fc.integer(),
  countAtStart: fc.option(fc.integer(), { nil: null }),
});
const anyTriage = fc.record(
  {
    acknowledgedBy: fc.array(anyAck, { maxLength: 30 }),
    snooze: fc.option(anySnooze, { nil: null }),
    muted: fc.option(fc.record({ by: anyUserId, at: anyDate }), { nil: null }),
  },
  { requiredKeys: [] },
);
const anyMark = fc.record({ id: fc.integer(), at: anyDate });

const now = fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true });
const appUrl = fc.oneof(fc.constant("https://app.getdecipher.com"), anyUrl);

// Generous timeout: the cores are shared, and a slow run is not a failure of the builders.
describe("every builder stays within Slack's limits and never breaks mrkdwn, whatever the vendor sends", {
  timeout: 30_000,
}, () => {
  it("sessionsMessage, with 0–200 sessions, timelines or not, and any More value", () => {
    const entries = fc.array(
      fc.tuple(anySession, fc.option(fc.option(anyTimeline, { nil: null }), { nil: undefined })),
      {
        maxLength: 200,
      },
    );
    fc.assert(
      fc.property(
        entries,
        nasty,
        appUrl,
        now,
        fc.option(nasty, { nil: undefined }),
        (pairs, subject, app, at, more) => {
          const timelines = Object.fromEntries(
            pairs.flatMap(([s, t]) => (t === undefined ? [] : [[s.id, t]])),
          );
          assertWithinSlackLimits(
            sessionsMessage({
              sessions: pairs.map(([s]) => s),
              timelines,
              subject,
              appUrl: app,
              now: at,
              more,
            }),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it("noSessionsMessage, usageMessage, errorMessage", () => {
    fc.assert(
      fc.property(nasty, (s) => {
        assertWithinSlackLimits(noSessionsMessage(s));
        assertWithinSlackLimits(usageMessage(s));
        assertWithinSlackLimits(errorMessage(s));
      }),
      RUNS,
    );
  });

  it("timelineMessage", () => {
    fc.assert(
      fc.property(
        nasty,
        anyTimeline,
        appUrl,
        fc.option(anyDate, { nil: undefined }),
        (id, body, app, start) => {
          const timeline = { object: "sessionTimeline" as const, sessionId: id, ...body };
          assertWithinSlackLimits(
            timelineMessage({ sessionId: id, timeline, appUrl: app, sessionStart: start }),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it("clicksMessage, up to 200 clicks", () => {
    fc.assert(
      fc.property(anyClicks, appUrl, now, (clicks, app, at) => {
        assertWithinSlackLimits(clicksMessage({ sessionId: clicks.sessionId, clicks, appUrl: app, now: at }));
      }),
      { numRuns: 100 },
    );
  });

  it("sharedSessionMessage", () => {
    fc.assert(
      fc.property(
        anyCard,
        fc.option(anyTimeline, { nil: null }),
        nasty,
        appUrl,
        now,
        (session, timeline, by, app, at) => {
          assertWithinSlackLimits(
            sharedSessionMessage({ session, timeline, sharedBy: by, appUrl: app, now: at }),
          );
        },
      ),
      RUNS,
    );
  });

  it("failedRunParent, failedRunThreadReply, recoveryThreadReply, with any triage state", () => {
    fc.assert(
      fc.property(
        anyTest,
        anyRun,
        fc.option(anyRef, { nil: null }),
        fc.record({ failedRuns: anyNumber, lastRun: anyMark }),
        fc.option(anyMark, { nil: null }),
        anyTriage,
        fc.array(
          fc.record({
            id: fc.oneof(fc.integer(), fc.integer({ min: 1, max: 2 ** 40 })),
            status: fc.oneof(fc.constantFrom("passed", "failed", "running"), nasty),
            durationMs: fc.option(anyNumber, { nil: null }),
          }),
          { maxLength: 40 },
        ),
        fc.option(anyMention, { nil: null }),
        appUrl,
        now,
        (test, run, ref, streak, recoveredBy, triage, recentRuns, mention, app, at) => {
          assertWithinSlackLimits(
            failedRunParent({
              ...triage,
              ref,
              test,
              firstRun: run,
              streak,
              recoveredBy,
              evidence: { recentRuns, classification: null, impact: null },
              mention,
              appUrl: app,
              now: at,
            }),
          );
          assertWithinSlackLimits(
            failedRunThreadReply({ test, run, failedRuns: streak.failedRuns, appUrl: app, now: at }),
          );
          assertWithinSlackLimits(
            recoveryThreadReply({ test, run, failedRuns: streak.failedRuns, appUrl: app, now: at }),
          );
        },
      ),
      RUNS,
    );
  });

  it("streakReply, with any burst of failures read in one look and any recovery", () => {
    fc.assert(
      fc.property(
        anyTest,
        fc.array(anyRun, { minLength: 1, maxLength: FAILURES_PER_REPLY }),
        fc.option(anyRun, { nil: null }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        appUrl,
        now,
        (test, runs, recoveredBy, before, named, app, at) => {
          assertWithinSlackLimits(
            streakReply({
              test,
              runs,
              failedRuns: before + runs.length,
              recoveredBy,
              appUrl: app,
              now: at,
              named,
            }),
          );
        },
      ),
      RUNS,
    );
  });

  it("collectionParent, collectionDetailsReply, collectionGrowthThreadReply", () => {
    fc.assert(
      fc.property(
        anyCollection,
        anyNumber,
        fc.array(anyCollectionSession, { maxLength: 8 }),
        fc.option(anyDate, { nil: null }),
        fc.boolean(),
        fc.option(anyRef, { nil: null }),
        anyTriage,
        fc.option(anyNumber, { nil: null }),
        fc.array(fc.record({ at: anyDate, count: anyNumber }), { maxLength: 30 }),
        appUrl,
        now,
        (
          collection,
          previousCount,
          sessions,
          expires,
          regression,
          ref,
          triage,
          growthStep,
          marks,
          app,
          at,
        ) => {
          const input = {
            collection,
            previousCount,
            sessions,
            screenshotsExpiresAt: expires,
            appUrl: app,
            now: at,
          };
          const evidence = collectionAlertEvidence({
            sessions,
            screenshotsExpiresAt: expires,
            since: expires,
          });
          assertWithinSlackLimits(
            collectionParent({
              ...input,
              evidence,
              ...triage,
              ref,
              regression,
              growthStep,
              growthMarks: marks,
            }),
          );
          assertWithinSlackLimits(collectionSessionsMessage({ ...input, since: at, more: regression }));
          assertWithinSlackLimits(collectionGrowthThreadReply(input));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("screenshotsMessage, with a collection's error screenshot or not, as images or as links", () => {
    const anyError = fc.option(
      fc.record({
        main: fc.option(anyUrl, { nil: null }),
        after: fc.option(anyUrl, { nil: null }),
        expiresAt: fc.option(anyDate, { nil: null }),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(
        anyClicks,
        fc.option(anyCard, { nil: null }),
        fc.option(anyError, { nil: undefined }),
        fc.boolean(),
        appUrl,
        now,
        (clicks, session, error, asLinks, app, at) => {
          assertWithinSlackLimits(
            screenshotsMessage({
              sessionId: "3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f",
              session,
              clicks,
              ...(error === undefined ? {} : { error }),
              asLinks,
              appUrl: app,
              now: at,
            }),
          );
        },
      ),
      RUNS,
    );
  });

  it("digestMessage, up to 200 collections and tests, with up to 14 days of charted figures", () => {
    const state = fc.constantFrom(
      "passing" as const,
      "failing" as const,
      "flaky" as const,
      "running" as const,
      "unknown" as const,
    );
    const tests = fc.array(
      fc.record({
        test: anyTest,
        runs24h: anyNumber,
        failures24h: anyNumber,
        passRate: fc.option(fc.double(), { nil: null }),
        state,
      }),
      { maxLength: 200 },
    );
    const collections = fc.array(
      fc.record(
        {
          collection: anyCollection,
          newSessions24h: fc.option(fc.record({ count: anyNumber, atLeast: fc.boolean() }), { nil: null }),
          change24h: anyNumber,
        },
        { requiredKeys: ["collection"] },
      ),
      { maxLength: 200 },
    );
    fc.assert(
      fc.property(
        fc.option(nasty, { nil: undefined }),
        nasty,
        nasty,
        collections,
        tests,
        anyHistory,
        appUrl,
        now,
        (title, date, zone, cs, ts, history, app, at) => {
          const message = digestMessage({
            title,
            date,
            zone,
            collections: cs,
            tests: ts,
            history,
            appUrl: app,
            now: at,
          });
          // As built, as sent where charts show, and as sent where Slack refuses them.
          assertWithinSlackLimits(message);
          assertWithinSlackLimits(forRichClients(message));
          assertWithinSlackLimits(withoutRichBlocks(message));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("weeklyMessage, up to 120 tests and 30 collections, charts and table as built, sent or refused", () => {
    const figures = fc.record({
      runs: fc.nat(400),
      settled: fc.nat(400),
      failures: fc.nat(400),
      recoveries: fc.nat(200),
      flips: fc.nat(400),
      perDay: fc.dictionary(
        fc.constantFrom("2026-03-02", "2026-03-03", "2026-03-08", "bad"),
        fc.record({ passed: anyNumber, failed: anyNumber }),
      ),
    });
    const testLine = fc.record(
      {
        test: anyTest,
        state: fc.constantFrom("passing" as const, "failing" as const, "flaky" as const, "unknown" as const),
        figures,
        capped: fc.boolean(),
        unknown: fc.boolean(),
      },
      { requiredKeys: ["test", "state", "figures", "capped"] },
    );
    const collectionLine = fc.record({
      collection: anyCollection,
      newSessions: fc.record({ count: anyNumber, atLeast: fc.boolean() }),
      since: fc.constantFrom("2026-03-02T09:00:00.000Z", "not a date"),
      regressed: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(nasty, fc.constantFrom("2026-03-02", "2026-03-03", "2026-03-08")), {
          maxLength: 8,
        }),
        nasty,
        fc.array(testLine, { maxLength: 120 }),
        fc.array(collectionLine, { maxLength: 30 }),
        appUrl,
        (days, zone, tests, collections, app) => {
          const message = weeklyMessage({
            days,
            zone,
            tests,
            collections,
            flakiest: tests.slice(0, 3),
            appUrl: app,
          });
          assertWithinSlackLimits(message);
          assertWithinSlackLimits(forRichClients(message));
          assertWithinSlackLimits(withoutRichBlocks(message));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("outageMessages, with any mentions", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            testId: fc.integer(),
            testName: nasty,
            runId: fc.integer(),
            summary: fc.option(nasty, { nil: null }),
            mention: fc.option(anyMention, { nil: null }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        fc.integer({ min: 0, max: 500 }),
        appUrl,
        (items, subscribed, app) => {
          const { parent, overflow } = outageMessages({ items, subscribed, appUrl: app });
          for (const part of [parent, ...overflow]) assertWithinSlackLimits(part.message);
        },
      ),
      RUNS,
    );
  });

  it("fitMessage makes any chart or table Slack's limits allow, or drops it and keeps its alternative", () => {
    fc.assert(
      fc.property(fc.array(anyRichBlock, { maxLength: 6 }), (richBlocks) => {
        const alternatives = richBlocks.flatMap((b, i) =>
          withAlternative({ ...b, block_id: `rich_${i}` }, [section(`alternative ${i}`)]),
        );
        const message = fitMessage({ text: "x", blocks: alternatives });
        assertWithinSlackLimits(message);
        const sent = forRichClients(message);
        const refused = withoutRichBlocks(message);
        assertWithinSlackLimits(sent);
        assertWithinSlackLimits(refused);
        // Nothing is lost: each rich block reaches a reader as itself or as its alternative.
        for (let i = 0; i < richBlocks.length; i++) {
          const shownRich = sent.blocks.some((b) => b.block_id === `rich_${i}`);
          const shownAlt = sent.blocks.some((b) =>
            visibleText({ text: "", blocks: [b] }).includes(`alternative ${i}`),
          );
          expect(shownRich !== shownAlt, `rich block ${i}: chart ${shownRich}, alternative ${shownAlt}`).toBe(
            true,
          );
          expect(visibleText(refused)).toContain(`alternative ${i}`);
        }
      }),
      RUNS,
    );
  });
});
