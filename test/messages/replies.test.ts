import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { channelObject, objectNames } from "../../src/objects/addresses.ts";
import { keys } from "../../src/store/keys.ts";
import { SubscriptionStore, subscriptionKey } from "../../src/store/subscription-store.ts";
import { CHANNEL_ID, slackApp, TEAM_ID } from "../helpers/slack-app.ts";

/** The channel watches exactly this subscription, as its object would have written it: KV copy and index row. */
async function stored(subscription: TestSubscription) {
  await new SubscriptionStore(env.STATE).update(subscription);
  await env.STATE.put(keys.subscriptionIndex(), JSON.stringify([subscriptionKey(subscription)]));
  // The slack app's team is the same in every test of this file, and so is its channel object.
  const channel = channelObject(env as never, objectNames.channel(TEAM_ID, CHANNEL_ID));
  const { entries } = await channel.channelIndex(CHANNEL_ID, new Date().toISOString());
  for (const e of entries) await channel.unindexSubscription(e.key);
  await channel.indexSubscription(subscription, new Date().toISOString());
}

function aTestSubscription(over: Partial<TestSubscription> & Record<string, unknown> = {}): TestSubscription {
  const at = "2026-02-16T11:00:00.000Z";
  return {
    kind: "test",
    channelId: CHANNEL_ID,
    createdAt: at,
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: at,
    testId: 101,
    testName: "Checkout flow",
    lastRunId: 10_069,
    lastRunAt: at,
    handledRunIds: [],
    streak: null,
    ...over,
  } as TestSubscription;
}

describe("progress messages are replaced by their answer", () => {
  it("/decipher subscribe: the 'Checking…' ack is replaced in place, not followed by a second message", async () => {
    const app = await slackApp();
    // As Slack shows it: the ack becomes an ephemeral message the response URL replaces.
    const ackTs = await app.postMessage("Checking test 999999 with Decipher…", { ephemeralTo: "U0ALICE" });
    const ack = await app.command("/decipher", "subscribe test 999999", { ackTs });
    expect(visibleText(JSON.parse(ack.body))).toContain("Checking test 999999");
    const mine = (await app.messages()).filter((m) => m.visible_to === "U0ALICE");
    expect(mine).toHaveLength(1);
    expect(mine[0]?.ts).toBe(ackTs);
    expect(visibleText(mine[0] ?? {})).toMatch(/no test 999999 \(not found\)/);
    expect(visibleText(mine[0] ?? {})).not.toContain("Checking");
  });

  it("/sessions: the 'Looking up…' ack is replaced by the cards", async () => {
    const app = await slackApp();
    const ackTs = await app.postMessage("Looking up sessions for jane@acme.com…", { ephemeralTo: "U0ALICE" });
    await app.command("/sessions", "jane@acme.com", { ackTs });
    const mine = (await app.messages()).filter((m) => m.visible_to === "U0ALICE");
    expect(mine).toHaveLength(1);
    expect(visibleText(mine[0] ?? {})).toContain("Sessions for jane@acme.com");
  });
});

describe("/decipher digest", () => {
  it("names a bad time and a bad zone in one reply", async () => {
    const app = await slackApp();
    const said = visibleText(JSON.parse((await app.command("/decipher", "digest 25:99 Mars/Olympus")).body));
    expect(said).toContain("`25:99` is not a time of day");
    expect(said).toContain("`Mars/Olympus` is not a time zone I know");
  });
});

describe("/decipher status and list", () => {
  it("separates polling health from a red test, and shows who is looking, snoozes and mutes with times", async () => {
    const app = await slackApp();
    await stored(
      aTestSubscription({
        streak: { threadTs: "1.0", failedRuns: 3, firstRunId: 10_060, lastRunId: 10_069 },
        acknowledgedBy: [{ userId: "U0BOB", at: "2026-02-16T11:30:00.000Z" }],
        snooze: {
          by: "U0ALICE",
          at: "2026-02-16T11:40:00.000Z",
          until: null,
          choice: { kind: "until-pass" },
          missedFailures: 0,
          countAtStart: null,
        },
      }),
    );
    const status = visibleText(JSON.parse((await app.command("/decipher", "status")).body));
    // Polling that works says nothing: a glance shows only what needs someone.
    expect(status).not.toContain("polling");
    // A copy stored before tests kept their state facts: what its open streak knows.
    expect(status).toContain(":red_circle: broken: failed 3 runs in a row");
    expect(status).toMatch(/<@U0BOB> since <!date\^\d+\^/);
    expect(status).toMatch(/snoozed by <@U0ALICE> <!date\^\d+\^[^>]*>, until it passes/);
    const list = visibleText(JSON.parse((await app.command("/decipher", "list")).body));
    expect(list).toContain("<@U0BOB>");
    expect(list).toContain("until it passes");
  });

  it("tolerates subscriptions stored before triage existed, and says a polling error is not the test's state", async () => {
    const app = await slackApp();
    await stored(
      aTestSubscription({
        lastError: { message: "Decipher failed (500); will retry.", at: "2026-02-16T11:50:00.000Z" },
      }),
    );
    const status = visibleText(JSON.parse((await app.command("/decipher", "status")).body));
    expect(status).toContain("polling failed");
    expect(status).toContain("Decipher failed (500)");
    expect(status).toContain("no failure alert open");
    expect(status).not.toContain("looking");
  });

  it("shows a mute (who, when) with an Unmute button and the command that also undoes it", async () => {
    const app = await slackApp();
    await stored(aTestSubscription({ muted: { by: "U0ALICE", at: "2026-02-16T11:45:00.000Z" } }));
    const reply = JSON.parse((await app.command("/decipher", "status")).body);
    const status = visibleText(reply);
    expect(status).toContain("*muted* by <@U0ALICE> <!date^1771242300^");
    expect(status).toContain("`/decipher subscribe test 101`");
    expect(JSON.stringify(reply.blocks)).toContain('"action_id":"triage_unmute"');
    const list = visibleText(JSON.parse((await app.command("/decipher", "list")).body));
    expect(list).toContain("*muted* by <@U0ALICE>");
  });
});

describe("Screenshots", () => {
  it("fetches fresh screenshot URLs when asked and shows them as images", async () => {
    const app = await slackApp();
    const { data } = await app.deps.vendor.listSessions({ userEmail: "jane@acme.com", limit: 20 });
    const session = data.find((s) => s.duration !== null) ?? data[0];
    await app.act("session_screenshots", session?.id ?? "");
    const reply = (await app.messages()).filter((m) => m.visible_to === "U0ALICE").at(-1);
    expect(visibleText(reply ?? {})).toMatch(/Screenshots \(\d+\)/);
    const images = (reply?.blocks ?? []).filter((b) => b.type === "image");
    const text = visibleText(reply ?? {});
    expect(images.length).toBeGreaterThan(0);
    expect(String(images[0]?.image_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/screenshots\/org_\w+\//);
    expect(text).toMatch(/Screenshot links valid until/);
  });
});
