import fc from "fast-check";
import { describe, it } from "vitest";
import {
  clicksMessage,
  collectionAlert,
  collectionGrowthReply,
  digestMessage,
  errorMessage,
  failedRunAlert,
  failedRunReply,
  noSessionsMessage,
  recoveryReply,
  sessionsMessage,
  sharedSessionMessage,
  timelineMessage,
  usageMessage,
} from "../../../src/slack/blocks/index.ts";
import {
  anyCard,
  anyClicks,
  anyCollection,
  anyCollectionSession,
  anyDate,
  anyNumber,
  anyRun,
  anySession,
  anyTest,
  anyTimeline,
  anyUrl,
  nasty,
  RUNS,
} from "./arbitraries.ts";
import { assertWithinSlackLimits } from "./slack-limits.ts";

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

  it("failedRunAlert, failedRunReply, recoveryReply", () => {
    fc.assert(
      fc.property(anyTest, anyRun, appUrl, now, anyNumber, (test, run, app, at, streak) => {
        assertWithinSlackLimits(failedRunAlert({ test, run, appUrl: app, now: at, failingStreak: streak }));
        assertWithinSlackLimits(failedRunReply({ test, run, appUrl: app, now: at, failingStreak: streak }));
        assertWithinSlackLimits(recoveryReply({ test, run, appUrl: app, now: at, failedRuns: streak }));
      }),
      RUNS,
    );
  });

  it("collectionAlert and collectionGrowthReply", () => {
    fc.assert(
      fc.property(
        anyCollection,
        anyNumber,
        fc.array(anyCollectionSession, { maxLength: 5 }),
        fc.option(anyDate, { nil: null }),
        fc.boolean(),
        appUrl,
        now,
        (collection, previousCount, sessions, expires, regression, app, at) => {
          const input = {
            collection,
            previousCount,
            sessions,
            screenshotsExpiresAt: expires,
            appUrl: app,
            now: at,
          };
          assertWithinSlackLimits(collectionAlert({ ...input, regression }));
          assertWithinSlackLimits(collectionGrowthReply(input));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("digestMessage, up to 200 collections and tests", () => {
    const state = fc.constantFrom(
      "passing" as const,
      "failing" as const,
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
    const collections = fc.array(fc.record({ collection: anyCollection, change24h: anyNumber }), {
      maxLength: 200,
    });
    fc.assert(
      fc.property(
        fc.option(nasty, { nil: undefined }),
        nasty,
        nasty,
        collections,
        tests,
        appUrl,
        now,
        (title, date, zone, cs, ts, app, at) => {
          assertWithinSlackLimits(
            digestMessage({ title, date, zone, collections: cs, tests: ts, appUrl: app, now: at }),
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});
