import { describe, expect, it } from "vitest";
import { type Question, understand } from "../../src/model/ask/question.ts";

/** The demo's tests (dev/emulator/data/templates.ts) and a second checkout test, for near names. */
const tests = [
  { id: 101, name: "Checkout flow" },
  { id: 102, name: "Login with SSO" },
  { id: 103, name: "Search & filters" },
  { id: 104, name: "Password reset email" },
];
/** A Wednesday afternoon in Berlin (UTC+1): its day began at 23:00 UTC the evening before. */
const now = new Date("2026-11-25T15:00:00Z");
const ctx = { tests, now, zone: "Europe/Berlin" };

/** What a table row checks of the answer: the intent, and its slots in a line. */
function slots(q: Question): string {
  switch (q.intent) {
    case "failed":
      return `failed ${q.test?.id ?? "-"} ${q.period.words}`;
    case "why-failed":
    case "flaky":
      return `${q.intent} ${q.test?.id ?? "-"}`;
    case "sessions":
      return `sessions ${"userEmail" in q.user ? q.user.userEmail : `user:${q.user.userId}`} ${q.period?.words ?? "-"}`;
    case "collections":
      return `collections ${q.collectionId ?? "-"}`;
    case "help":
      return "help";
  }
}

const TABLE: [string, string][] = [
  // What failed: the channel's, or one test's, today unless a period is named.
  ["what failed today?", "failed - today"],
  ["what failed today", "failed - today"],
  ["What Failed", "failed - today"],
  ["wat faild today", "failed - today"],
  ["anything broken?", "failed - today"],
  ["anythng broken", "failed - today"],
  ["is anything failing right now", "failed - today"],
  ["is there anything I should look at?", "failed - today"],
  ["any failures today?", "failed - today"],
  ["any failures yesterday", "failed - yesterday"],
  ["what broke yesterday?", "failed - yesterday"],
  ["failures this week", "failed - this week"],
  ["what failed since monday", "failed - since Monday"],
  ["what failed in the last 3 days?", "failed - the last 3 days"],
  ["failures in the past 24 hours", "failed - the last 24 hours"],
  ["what failed last week", "failed - last week"],
  ["failed 24h", "failed - the last 24 hours"],
  ["status", "failed - today"],
  ["hows the health of things", "failed - today"],
  ["whats going on", "failed - today"],
  ["any problems?", "failed - today"],
  ["any errors today", "failed - today"],
  ["are we red", "failed - today"],
  ["is checkout broken?", "failed 101 today"],
  ["is checkout broken", "failed 101 today"],
  ["checkout broken?", "failed 101 today"],
  ["is chekout broken", "failed 101 today"],
  ["did the checkout test fail today", "failed 101 today"],
  ["has login failed today?", "failed 102 today"],
  ["is login with sso failing", "failed 102 today"],
  ["sso failures yesterday", "failed 102 yesterday"],
  ["is search passing", "failed 103 today"],
  ["is test 103 green", "failed 103 today"],
  ["did 101 fail today", "failed 101 today"],
  ["is #102 broken", "failed 102 today"],
  ["password reset failing since tuesday?", "failed 104 since Tuesday"],
  ["is the serch test working", "failed 103 today"],
  // Why a test failed.
  ["why did checkout fail?", "why-failed 101"],
  ["why did checkout fail", "why-failed 101"],
  ["Why did Checkout Flow fail", "why-failed 101"],
  ["whyd checkout fail", "why-failed 101"],
  ["checkout failed why", "why-failed 101"],
  ["what happened to test 101?", "why-failed 101"],
  ["what happened to 101", "why-failed 101"],
  ["what happend to the login test", "why-failed 102"],
  ["what went wrong with search & filters", "why-failed 103"],
  ["whats wrong with login", "why-failed 102"],
  ["why is sso failing", "why-failed 102"],
  ["explain the last checkout failure", "why-failed 101"],
  ["reason test 104 failed", "why-failed 104"],
  ["why did test 999 fail", "why-failed 999"],
  ["test 101", "why-failed 101"],
  ["checkout?", "why-failed 101"],
  ["why did it fail", "why-failed -"],
  // Flaky.
  ["is checkout flaky?", "flaky 101"],
  ["is checkout flaky", "flaky 101"],
  ["is chekout flakey", "flaky 101"],
  ["checkout flaky?", "flaky 101"],
  ["is test 102 flaky", "flaky 102"],
  ["is login unstable", "flaky 102"],
  ["does search fail randomly", "flaky 103"],
  ["flaky tests?", "flaky -"],
  ["how flaky is the password reset test", "flaky 104"],
  ["is 103 flakky", "flaky 103"],
  // Sessions of a person.
  ["what did jane@acme.com do today?", "sessions jane@acme.com today"],
  ["what did jane@acme.com do today", "sessions jane@acme.com today"],
  ["sessions of user:42 this week", "sessions user:42 this week"],
  ["sessions jane@acme.com", "sessions jane@acme.com -"],
  ["<mailto:bob@acme.com|bob@acme.com> sessions yesterday", "sessions bob@acme.com yesterday"],
  ["show me bob@acme.com's sessions since monday", "sessions bob@acme.com since Monday"],
  [
    "what has maria.garcia@acme.com been doing the last 3 days",
    "sessions maria.garcia@acme.com the last 3 days",
  ],
  ["user:usr_jane_qa sessions", "sessions user:usr_jane_qa -"],
  ["sesions for priya@acme.com last week", "sessions priya@acme.com last week"],
  ["did jane@acme.com hit the checkout error?", "sessions jane@acme.com -"],
  // Collections.
  ["whats happening with collection 501?", "collections 501"],
  ["what's happening with collection 501", "collections 501"],
  ["collection #501", "collections 501"],
  ["whats growing?", "collections -"],
  ["what is growing", "collections -"],
  ["anything growing today", "collections -"],
  ["show collections", "collections -"],
  ["is colection 501 still growing", "collections 501"],
  ["501 collection", "collections 501"],
];

/** Questions it cannot place, or that ask how to use it: the help answer, never a guess. */
const HELP = [
  "",
  "help",
  "HELP",
  "hlep",
  "what can you do",
  "how do I use this",
  "commands",
  "hi",
  "hello there",
  "thanks!",
  "who are you",
  "tell me a joke",
  "order pizza",
  "deploy to prod",
  "what's the weather in paris",
  "sessions",
  "sessions for jane",
  "?",
  "lol",
  "good morning",
];

describe("a question in plain words", () => {
  it.each(TABLE)("%j is understood as %s", (text, expected) => {
    expect(slots(understand(text, ctx)).trim()).toBe(expected.trim());
  });

  it.each(HELP)("%j gets the help answer", (text) => {
    expect(understand(text, ctx).intent).toBe("help");
  });

  it("has at least 80 phrasings and 15 that get help", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(80);
    expect(HELP.length).toBeGreaterThanOrEqual(15);
  });
});

describe("a period in words, in the zone asked in", () => {
  const period = (text: string, zone: string) => {
    const q = understand(text, { tests, now, zone });
    if (q.intent !== "failed") throw new Error(`${text}: ${q.intent}`);
    return [q.period.since.toISOString(), q.period.until?.toISOString() ?? null];
  };

  it("counts today and yesterday from local midnight", () => {
    expect(period("what failed today", "Europe/Berlin")).toEqual(["2026-11-24T23:00:00.000Z", null]);
    expect(period("what failed today", "America/Los_Angeles")).toEqual(["2026-11-25T08:00:00.000Z", null]);
    expect(period("what failed yesterday", "Europe/Berlin")).toEqual([
      "2026-11-23T23:00:00.000Z",
      "2026-11-24T23:00:00.000Z",
    ]);
  });

  it("starts a week on Monday, and 'since' a weekday at its last local midnight", () => {
    expect(period("failures this week", "Europe/Berlin")).toEqual(["2026-11-22T23:00:00.000Z", null]);
    expect(period("what failed since monday", "UTC")).toEqual(["2026-11-23T00:00:00.000Z", null]);
    expect(period("failed since wednesday", "UTC")).toEqual(["2026-11-25T00:00:00.000Z", null]);
    expect(period("failed last week", "UTC")).toEqual([
      "2026-11-16T00:00:00.000Z",
      "2026-11-23T00:00:00.000Z",
    ]);
  });

  it("counts 'the last 3 days' back from now", () => {
    expect(period("what failed in the last 3 days", "Asia/Tokyo")).toEqual([
      "2026-11-22T15:00:00.000Z",
      null,
    ]);
  });
});

describe("a test named roughly", () => {
  const withTwoCheckouts = [...tests, { id: 105, name: "Checkout flow — guest user" }];
  const pick = (text: string) => {
    const q = understand(text, { tests: withTwoCheckouts, now, zone: "UTC" });
    return q.intent === "failed" || q.intent === "why-failed" || q.intent === "flaky" ? q.test : null;
  };

  it("is sure of a test named by id, by its whole name, or by a word only it has", () => {
    expect(pick("why did test 105 fail")).toEqual({
      id: 105,
      name: "Checkout flow — guest user",
      sure: true,
    });
    expect(pick("why did checkout flow guest user fail")).toMatchObject({ id: 105, sure: true });
    expect(pick("is login broken")).toMatchObject({ id: 102, sure: true });
  });

  it("asks when the words fit two tests as well, or fit only when mistyped", () => {
    expect(pick("is checkout broken")).toMatchObject({ sure: false });
    expect(pick("is chekout guest broken")).toMatchObject({ id: 105, sure: false });
    expect(pick("is logn broken")).toMatchObject({ id: 102, sure: false });
  });

  it("names no test when no word fits one", () => {
    expect(pick("is payments broken")).toBeNull();
  });
});
