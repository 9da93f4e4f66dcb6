import { describe, expect, it } from "vitest";
import { visibleText as allText } from "../../dev/in-workerd/bot.ts";
import { homeView, subscriptionLine } from "../../src/kinds/messages.ts";
import { withAlternative } from "../../src/messages/charts.ts";
import { collectionParent } from "../../src/messages/collection-card.ts";
import { digestMessage } from "../../src/messages/digest-message.ts";
import { context, section } from "../../src/messages/elements.ts";
import { failedRunParent } from "../../src/messages/failed-run-card.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "../../src/messages/limits.ts";
import { outageMessages } from "../../src/messages/outage.ts";
import {
  type DataVisualizationBlock,
  forRichClients,
  type TableBlock,
  withoutRichBlocks,
} from "../../src/messages/rich-blocks.ts";
import { type WeeklyCollectionLine, weeklyMessage } from "../../src/messages/weekly-message.ts";
import { collectionAlertEvidence } from "../../src/model/alert-evidence.ts";
import type { DigestDay } from "../../src/model/digest-history.ts";
import type { Subscription } from "../../src/model/subscription.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import { APP, aCollection, aRun, aTest, NOW } from "./fixtures.ts";

const charts = (m: SlackMessage) =>
  m.blocks.filter((b): b is DataVisualizationBlock => b.type === "data_visualization");
const tables = (m: SlackMessage) => m.blocks.filter((b): b is TableBlock => b.type === "table");
const cellText = (t: TableBlock, row: number, col: number) => {
  const cell = t.rows[row]?.[col];
  if (!cell) return undefined;
  return cell.type === "raw_text" ? cell.text : cell.elements[0]?.elements[0]?.text;
};

const day = (
  date: string,
  settled: number,
  failures: number,
  collections: Record<string, number>,
): DigestDay => ({
  date,
  tests: { settled, failures },
  collections,
});

describe("the digest's charts and table", () => {
  const base = { date: "2026-02-16", zone: "Europe/Berlin", appUrl: APP, now: NOW };
  const collections = [
    {
      collection: aCollection({ id: 501, rootCause: "PaymentForm crash" }),
      newSessions24h: { count: 7, atLeast: false },
    },
    {
      collection: aCollection({ id: 502, rootCause: "Slow search" }),
      newSessions24h: { count: 2, atLeast: false },
    },
  ];
  const tests = [
    {
      test: { ...aTest, id: 1, name: "Login" },
      runs24h: 20,
      failures24h: 0,
      passRate: 1,
      state: "passing" as const,
    },
    {
      test: { ...aTest, id: 2, name: "Checkout" },
      runs24h: 20,
      failures24h: 5,
      passRate: 0.75,
      state: "flaky" as const,
    },
    {
      test: { ...aTest, id: 3, name: "Search" },
      runs24h: 10,
      failures24h: 10,
      passRate: 0,
      state: "failing" as const,
    },
  ];
  const history = [
    day("2026-02-14", 40, 2, { "501": 1, "502": 3 }),
    day("2026-02-15", 50, 10, { "501": 4 }),
    day("2026-02-16", 50, 15, { "501": 7, "502": 2 }),
  ];

  it("charts each collection's new sessions per day and the tests' pass rate per day", () => {
    const m = digestMessage({ ...base, collections, tests, history });
    assertWithinSlackLimits(m);
    const [sessions, passRate] = charts(m);
    expect(sessions?.chart).toEqual({
      type: "line",
      // 502 missed a day: it is left out of the chart rather than drawn as 0.
      series: [
        {
          name: "/checkout",
          data: [
            { label: "Feb 14", value: 1 },
            { label: "Feb 15", value: 4 },
            { label: "Feb 16", value: 7 },
          ],
        },
      ],
      axis_config: { categories: ["Feb 14", "Feb 15", "Feb 16"], y_label: "sessions" },
    });
    expect(passRate?.title).toBe("Pass rate of this channel's tests, last 3 days");
    expect(passRate?.chart.type === "line" && passRate.chart.series[0]?.data.map((p) => p.value)).toEqual([
      95, 80, 70,
    ]);
  });

  it("draws no chart before it has two days of figures, and says when the charts start", () => {
    const m = digestMessage({ ...base, collections, tests, history: history.slice(-1) });
    expect(charts(m)).toEqual([]);
    expect(tables(m)).toHaveLength(1);
    const today = history.at(-1)?.date as string;
    const next = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(allText(m)).toContain(
      `Charts of new sessions and pass rate per day start with the digest of ${next}`,
    );
    expect(allText(m)).toContain(`1 day of 14 recorded by ${today}`);
  });

  it("says nothing of charts once it draws them", () => {
    expect(allText(digestMessage({ ...base, collections, tests, history }))).not.toMatch(
      /Charts of .* start/,
    );
  });

  it("shows the tests as a table: name, state as the alerts call it, runs, failures, pass rate; failing first", () => {
    const [t] = tables(digestMessage({ ...base, collections, tests, history }));
    if (!t) throw new Error("no table");
    expect(t.rows.map((_, r) => [0, 1, 2, 3, 4].map((c) => cellText(t, r, c)))).toEqual([
      ["Test", "State", "Runs (24 h)", "Failures", "Pass rate"],
      ["Search", "🔴 failing", "10", "10", "0 %"],
      ["Checkout", "🟡 flaky", "20", "5", "75 %"],
      ["Login", "🟢 passing", "20", "0", "100 %"],
    ]);
    const name = t.rows[1]?.[0];
    expect(name?.type === "rich_text" && name.elements[0]?.elements[0]).toEqual({
      type: "link",
      url: `${APP}/tests/3`,
      text: "Search",
    });
  });

  it("keeps a table within 100 rows and says how many tests it left out", () => {
    const many = Array.from({ length: 150 }, (_, i) => ({
      ...tests[0],
      test: { ...aTest, id: i + 1, name: `T${i}` },
    }));
    const [t] = tables(digestMessage({ ...base, collections: [], tests: many as typeof tests }));
    expect(t?.rows).toHaveLength(100);
    expect(t && cellText(t, 99, 0)).toBe("…and 52 more tests: /decipher status lists every one");
  });

  it("where Slack shows charts, sends them without their text; where it refuses them, the text without them", () => {
    const m = digestMessage({ ...base, collections, tests, history });
    const rich = forRichClients(m);
    expect(charts(rich)).toHaveLength(2);
    expect(tables(rich)).toHaveLength(1);
    expect(allText(rich)).not.toContain("Pass rate per day");
    expect(allText(rich)).not.toContain(":large_yellow_circle: flaky");

    const plain = withoutRichBlocks(m);
    expect(plain.blocks.some((b) => b.type === "data_visualization" || b.type === "table")).toBe(false);
    // Every figure of the charts and the table is still there, in words.
    expect(allText(plain)).toContain("Pass rate per day");
    expect(allText(plain)).toContain("95 % → 70 %");
    expect(allText(plain)).toContain(`PaymentForm crash \`/checkout\` ▂▅█ 7 on ${history.at(-1)?.date}`);
    expect(allText(plain)).toContain(
      `<${APP}/tests/2|Checkout> · :large_yellow_circle: flaky · 20 runs, 5 failures · 75 % passed`,
    );
    assertWithinSlackLimits(rich);
    assertWithinSlackLimits(plain);
  });
});

describe("a test alert's last runs", () => {
  const streak = { failedRuns: 1, lastRun: { id: 130, at: "2026-02-16T11:58:00.000Z" } };
  const input = {
    ref: null,
    test: aTest,
    firstRun: aRun({ id: 130, status: "failed" }),
    streak,
    appUrl: APP,
    now: NOW,
  };
  // Every fourth run fails, and the failures time out: three times as long.
  const runs = (n: number, slowFailures = true) =>
    Array.from({ length: n }, (_, i) => ({
      id: 100 + i,
      status: i % 4 === 3 ? "failed" : "passed",
      durationMs: (60 + i) * 1000 * (slowFailures && i % 4 === 3 ? 3 : 1),
    }));

  it("charts duration and outcome of the last 20 runs, oldest first, under the strip, when durations differ", () => {
    const m = failedRunParent({
      ...input,
      evidence: { recentRuns: [...runs(25)].reverse(), classification: null, impact: null },
    });
    const [chart] = charts(m);
    if (chart?.chart.type !== "bar") throw new Error("no bar chart");
    expect(chart.chart.axis_config.categories).toEqual(Array.from({ length: 20 }, (_, i) => `#${105 + i}`));
    const [passed, failed] = chart.chart.series;
    expect(passed?.name).toBe("Passed");
    expect(failed?.data[2]).toEqual({ label: "#107", value: 201 });
    expect(passed?.data[2]).toEqual({ label: "#107", value: 0 });
    // The strip is on every alert, the chart or not.
    expect(allText(forRichClients(m))).toContain("Last runs 🟥🟩🟩🟩🟥🟩🟩🟩🟥🟩");
    expect(allText(forRichClients(m))).not.toContain("Durations of the last");
    expect(allText(withoutRichBlocks(m))).toMatch(/Durations of the last 20 runs \S+ 1 m 05 s–4 m 09 s/u);
  });

  it("keeps the strip alone when the durations are alike, or fewer than 5 runs have one", () => {
    const alike = failedRunParent({
      ...input,
      evidence: { recentRuns: runs(25, false), classification: null, impact: null },
    });
    expect(charts(alike)).toEqual([]);
    const few = failedRunParent({
      ...input,
      evidence: {
        recentRuns: [...runs(4), { id: 200, status: "running", durationMs: null }],
        classification: null,
        impact: null,
      },
    });
    expect(charts(few)).toEqual([]);
    expect(allText(few)).toContain("Last runs 🟩🟩🟩🟥⬜");
  });
});

describe("a collection alert's growth", () => {
  const input = {
    ref: null,
    collection: aCollection({ sessionCount: 30 }),
    previousCount: 18,
    evidence: collectionAlertEvidence({ sessions: [], screenshotsExpiresAt: null, since: null }),
    regression: false,
    appUrl: APP,
    now: NOW,
  };

  it("charts the session count at each alert", () => {
    const m = collectionParent({
      ...input,
      growthMarks: [
        { at: "2026-02-16T09:00:00.000Z", count: 18 },
        { at: "2026-02-16T10:30:00.000Z", count: 24 },
        { at: "2026-02-16T10:30:40.000Z", count: 25 },
        { at: "2026-02-16T11:59:00.000Z", count: 30 },
      ],
    });
    const [chart] = charts(m);
    if (chart?.chart.type !== "line") throw new Error("no line chart");
    // Two alerts in one minute: every point is labelled to the second.
    expect(chart.chart.series[0]?.data).toEqual([
      { label: "Feb 16 09:00:00", value: 18 },
      { label: "Feb 16 10:30:00", value: 24 },
      { label: "Feb 16 10:30:40", value: 25 },
      { label: "Feb 16 11:59:00", value: 30 },
    ]);
    expect(allText(withoutRichBlocks(m))).toContain("Sessions at each alert*: 18 → 24 → 25 → 30");
  });

  it("labels its points by the minute when no two share one", () => {
    const [chart] = charts(
      collectionParent({
        ...input,
        growthMarks: [
          { at: "2026-02-16T09:00:10.000Z", count: 18 },
          { at: "2026-02-16T11:59:00.000Z", count: 30 },
        ],
      }),
    );
    expect(chart?.chart.type === "line" && chart.chart.axis_config.categories).toEqual([
      "Feb 16 09:00",
      "Feb 16 11:59",
    ]);
  });

  it("has no chart with one count", () => {
    expect(
      charts(collectionParent({ ...input, growthMarks: [{ at: NOW.toISOString(), count: 30 }] })),
    ).toEqual([]);
  });
});

describe("fitMessage and Slack's chart and table limits", () => {
  const chart = (id: string, over: Partial<DataVisualizationBlock> = {}): DataVisualizationBlock => ({
    type: "data_visualization",
    block_id: id,
    title: "Sessions",
    chart: {
      type: "bar",
      series: [{ name: "a", data: [{ label: "x", value: 1 }] }],
      axis_config: { categories: ["x"] },
    },
    ...over,
  });

  it("keeps at most two charts and one table, and the alternatives of those it drops", () => {
    const tableBlock: TableBlock = {
      type: "table",
      block_id: "t",
      rows: [[{ type: "raw_text", text: "a" }]],
    };
    const blocks: MessageBlock[] = [
      ...withAlternative(chart("c1"), [section("one")]),
      ...withAlternative(chart("c2"), [section("two")]),
      ...withAlternative(chart("c3"), [section("three")]),
      ...withAlternative(tableBlock, [section("table one")]),
      ...withAlternative({ ...tableBlock, block_id: "t2" }, [section("table two")]),
    ];
    const sent = forRichClients(fitMessage({ text: "x", blocks }));
    expect(sent.blocks.map((b) => b.block_id)).toEqual(["c1", "c2", "c3~alt0", "t", "t2~alt0"]);
  });

  it("cuts the title to 50, labels to 20, series to 6 and categories to the last 20", () => {
    const categories = Array.from({ length: 25 }, (_, i) => `Day ${i} of the long month`);
    const [fitted] = fitMessage({
      text: "x",
      blocks: [
        chart("c", {
          title: "T".repeat(80),
          chart: {
            type: "line",
            series: Array.from({ length: 8 }, (_, s) => ({
              name: `Series ${s} with a long name`,
              data: categories.map((label, i) => ({ label, value: i })),
            })),
            axis_config: { categories, x_label: "X".repeat(60) },
          },
        }),
      ],
    }).blocks as DataVisualizationBlock[];
    if (fitted?.chart.type !== "line") throw new Error("dropped");
    expect(fitted.title).toHaveLength(50);
    expect(fitted.chart.series).toHaveLength(6);
    expect(fitted.chart.axis_config.categories).toHaveLength(20);
    expect(fitted.chart.axis_config.categories[0]).toBe("Day 5 of the long m…");
    expect(fitted.chart.series[0]?.data[0]).toEqual({ label: "Day 5 of the long m…", value: 5 });
    expect(fitted.chart.axis_config.x_label).toHaveLength(50);
  });

  it("drops a series that misses a category or a value, and a chart left without series", () => {
    const out = fitMessage({
      text: "x",
      blocks: [
        chart("c", {
          chart: {
            type: "bar",
            series: [
              {
                name: "whole",
                data: [
                  { label: "x", value: 1 },
                  { label: "y", value: 2 },
                ],
              },
              { name: "gap", data: [{ label: "x", value: 1 }] },
              {
                name: "nan",
                data: [
                  { label: "x", value: Number.NaN },
                  { label: "y", value: 2 },
                ],
              },
            ],
            axis_config: { categories: ["x", "y"] },
          },
        }),
        chart("d", {
          chart: { type: "bar", series: [{ name: "gap", data: [] }], axis_config: { categories: ["x"] } },
        }),
      ],
    });
    expect(out.blocks).toHaveLength(1);
    const [c] = out.blocks as DataVisualizationBlock[];
    expect(c?.chart.type === "bar" && c.chart.series.map((s) => s.name)).toEqual(["whole"]);
  });
});

describe("mentions in alerts", () => {
  const streak = { failedRuns: 1, lastRun: { id: 130, at: "2026-02-16T11:58:00.000Z" } };
  const input = {
    ref: null,
    test: aTest,
    firstRun: aRun({ id: 130, status: "failed" }),
    streak,
    appUrl: APP,
    now: NOW,
  };

  it("pings in the first post of a failure, in its text and its blocks", () => {
    const m = failedRunParent({ ...input, mention: "<!subteam^S0ONCALL>" });
    expect(m.text).toContain("<!subteam^S0ONCALL>");
    expect(m.blocks).toContainEqual(context(":bell: <!subteam^S0ONCALL>"));
    assertWithinSlackLimits(m);
  });

  it("never writes a value that is not a stored mention", () => {
    const m = failedRunParent({ ...input, mention: "<!channel>" });
    expect(allText(m)).not.toContain("<!channel>");
  });

  it("shows in App Home who a test pings, as a name that notifies nobody", () => {
    const sub = {
      kind: "test",
      channelId: "C0ALERTS",
      createdAt: NOW.toISOString(),
      createdBy: "U0ALICE",
      paused: null,
      lastError: null,
      lastChangeAt: NOW.toISOString(),
      testId: 7,
      testName: "Checkout works",
      lastRunId: 1,
      lastRunAt: null,
      handledRunIds: [],
      streak: null,
      options: { mention: "<@U0ALICE>" },
    } as const;
    expect(subscriptionLine(sub as unknown as Subscription, APP, null)).toContain(":bell: pings <@U0ALICE>");
    const view = homeView({ subscriptions: [sub as unknown as Subscription], appUrl: APP, teamUrl: null });
    expect(JSON.stringify(view)).toContain("pings <@U0ALICE>");
  });

  it("pings each distinct mention of an outage once", () => {
    const item = (testId: number, mention: string | null) => ({
      testId,
      testName: `T${testId}`,
      runId: testId,
      summary: null,
      mention,
    });
    const m = outageMessages({
      items: [item(1, "<@U0ALICE>"), item(2, "<!subteam^S0ONCALL>"), item(3, "<@U0ALICE>"), item(4, null)],
      subscribed: 4,
      appUrl: APP,
    }).parent.message;
    const text = JSON.stringify(m.blocks);
    expect(text.split("<@U0ALICE>")).toHaveLength(2);
    expect(text.split("<!subteam^S0ONCALL>")).toHaveLength(2);
    expect(m.text).toContain("<@U0ALICE> <!subteam^S0ONCALL>");
  });
});

describe("the weekly report's charts", () => {
  const figures = (perDay: Record<string, { passed: number; failed: number }>) => ({
    runs: 10,
    settled: 10,
    failures: 3,
    recoveries: 2,
    flips: 4,
    perDay,
  });
  const days = [
    "2026-03-03",
    "2026-03-04",
    "2026-03-05",
    "2026-03-06",
    "2026-03-07",
    "2026-03-08",
    "2026-03-09",
  ];
  const tests = [
    {
      test: aTest,
      state: "flaky" as const,
      figures: figures({ "2026-03-04": { passed: 4, failed: 2 } }),
      capped: false,
    },
    {
      test: { ...aTest, id: 8, name: "Login" },
      state: "passing" as const,
      figures: figures({ "2026-03-04": { passed: 1, failed: 0 }, "2026-03-09": { passed: 3, failed: 1 } }),
      capped: true,
    },
  ];
  const grew = (id: number, count: number): WeeklyCollectionLine => ({
    collection: aCollection({ id }),
    newSessions: { count, atLeast: false },
    since: "2026-03-03T09:00:00.000Z",
    regressed: false,
  });

  it("charts the channel's passed and failed runs per day, and compares collections that grew", () => {
    const m = weeklyMessage({
      days,
      zone: "UTC",
      tests,
      collections: [grew(1, 5), grew(2, 9)],
      flakiest: [],
      appUrl: APP,
    });
    const [runs, sessions] = charts(m);
    if (runs?.chart.type !== "bar" || sessions?.chart.type !== "bar") throw new Error("no bar charts");
    expect(runs.chart.axis_config.categories).toEqual([
      "Mar 3",
      "Mar 4",
      "Mar 5",
      "Mar 6",
      "Mar 7",
      "Mar 8",
      "Mar 9",
    ]);
    expect(runs.chart.series.map((s) => s.data.map((p) => p.value))).toEqual([
      [0, 5, 0, 0, 0, 0, 3],
      [0, 2, 0, 0, 0, 0, 1],
    ]);
    expect(sessions.chart.series[0]?.data).toEqual([
      { label: "#2", value: 9 },
      { label: "#1", value: 5 },
    ]);
    // The read that stopped at its cap says so: "10+" runs.
    expect(tables(m)[0]?.rows.map((r) => r.map((c) => (c.type === "raw_text" ? c.text : "link")))).toEqual([
      ["Test", "State", "Runs", "Failures", "Recoveries", "Pass rate"],
      ["link", "🟡 flaky", "10", "3", "2", "70 %"],
      ["link", "🟢 passing", "10+", "3", "2", "70 %"],
    ]);
  });

  it("draws no chart for one collection: its line says as much", () => {
    const m = weeklyMessage({
      days,
      zone: "UTC",
      tests,
      collections: [grew(1, 5)],
      flakiest: [],
      appUrl: APP,
    });
    expect(charts(m).map((c) => c.title)).toEqual(["Runs per day this week"]);
  });
});
