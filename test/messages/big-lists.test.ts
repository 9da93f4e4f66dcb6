import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { homeView } from "../../src/kinds/messages.ts";
import { digestMessage } from "../../src/messages/digest-message.ts";
import { HOME_MAX_BLOCKS } from "../../src/messages/home-view.ts";
import { type TableBlock, withoutRichBlocks } from "../../src/messages/rich-blocks.ts";
import { type WeeklyTestLine, weeklyMessage } from "../../src/messages/weekly-message.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import { APP, aCollection, aTest, NOW } from "./fixtures.ts";

// A big channel's reports: 150 tests named in 300 characters of emoji and mrkdwn, 20 collections.
// A list that leaves some out says how many and where the rest are.

const PATTERN = "🚀 Checkout & <pay> *bold* _it_ ~gone~ ";
const longName = (i: number) => [...`T${i} ${PATTERN.repeat(10)}`].slice(0, 300).join("");

const digestTests = Array.from({ length: 150 }, (_, i) => ({
  test: { ...aTest, id: i + 1, name: longName(i) },
  runs24h: 20,
  failures24h: 20,
  passRate: 0,
  state: "failing" as const,
}));
const digestCollections = Array.from({ length: 20 }, (_, i) => ({
  collection: aCollection({ id: 600 + i, rootCause: `${longName(i)} TypeError` }),
  newSessions24h: { count: 500, atLeast: true },
}));
const weeklyTests: WeeklyTestLine[] = digestTests.map((t) => ({
  test: t.test,
  state: "failing",
  figures: { runs: 20, settled: 20, failures: 20, recoveries: 0, flips: 0, perDay: {} },
  capped: false,
}));
const days = [
  "2026-02-10",
  "2026-02-11",
  "2026-02-12",
  "2026-02-13",
  "2026-02-14",
  "2026-02-15",
  "2026-02-16",
];

const lastRow = (m: { blocks: unknown[] }) => {
  const table = m.blocks.find((b): b is TableBlock => (b as TableBlock).type === "table");
  const cell = table?.rows.at(-1)?.[0];
  return cell?.type === "raw_text" ? cell.text : "";
};

describe("the reports of a channel of 150 tests and 20 collections", () => {
  const digest = digestMessage({
    date: "2026-02-16",
    zone: "UTC",
    collections: digestCollections,
    tests: digestTests,
    appUrl: APP,
    now: NOW,
  });
  const weekly = weeklyMessage({
    days,
    zone: "UTC",
    tests: weeklyTests,
    collections: [],
    flakiest: [],
    appUrl: APP,
  });

  it("say where the tests their table leaves out are", () => {
    for (const m of [digest, weekly]) {
      expect(lastRow(m)).toMatch(/^…and 52 more tests: \/decipher status lists every one$/);
      assertWithinSlackLimits(m);
    }
  });

  it("say where the tests their text leaves out are, where Slack shows no tables", () => {
    for (const m of [digest, weekly]) {
      const plain = withoutRichBlocks(m);
      expect(visibleText(plain)).toMatch(/…and \d+ more tests: `\/decipher status` lists every one/);
      assertWithinSlackLimits(plain);
    }
  });
});

/** A test subscription of `channelId` as its object stores it. */
const watching = (channelId: string, testId: number): TestSubscription => ({
  kind: "test",
  channelId,
  testId,
  testName: longName(testId),
  createdAt: NOW.toISOString(),
  createdBy: "U0ALICE",
  paused: null,
  lastError: null,
  lastChangeAt: NOW.toISOString(),
  lastRunId: 0,
  lastRunAt: null,
  streak: null,
});

describe("the App Home of someone in many busy channels", () => {
  it("names the channels it has no room for, and where each one's list is", () => {
    const channels = Array.from({ length: 40 }, (_, c) => `C${String(c).padStart(3, "0")}BIG`);
    const subscriptions = channels.flatMap((channelId, c) =>
      Array.from({ length: 15 }, (_, i) => watching(channelId, c * 100 + i)),
    );
    const view = homeView({ subscriptions, appUrl: APP, teamUrl: null, now: NOW });
    expect(view.blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
    const text = visibleText(view);
    const shown = channels.filter((id) => text.includes(`*<#${id}>*`));
    const notShown = channels.filter((id) => !shown.includes(id));
    expect(notShown.length).toBeGreaterThan(0);
    const note = text.split("\n").find((line) => line.includes("more channels not shown")) ?? "";
    for (const id of notShown) expect(note).toContain(`<#${id}>`);
    expect(note).toContain("`/decipher list`");
  });
});
