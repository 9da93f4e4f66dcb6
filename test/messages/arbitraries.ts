import fc from "fast-check";
import type {
  Click,
  CollectionSession,
  IssueCollection,
  SessionClicks,
  SessionSummary,
  TestInfo,
  TestRun,
  TimelineBody,
} from "../../src/decipher/types.ts";
import { type SharedSessionCard, toSharedSessionCard } from "../../src/messages/button-values.ts";
import type { RichBlock } from "../../src/messages/rich-blocks.ts";
import type { Subscription } from "../../src/model/subscription.ts";

/** Property runs per builder: the machines are shared, 200 finds the usual suspects. */
export const RUNS = { numRuns: 200 } as const;

const piece = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "<",
    ">",
    "&",
    "|",
    "&amp;",
    "<!channel>",
    "<https://evil.test|click>",
    "<@U123>",
    "*",
    "_",
    "`",
    "\n",
    "😀",
    "🇩🇪",
    "\uD83D",
    ":flag-de:",
    "<!date^1^{time}|x>",
  ),
);

/** Vendor text at its worst: markup, entities, emoji, lone surrogates, sometimes huge. */
export const nasty: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.array(piece, { maxLength: 8 }).map((p) => p.join("")) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(piece, fc.integer({ min: 1, max: 3000 }))
      .map(([p, n]) => (p || "x").repeat(n).slice(0, 7000)),
  },
);

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null));

export const anyNumber = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
  fc.double(),
  fc.integer(),
);

export const anyUrl = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  nasty,
  fc.constant("javascript:alert(1)"),
  fc.constant(`https://shots.test/${"a".repeat(3100)}`),
  fc.constant("https://x.test/a|b>c<d e"),
);

export const anyDate = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  nasty,
);

const anyId = fc.oneof(fc.uuid(), nasty);

export const anySession: fc.Arbitrary<SessionSummary> = fc.record({
  object: fc.constant("session" as const),
  id: anyId,
  url: anyUrl,
  createdAt: anyDate,
  duration: nullable(anyNumber),
  userEmail: nullable(nasty),
  userId: nullable(nasty),
  userAccount: nullable(nasty),
  browser: nullable(nasty),
  device: nullable(nasty),
  countryCode: nullable(fc.oneof(fc.constantFrom("de", "US", "XX", "G"), nasty)),
  hasTimeline: fc.boolean(),
});

export const anyCard: fc.Arbitrary<SharedSessionCard> = anySession.map(toSharedSessionCard);

export const anyTimeline: fc.Arbitrary<TimelineBody> = fc.record({
  overview: nasty,
  tags: fc.array(fc.record({ tag: nasty, reasoning: nasty }), { maxLength: 15 }),
  pages: fc.array(
    fc.record({
      page: nasty,
      startTime: anyNumber,
      endTime: anyNumber,
      clickCount: anyNumber,
      featuresUsed: fc.array(nasty, { maxLength: 12 }),
      activities: fc.array(
        fc.record({
          startTime: nasty,
          endTime: nasty,
          summary: nasty,
          userAction: nasty,
          userBehavior: nasty,
        }),
        { maxLength: 15 },
      ),
    }),
    { maxLength: 60 },
  ),
  loadingIssues: fc.array(
    fc.record({
      description: nasty,
      longDescription: nasty,
      durationInSeconds: anyNumber,
      timestamp: anyNumber,
    }),
    { maxLength: 30 },
  ),
});

const anyClick: fc.Arbitrary<Click> = fc.record(
  {
    id: fc.integer(),
    type: nasty,
    timestamp: anyNumber,
    clickCount: anyNumber,
    navigationTo: nullable(nasty),
    screenshots: nullable(fc.record({ before: nullable(anyUrl), after: nullable(anyUrl) })),
    clickText: nullable(nasty),
    clickTag: nullable(nasty),
    clickCssClass: nullable(nasty),
  },
  { requiredKeys: ["id", "type", "timestamp", "clickCount", "navigationTo", "screenshots"] },
);

export const anyClicks: fc.Arbitrary<SessionClicks> = fc.record({
  object: fc.constant("sessionClicks" as const),
  sessionId: anyId,
  data: fc.array(anyClick, { maxLength: 200 }),
  screenshotsExpiresAt: nullable(anyDate),
});

export const anyTest: fc.Arbitrary<TestInfo> = fc.record({ id: fc.integer(), name: nasty, url: anyUrl });

export const anyRun: fc.Arbitrary<TestRun> = fc.record({
  object: fc.constant("testRun" as const),
  id: fc.integer(),
  testId: fc.integer(),
  status: fc.constantFrom("passed" as const, "failed" as const, "running" as const),
  startTime: anyDate,
  endTime: nullable(anyDate),
  durationMs: nullable(anyNumber),
  triggeredBy: nasty,
  createdAt: anyDate,
  summary: nullable(fc.record({ oneLineSummary: nasty, firstFailedStepNumber: nullable(anyNumber) })),
  totalSteps: anyNumber,
  failedSteps: anyNumber,
});

export const anyCollection: fc.Arbitrary<IssueCollection> = fc.record({
  id: fc.integer(),
  type: nasty,
  rootCause: nasty,
  shortenedPath: nasty,
  createdAt: anyDate,
  isResolved: fc.boolean(),
  errorCount: anyNumber,
  sessionCount: anyNumber,
  estimatedUsers: anyNumber,
});

export const anyCollectionSession: fc.Arbitrary<CollectionSession> = fc
  .tuple(
    anySession,
    fc.record(
      {
        userUsername: nullable(nasty),
        userPlan: nullable(nasty),
        userRole: nullable(nasty),
        representativeIssue: nullable(
          fc.record({
            errorId: nasty,
            latestIssueAt: anyDate,
            shortenedPath: nasty,
            fullPath: nasty,
            aiSummary: nullable(
              fc.record({
                category: nasty,
                behavior: nasty,
                productFeature: nasty,
                errorText: nasty,
                reasoning: nasty,
              }),
            ),
          }),
        ),
        timeline: anyTimeline,
        errorScreenshots: nullable(fc.record({ main: nullable(anyUrl), after: nullable(anyUrl) })),
      },
      { requiredKeys: ["userUsername", "userPlan", "userRole", "representativeIssue"] },
    ),
  )
  .map(([session, extra]) => ({ ...session, ...extra }));

/** Mentions as stored (`<@U…>`, `<!subteam^S…>`) and values no stored one should ever be. */
export const anyMention: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[UW][A-Z0-9]{2,12}$/).map((id) => `<@${id}>`),
  fc.stringMatching(/^S[A-Z0-9]{2,12}$/).map((id) => `<!subteam^${id}>`),
  fc.constantFrom("<!here>", "<!channel>", "@oncall", "<@U1|a>b>"),
  nasty,
);

const anyDay = fc.record({
  date: fc
    .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  tests: fc.record({ settled: fc.nat(5000), failures: fc.nat(5000) }).map((t) => ({
    settled: t.settled,
    failures: Math.min(t.failures, t.settled),
  })),
  collections: fc.dictionary(fc.integer({ min: 1, max: 600 }).map(String), fc.nat(10_000), { maxKeys: 12 }),
});

/** Up to 14 stored digest days, in any order, some on the same date. */
export const anyHistory = fc.array(anyDay, { maxLength: 16 });

const anyLabel = fc.oneof(nasty, fc.string({ maxLength: 30 }), fc.constantFrom("Mon", "Tue", "Wed", ""));
const anyValue = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -1, Number.NaN, Number.POSITIVE_INFINITY),
);

const anySeriesChart = fc
  .record({
    type: fc.constantFrom("bar" as const, "line" as const, "area" as const),
    categories: fc.array(anyLabel, { maxLength: 30 }),
    series: fc.array(fc.record({ name: anyLabel, values: fc.array(anyValue, { maxLength: 30 }) }), {
      maxLength: 9,
    }),
    x: fc.option(nasty, { nil: undefined }),
    y: fc.option(nasty, { nil: undefined }),
  })
  .map(({ type, categories, series, x, y }) => ({
    type,
    // Mostly series that cover the categories (as builders make them), sometimes not.
    series: series.map((s, i) => ({
      name: s.name,
      data:
        i % 3 === 2
          ? s.values.map((value, j) => ({ label: categories[j] ?? `c${j}`, value }))
          : categories.map((label, j) => ({ label, value: s.values[j] ?? j })),
    })),
    axis_config: {
      categories,
      ...(x === undefined ? {} : { x_label: x }),
      ...(y === undefined ? {} : { y_label: y }),
    },
  }));

const anyPie = fc.record({
  type: fc.constant("pie" as const),
  segments: fc.array(fc.record({ label: anyLabel, value: anyValue }), { maxLength: 10 }),
});

const anyCell = fc.oneof(
  fc.record({
    type: fc.constant("raw_text" as const),
    text: fc.oneof(nasty, fc.constant(""), fc.constant("  ")),
  }),
  fc.record({ url: anyUrl, text: fc.oneof(nasty, fc.constant("")) }).map(({ url, text }) => ({
    type: "rich_text" as const,
    elements: [{ type: "rich_text_section" as const, elements: [{ type: "link" as const, url, text }] }],
  })),
);

/** Charts and tables of any size and content, as a careless builder might hand them over. */
export const anyRichBlock: fc.Arbitrary<RichBlock> = fc.oneof(
  fc.record({
    type: fc.constant("data_visualization" as const),
    title: anyLabel,
    chart: fc.oneof(anySeriesChart, anyPie),
  }),
  fc.record({
    type: fc.constant("table" as const),
    rows: fc.array(fc.array(anyCell, { maxLength: 24 }), { maxLength: 110 }),
    column_settings: fc.array(
      fc.record({ align: fc.constantFrom("left" as const, "center" as const, "right" as const) }),
      { maxLength: 25 },
    ),
  }),
);

const channelId = fc.stringMatching(/^C[A-Z0-9]{2,10}$/);
const iso = fc
  .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
  .map((d) => d.toISOString());
const ts = fc
  .tuple(fc.integer({ min: 1e9, max: 2e9 }), fc.integer({ min: 0, max: 999999 }))
  .map(([a, b]) => `${a}.${String(b).padStart(6, "0")}`);

const base = {
  channelId,
  createdAt: iso,
  createdBy: fc.constant("U0ALICE"),
  paused: fc.option(fc.record({ reason: nasty, at: iso }), { nil: null }),
  lastError: fc.option(fc.record({ message: nasty, at: iso }), { nil: null }),
  lastChangeAt: iso,
  acknowledgedBy: fc.option(fc.record({ userId: fc.constantFrom("U0BOB", "bad id"), at: iso }), {
    nil: undefined,
  }),
};

/** A stored subscription of either kind, with vendor names at their worst. */
export const anySubscription: fc.Arbitrary<Subscription> = fc.oneof(
  fc.record({
    ...base,
    kind: fc.constant("test" as const),
    testId: fc.integer({ min: 1, max: 1e9 }),
    testName: nasty,
    lastRunId: fc.nat(),
    lastRunAt: fc.constant(null),
    handledRunIds: fc.constant([]),
    streak: fc.option(
      fc.record({ threadTs: ts, failedRuns: fc.nat(), firstRunId: fc.nat(), lastRunId: fc.nat() }),
      { nil: null },
    ),
  }),
  fc.record({
    ...base,
    kind: fc.constant("collection" as const),
    collectionId: fc.integer({ min: 1, max: 1e9 }),
    rootCause: nasty,
    growth: fc.constant(null),
    alertedCount: fc.nat(),
    alertedAt: iso,
    wasResolved: fc.boolean(),
    regressed: fc.boolean(),
    threadTs: fc.option(ts, { nil: null }),
  }),
) as fc.Arbitrary<Subscription>;
