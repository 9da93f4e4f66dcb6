import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listMessage, statusMessage, subscriptionLine } from "../../src/kinds/messages.ts";
import { decodeChannelPageValue } from "../../src/messages/button-values.ts";
import { SUBSCRIPTIONS_PER_PAGE } from "../../src/messages/decipher-replies.ts";
import type { SlackMessage } from "../../src/messages/limits.ts";
import { FIRST_PAGE, type PageAt } from "../../src/messages/paging.ts";
import { type IndexEntry, indexEntry, sortEntries } from "../../src/model/channel-index.ts";
import type { Subscription } from "../../src/model/subscription.ts";
import { assertWithinSlackLimits, buttonsOf } from "../helpers/block-kit.ts";
import { anySubscription, nasty } from "./arbitraries.ts";

const APP = "https://app.decipher.test";
const NOW = new Date("2026-11-24T09:00:00.000Z");

/** `count` subscriptions of one channel with distinct ids, long names, and every seventh muted. */
const aBigChannel = (count: { min: number; max: number }) =>
  fc
    .tuple(
      fc.array(anySubscription, { minLength: count.min, maxLength: count.max }),
      fc.array(nasty, { minLength: 1, maxLength: 4 }),
    )
    .map(([subs, names]) =>
      sortEntries(
        subs.map((s, i): IndexEntry => {
          const long = `${names[i % names.length]} ${"checkout and payment in every browser ".repeat(4)}`;
          const sub: Subscription = {
            ...s,
            channelId: "C0ALERTS",
            muted: i % 7 === 0 ? { by: "U0BOB", at: NOW.toISOString() } : null,
            ...(s.kind === "test"
              ? { testId: i + 1, testName: long }
              : { collectionId: i + 1, rootCause: long }),
          } as Subscription;
          return indexEntry(sub, NOW);
        }),
      ),
    );

/** Every page from the first, following each More button's value. */
function pages(render: (at: PageAt) => SlackMessage): SlackMessage[] {
  const all = [render(FIRST_PAGE)];
  for (;;) {
    const more = buttonsOf(all.at(-1) as SlackMessage).find((b) => b.action_id === "channel_more");
    if (!more) return all;
    const at = decodeChannelPageValue(more.value);
    if (!at || all.length > 200) throw new Error("a More button that leads nowhere");
    all.push(render(at));
  }
}

/** The ids a page links to (tests and collections), in order. */
const linkedIds = (message: SlackMessage) =>
  [...JSON.stringify(message.blocks).matchAll(/\/(?:tests|issue-collections)\/(\d+)\|/g)].map((m) =>
    Number(m[1]),
  );

const idOf = (e: IndexEntry) =>
  e.subscription.kind === "test" ? e.subscription.testId : e.subscription.collectionId;

describe("/decipher list and status, paged", () => {
  it("show every subscription once, in order, each page within Slack's limits (200 with long names)", () => {
    fc.assert(
      fc.property(aBigChannel({ min: 200, max: 200 }), (entries) => {
        for (const render of [
          (at: PageAt) => listMessage(entries, null, APP, NOW, null, at),
          (at: PageAt) => statusMessage(entries, null, APP, NOW, null, at),
        ]) {
          const all = pages(render);
          for (const page of all) assertWithinSlackLimits(page);
          expect(all.flatMap(linkedIds)).toEqual(entries.map(idOf));
          expect(all.length).toBeGreaterThanOrEqual(200 / SUBSCRIPTIONS_PER_PAGE);
        }
      }),
      { numRuns: 5 },
    );
  });

  it("fit any channel, from empty to a few pages, whatever the names", () => {
    fc.assert(
      fc.property(aBigChannel({ min: 0, max: 60 }), (entries) => {
        const all = pages((at) => statusMessage(entries, null, APP, NOW, null, at));
        for (const page of all) assertWithinSlackLimits(page);
        expect(all.flatMap(linkedIds)).toEqual(entries.map(idOf));
      }),
      { numRuns: 40 },
    );
  });

  it("give every muted subscription on a page its Unmute button", () => {
    fc.assert(
      fc.property(aBigChannel({ min: 30, max: 80 }), (entries) => {
        const all = pages((at) => listMessage(entries, null, APP, NOW, null, at));
        const unmutes = all.flatMap((p) =>
          buttonsOf(p).filter((b) => /^triage_unmute(:\d+)?$/.test(b.action_id ?? "")),
        );
        expect(unmutes).toHaveLength(entries.filter((e) => e.subscription.muted).length);
      }),
      { numRuns: 20 },
    );
  });
});

describe("a collection's last alert", () => {
  it("is the alert's own time in both status and Home, and both name the last count told with its time", () => {
    const alertTs = "1732200000.000200";
    const sub: Subscription = {
      kind: "collection",
      channelId: "C0ALERTS",
      createdAt: "2024-11-21T14:00:00.000Z",
      createdBy: "U0ALICE",
      paused: null,
      lastError: null,
      lastChangeAt: "2024-11-21T14:50:00.000Z",
      collectionId: 501,
      rootCause: "Checkout button does nothing",
      growth: null,
      // A growth reply 5 minutes after the alert moved the count told, not the alert.
      alertedCount: 38,
      alertedAt: "2024-11-21T14:45:00.000Z",
      wasResolved: false,
      regressed: false,
      threadTs: alertTs,
      told: { count: 38, at: "2024-11-21T14:45:00.000Z", ts: "1732200300.000300" },
    };
    const status = JSON.stringify(statusMessage([indexEntry(sub, NOW)], null, APP, NOW).blocks);
    const home = subscriptionLine(sub, APP, "https://acme.slack.com/", NOW);
    const alertAt = `<!date^${Number(alertTs.split(".")[0])}^`;
    const toldAt = `<!date^${Date.parse(sub.alertedAt) / 1000}^`;
    expect(status).toContain(`last alert ${alertAt}`);
    // Home names one time, the count last told, and links the alert's thread.
    expect(home).toMatch(/\/archives\/C0ALERTS\/p\d+\|alert thread>/);
    expect(home).not.toContain(alertAt);
    for (const page of [status, home]) expect(page).toContain(`38 sessions · last told ${toldAt}`);
    expect(home).toContain(":large_orange_circle: unresolved");

    // A copy from before the bot kept what it told: growth's baseline is all it can vouch for.
    const { told: _t, ...older } = sub;
    for (const page of [
      JSON.stringify(statusMessage([indexEntry(older, NOW)], null, APP, NOW).blocks),
      subscriptionLine(older, APP, "https://acme.slack.com/", NOW),
    ]) {
      expect(page).not.toContain("last told");
      expect(page).toContain(`growth counted from 38 sessions as of ${toldAt}`);
    }
  });
});

describe("a muted subscription's words", () => {
  const base = {
    channelId: "C0ALERTS",
    createdAt: "2026-11-23T09:00:00.000Z",
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: "2026-11-23T09:00:00.000Z",
    muted: { by: "U0BOB", at: "2026-11-23T10:00:00.000Z" },
  };
  const test = {
    ...base,
    kind: "test",
    testId: 101,
    testName: "Checkout flow",
    lastRunId: 1,
    streak: null,
  } as unknown as Subscription;
  const collection = {
    ...base,
    kind: "collection",
    collectionId: 501,
    rootCause: "Checkout button does nothing",
    growth: null,
    alertedCount: 12,
    alertedAt: base.createdAt,
    wasResolved: false,
    regressed: false,
    threadTs: null,
  } as unknown as Subscription;
  const status = (s: Subscription) =>
    JSON.stringify(statusMessage([indexEntry(s, NOW)], null, APP, NOW).blocks);
  const home = (s: Subscription) => subscriptionLine(s, APP, null, NOW);

  it("say nothing is posted for a muted test, in status and Home, and no more than that", () => {
    for (const page of [status(test), home(test)]) {
      expect(page).not.toContain("not polled");
      expect(page).toMatch(/muted\* by <@U0BOB> <!date\^\d+\^[^>]+>: nothing is posted/);
    }
    // Read at a glance: a test polled while muted is polled as usual, so nothing more is said.
    expect(status(test)).not.toContain("polling OK");
    expect(home(test)).not.toContain("polled while muted");
  });

  it("say a muted test's polling failure on Home, as status does: muted is not fine", () => {
    const failing = {
      ...test,
      lastError: {
        at: "2026-11-24T08:50:00.000Z",
        message: "Decipher answered 401: the API key was refused",
      },
      erroringSince: "2026-11-24T08:40:00.000Z",
    } as Subscription;
    for (const page of [status(failing), home(failing)]) {
      expect(page).toMatch(/muted\* by <@U0BOB>/);
      expect(page).toContain("polling failed");
      expect(page).toContain("the API key was refused");
    }
  });

  it("say a paused subscription that is also muted is both, on Home as in status", () => {
    const paused = {
      ...test,
      paused: {
        at: "2026-11-24T08:00:00.000Z",
        reason: "Slack says the bot was removed from this channel (not_in_channel).",
        retryAt: "2026-11-24T10:00:00.000Z",
      },
    } as Subscription;
    for (const page of [status(paused), home(paused)]) {
      expect(page).toContain("Paused in");
      expect(page).toMatch(/muted\* by <@U0BOB>/);
    }
  });

  it("say nothing of a snooze that ran out before its next poll, on Home as in status", () => {
    const snoozed = (until: string) =>
      ({
        ...test,
        muted: null,
        snooze: {
          by: "U0CAROL",
          at: "2026-11-24T07:00:00.000Z",
          until,
          choice: { kind: "for", hours: 1 },
          missedFailures: 0,
          countAtStart: null,
        },
      }) as unknown as Subscription;
    // NOW is 09:00: a snooze until 10:00 holds, one until 08:00 is over.
    expect(home(snoozed("2026-11-24T10:00:00.000Z"))).toContain("snoozed by <@U0CAROL>");
    for (const page of [
      status(snoozed("2026-11-24T08:00:00.000Z")),
      home(snoozed("2026-11-24T08:00:00.000Z")),
    ])
      expect(page).not.toContain("snoozed");
  });

  it("say a muted collection is not polled, and counts its growth again from the unmute", () => {
    for (const page of [status(collection), home(collection)])
      expect(page).toContain("not polled while muted: its growth is counted again from the unmute");
  });

  // What a person sees: date tokens and links as their labels, an emoji code as one sign.
  const seen = (mrkdwn: string) =>
    mrkdwn
      .replace(/<!date\^\d+\^[^|]*\|([^>]*)>/g, "$1")
      .replace(/<[^|>]*\|([^>]*)>/g, "$1")
      .replace(/:[a-z_]+:/g, "●");

  it("read at a glance: a quiet test is two lines in status, and a muted one a short line on Home", () => {
    const quiet = { ...test, muted: null } as Subscription;
    const entry = statusMessage([indexEntry(quiet, NOW)], null, APP, NOW)
      .blocks.flatMap((b) => ("text" in b && b.text && "text" in b.text ? [b.text.text] : []))
      .find((t) => t.includes("Checkout flow"));
    expect(entry?.split("\n")).toHaveLength(2);
    const flaky = {
      ...test,
      stateFacts: {
        kind: "flaky",
        trailingFailures: 1,
        passesBefore: 3,
        failingOnAndOff: false,
        anyRun: true,
        failingStreak: false,
        calledFlakyAt: "2026-11-23T09:30:00.000Z",
      },
    } as Subscription;
    const line = seen(home(flaky));
    expect(line).toMatch(
      /^• Test Checkout flow — ● flaky · .+ · ● \*muted\* by <@U0BOB> .+: nothing is posted$/,
    );
    expect(line.length, line).toBeLessThan(140);
  });
});
