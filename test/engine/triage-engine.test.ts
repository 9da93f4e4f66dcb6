import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  emulatorUrl,
  type StoredMessage,
  signingSecret,
  standInUrl,
  visibleText,
} from "../../dev/in-workerd/bot.ts";
import { subscriptionLine } from "../../src/kinds/messages.ts";
import { dateToken } from "../../src/messages/mrkdwn.ts";
import { encodeSnoozeValue } from "../../src/messages/triage-values.ts";
import type { CollectionSubscription } from "../../src/model/subscription.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { ledgerOf, objectState } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const MINUTE = 60_000;
const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);

/** Chooses a Snooze menu option of an alert, as Slack sends a static_select choice. */
async function chooseSnooze(
  bot: Awaited<ReturnType<typeof subscribedBot>>["bot"],
  message: StoredMessage,
  hours: number | "pass",
  userId = "U0ALICE",
) {
  const team = await bot.team();
  const ref = { teamId: team, channelId: "C0ALERTS", kind: "test" as const, id: 101 };
  const value = encodeSnoozeValue(ref, hours === "pass" ? { kind: "until-pass" } : { kind: "for", hours });
  const responseUrl = (
    (await (
      await fetch(`${standInUrl}/__slack/response-urls`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          botToken: bot.botToken,
          channelId: "C0ALERTS",
          userId,
          messageTs: message.ts,
        }),
      })
    ).json()) as { responseUrl: string }
  ).responseUrl;
  const payload = {
    type: "block_actions",
    user: { id: userId, username: "alice", name: "alice", team_id: team },
    api_app_id: "A0TEST",
    token: "legacy-verification-token",
    container: { type: "message", message_ts: message.ts, channel_id: "C0ALERTS", is_ephemeral: false },
    trigger_id: "1.2.3",
    team: { id: team, domain: "test" },
    channel: { id: "C0ALERTS", name: "alerts" },
    response_url: responseUrl,
    actions: [
      {
        type: "static_select",
        action_id: "triage_snooze",
        block_id: "b",
        selected_option: { text: { type: "plain_text", text: "x" }, value },
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
  expect(signingSecret).toBeTruthy();
  return bot.signedPost(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}

async function failingAlert() {
  const { bot, org } = await subscribedBot();
  const first = await org.addRun(101, "failed");
  const t0 = Date.now();
  await bot.cron(new Date(t0));
  const parent = (await bot.posted())[0] as StoredMessage;
  return { bot, org, first, t0, parent };
}

const buttonIds = (message: StoredMessage) =>
  (message.blocks ?? []).flatMap((b) =>
    b.type === "actions" ? ((b.elements as { action_id: string }[]) ?? []).map((e) => e.action_id) : [],
  );

const parentNow = async (bot: Awaited<ReturnType<typeof subscribedBot>>["bot"], ts: string) =>
  (await bot.messages()).find((m) => m.ts === ts) as StoredMessage;

/** The alert without its status line and controls: what triage must leave as it was. */
function evidenceOf(message: StoredMessage) {
  return (message.blocks ?? [])
    .filter((b) => b.type !== "actions")
    .filter((b) => !(b.type === "context" && /looking|snoozed|muted/.test(JSON.stringify(b))))
    .map(({ block_id: _id, ...b }) => b);
}

/**
 * The evidence under the title, as posted: a longer or green streak changes the title and says
 * "At run #N:" (green: "Before it passed again, at run #N:") before the strip, a green card says
 * the class without its red sign, and the rest is kept.
 */
const evidenceBody = (message: StoredMessage) =>
  evidenceOf(message)
    .slice(1)
    .map((b) =>
      JSON.stringify(b)
        .replace(/(?:At|Before it passed again, at) run #\d+: /, "")
        .replace(
          /:(?:new|red_circle|large_yellow_circle|x): (?=(?:new failure|broken|flaky|failing) — )/,
          "",
        ),
    );

describe("an alert keeps what it showed when it was posted", () => {
  it("Acknowledge, Snooze and Mute change only the status line and the controls: the strip, the class, the Production line and the example session stay", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout flaky:alert");
    const scenario = await fetch(`${emulatorUrl}/__emulator/scenario`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiKey: org.apiKey, name: "noisy" }),
    });
    expect(scenario.ok).toBe(true);
    await org.addRun(101, "passed");
    await org.addRun(101, "failed");
    const t0 = Date.now() + MINUTE;
    await bot.cron(new Date(t0));
    const parent = topLevel(await bot.posted()).at(-1) as StoredMessage;
    const posted = visibleText(parent);
    expect(posted).toMatch(/Last runs [🟩🟥⬜]+/u);
    expect(posted).toMatch(/:(new|red_circle|large_yellow_circle|x): (new failure|broken|flaky|failing) — /);
    expect(posted).toMatch(/\*Production:\*/);
    expect(posted).toMatch(/\*Example:\*/);
    expect(JSON.stringify(parent.blocks)).toContain("impact_watch_replay");
    const before = evidenceOf(parent);

    await bot.click(parent, "triage_acknowledge");
    const acked = await parentNow(bot, parent.ts);
    expect(visibleText(acked)).toMatch(/<@U0ALICE> is looking/);
    expect(evidenceOf(acked)).toEqual(before);

    await chooseSnooze(bot, acked, 4);
    const snoozed = await parentNow(bot, parent.ts);
    expect(visibleText(snoozed)).toMatch(/snoozed by <@U0ALICE>/);
    expect(evidenceOf(snoozed)).toEqual(before);

    await bot.click(snoozed, "triage_mute");
    const muted = await parentNow(bot, parent.ts);
    expect(visibleText(muted)).toMatch(/muted by <@U0ALICE>/);
    expect(evidenceOf(muted)).toEqual(before);
  });

  it("a collection alert keeps its session, its screenshot and its counts' start through Acknowledge and Mute", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
    await org.grow(501, 3);
    await bot.cron();
    const parent = topLevel(await bot.posted()).at(-1) as StoredMessage;
    const posted = visibleText(parent);
    expect(posted).toMatch(/sessions \(\+3 since <!date\^/);
    expect(posted).toMatch(/…and 2 more new sessions since <!date\^/);
    expect(JSON.stringify(parent.blocks)).toContain('"action_id":"session_screenshots"');
    const before = evidenceOf(parent);
    await bot.click(parent, "triage_acknowledge");
    expect(evidenceOf(await parentNow(bot, parent.ts))).toEqual(before);
    await bot.click(await parentNow(bot, parent.ts), "triage_mute");
    const muted = await parentNow(bot, parent.ts);
    expect(visibleText(muted)).toMatch(/muted by <@U0ALICE>/);
    expect(evidenceOf(muted)).toEqual(before);
  });

  it("an unmuted collection alert shows its session and its controls again, and its next growth replies in its thread", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
    await org.grow(501, 3);
    await bot.cron();
    const parent = topLevel(await bot.posted()).at(-1) as StoredMessage;
    const before = evidenceOf(parent);
    expect(buttonIds(parent)).toContain("triage_acknowledge");
    await bot.click(parent, "triage_mute");
    const muted = await parentNow(bot, parent.ts);
    expect(buttonIds(muted)).toContain("triage_unmute");
    expect(buttonIds(muted)).not.toContain("triage_acknowledge");
    await org.grow(501, 2);
    await bot.cron();
    await bot.click(muted, "triage_unmute");
    const live = await parentNow(bot, parent.ts);
    expect(visibleText(live)).toMatch(/unmuted by <@U0ALICE>/);
    expect(evidenceOf(live)).toEqual(before);
    // The controls it was posted with, the session's buttons among them.
    expect(buttonIds(live)).toEqual(buttonIds(parent));
    // Growth while muted is not told; growth after it replies under the same alert.
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
    await org.grow(501, 1);
    await bot.cron();
    const posted = await bot.posted();
    expect(topLevel(posted)).toHaveLength(1);
    expect(posted.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts)).toHaveLength(1);
  });

  it("an unmuted collection's status and Home name the count its alert told, not the count read at the unmute", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
    const t0 = Date.now();
    const told = (await org.grow(501, 3)).collection.sessionCount;
    await bot.cron(new Date(t0));
    const parent = topLevel(await bot.posted()).at(-1) as StoredMessage;
    await bot.click(parent, "triage_mute");
    const atUnmute = (await org.grow(501, 2)).collection.sessionCount;
    await bot.cron(new Date(t0 + MINUTE));
    await bot.click(await parentNow(bot, parent.ts), "triage_unmute");
    expect(await bot.posted()).toHaveLength(1);
    const status = visibleText(JSON.parse((await bot.command("/decipher", "status")).body) as StoredMessage);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    const home = subscriptionLine(state as CollectionSubscription, emulatorUrl, null);
    for (const page of [status, home]) {
      expect(page).toContain(`${told} sessions · last told ${dateToken(new Date(t0))}`);
      expect(page).not.toContain(`${atUnmute} sessions · last told`);
      expect(page).toMatch(`growth counted from ${atUnmute} sessions as of <!date^`);
    }
    // The alert says the same: a collection's growth while muted is not counted as a test's failures are.
    const card = visibleText(await parentNow(bot, parent.ts));
    expect(card).toContain(
      "growth while it was muted is not posted: it is counted from the count at the unmute",
    );
    expect(card).not.toContain("was counted, not posted");
  });
});

describe("a flaky alert can be triaged like every alert", () => {
  it("the 'is flaky' alert has Acknowledge, Snooze and Mute; clicking them keeps its strip and class, and Mute stops its thread", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = Date.now();
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed"] as const)
      await org.addRun(101, status);
    await bot.cron(new Date(t0));
    const parent = topLevel(await bot.posted()).at(-1) as StoredMessage;
    expect(visibleText(parent)).toMatch(/is flaky/);
    expect(visibleText(parent)).toMatch(/flaky — .* · last runs [🟩🟥]+/u);
    expect(buttonIds(parent)).toEqual(["triage_acknowledge", "triage_snooze", "triage_mute"]);
    const before = evidenceOf(parent);

    await bot.click(parent, "triage_acknowledge");
    const acked = await parentNow(bot, parent.ts);
    expect(visibleText(acked)).toMatch(/<@U0ALICE> is looking/);
    expect(evidenceOf(acked)).toEqual(before);

    await bot.click(acked, "triage_mute");
    const muted = await parentNow(bot, parent.ts);
    expect(visibleText(muted)).toMatch(/muted by <@U0ALICE>/);
    expect(evidenceOf(muted)).toEqual(before);
    expect(buttonIds(muted)).toEqual(["triage_unmute"]);

    // Muted from its flaky alert: its next failures post nothing, in the thread or above it.
    const posts = (await bot.messages()).length;
    await org.addRun(101, "passed");
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await bot.messages()).length).toBe(posts);

    // Unmuted, it is a flaky alert again: its three controls, its strip and class.
    await bot.click(muted, "triage_unmute");
    const unmuted = await parentNow(bot, parent.ts);
    expect(visibleText(unmuted)).toMatch(/unmuted by <@U0ALICE>/);
    expect(evidenceOf(unmuted)).toEqual(before);
    expect(buttonIds(unmuted)).toEqual(["triage_acknowledge", "triage_snooze", "triage_mute"]);
  });
});

describe("triage through the subscription's single writer", () => {
  it("Acknowledge shows who is looking on the parent; a second person is added, a second click changes nothing", async () => {
    const { bot, parent } = await failingAlert();
    await bot.click(parent, "triage_acknowledge");
    await bot.click(parent, "triage_acknowledge");
    await bot.click(parent, "triage_acknowledge", { userId: "U0BOB" });
    const text = visibleText(await parentNow(bot, parent.ts));
    expect(text).toMatch(/<@U0ALICE> and <@U0BOB> are looking/);
    expect((await objectState(bot, "test", 101))?.acknowledgedBy?.map((a) => a.userId)).toEqual([
      "U0ALICE",
      "U0BOB",
    ]);
  });

  it("while snoozed nothing is posted; when the snooze ends one message sums up, and the parent kept its first run", async () => {
    const { bot, org, first, t0, parent } = await failingAlert();
    await chooseSnooze(bot, parent, 1);
    expect(visibleText(await parentNow(bot, parent.ts))).toMatch(/snoozed by <@U0ALICE>/);
    const before = (await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length;
    for (let i = 1; i <= 3; i++) {
      await org.addRun(101, "failed");
      await bot.cron(new Date(t0 + i * MINUTE));
    }
    expect((await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length).toBe(before);
    await bot.cron(new Date(t0 + 61 * MINUTE));
    const thread = (await bot.messages()).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(thread.map(visibleText).join("\n")).toMatch(/failed 3 more times while snoozed/);
    expect(topLevel(await bot.posted())).toHaveLength(1);
    expect(visibleText(await parentNow(bot, parent.ts))).toContain(`runs/${first.id}`);
  });

  it("a snoozed alert's test says so in the digest, until when", async () => {
    const { bot, parent, t0 } = await failingAlert();
    await bot.command("/decipher", "digest 09:00 UTC");
    await chooseSnooze(bot, parent, "pass");
    const due = ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt;
    await bot.cron(new Date(Math.max(t0 + 60_000, Date.parse(due) + 5_000)));
    const digest = (await bot.posted()).find((m) => /Daily Decipher digest/.test(m.text ?? ""));
    // The tests' table (its cells are literal text: who snoozed it is in status and on Home).
    expect(JSON.stringify(digest?.blocks)).toMatch(/"raw_text","text":"[^"]*· snoozed until it passes"/);
  });

  it("a pass during a snooze ends it quietly, turning the parent green", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await chooseSnooze(bot, parent, "pass");
    const before = (await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length;
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length).toBe(before);
    expect(visibleText(await parentNow(bot, parent.ts))).toMatch(/passed again/i);
    expect((await objectState(bot, "test", 101))?.snooze ?? null).toBeNull();
  });

  it("Mute keeps the subscription, muted: polls post nothing, status and list show who muted it and offer Unmute", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await bot.click(parent, "triage_mute");
    const muted = await objectState(bot, "test", 101);
    expect(muted?.muted?.by).toBe("U0ALICE");
    const text = visibleText(await parentNow(bot, parent.ts));
    expect(text).toMatch(/muted by <@U0ALICE> <!date\^\d+\^/);
    expect(text).toContain("/decipher subscribe test 101");
    expect(buttonIds(await parentNow(bot, parent.ts))).toContain("triage_unmute");
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    const status = JSON.parse((await bot.command("/decipher", "status")).body);
    expect(visibleText(status)).toMatch(/\*muted\* by <@U0ALICE> <!date\^/);
    expect(JSON.stringify(status.blocks)).toContain('"action_id":"triage_unmute"');
    const list = JSON.parse((await bot.command("/decipher", "list")).body);
    expect(visibleText(list)).toMatch(/\*muted\* by <@U0ALICE>/);
  });

  it("Unmute on a failing alert brings back Acknowledge, Snooze and Mute with its evidence; the failures seen while muted count in its streak and are not replayed", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    const before = evidenceBody(parent);
    await bot.click(parent, "triage_mute");
    const whileMuted = await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.click(await parentNow(bot, parent.ts), "triage_unmute", { userId: "U0BOB" });
    expect((await objectState(bot, "test", 101))?.muted ?? null).toBeNull();
    const live = await parentNow(bot, parent.ts);
    expect(visibleText(live)).toMatch(/unmuted by <@U0BOB> <!date\^\d+\^/);
    expect(visibleText(live)).toMatch(/failing for 2 runs · last #\d+/);
    expect(visibleText(live)).not.toMatch(/muted by <@U0ALICE>/);
    expect(buttonIds(live)).toEqual(["run_open", "triage_acknowledge", "triage_snooze", "triage_mute"]);
    expect(evidenceBody(live)).toEqual(before);
    // The failure seen while muted is not replayed.
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect((await bot.posted()).map((m) => m.ts)).toEqual([parent.ts]);
    // The next one goes on in the alert's thread, counted after those seen while muted.
    const next = await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 3 * MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const reply = (await bot.posted()).find((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(visibleText(reply as StoredMessage)).toContain(`Run #${next.id}`);
    expect(visibleText(reply as StoredMessage)).not.toContain(`Run #${whileMuted.id}`);
    expect((reply as StoredMessage).text).toMatch(/3 runs in a row/);
    const after = await parentNow(bot, parent.ts);
    expect(visibleText(after)).toMatch(/failing for 3 runs/);
    expect(buttonIds(after)).toEqual(["run_open", "triage_acknowledge", "triage_snooze", "triage_mute"]);
  });

  it("a failure that ended while muted, read only after the Unmute, is counted, not posted, and the alert counts it; the next one is posted", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await bot.click(parent, "triage_mute");
    const whileMuted = await org.addRun(101, "failed");
    await bot.click(await parentNow(bot, parent.ts), "triage_unmute");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await bot.posted()).map((m) => m.ts)).toEqual([parent.ts]);
    const row = (await ledgerOf(bot, "test", 101)).find((r) => r.id === whileMuted.id);
    expect(row).toMatchObject({ fate: "counted", reason: "muted" });
    // The live alert counts it at once, as status does.
    expect(visibleText(await parentNow(bot, parent.ts))).toMatch(/failing for 2 runs/);
    const next = await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const reply = (await bot.posted()).find((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(visibleText(reply as StoredMessage)).toContain(`Run #${next.id}`);
    expect(visibleText(reply as StoredMessage)).not.toContain(`Run #${whileMuted.id}`);
  });

  it("a test that passes while muted posts no recovery: its alert turns green and keeps Unmute; unmuted, it shows what a green alert shows", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    const before = evidenceBody(parent);
    await bot.click(parent, "triage_mute");
    const posts = (await bot.messages()).filter((m) => !m.ephemeral).length;
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await bot.messages()).filter((m) => !m.ephemeral)).toHaveLength(posts);
    const green = await parentNow(bot, parent.ts);
    expect(visibleText(green)).toMatch(/Recovered/);
    expect(visibleText(green)).toMatch(/muted by <@U0ALICE>/);
    expect(buttonIds(green)).toEqual(["run_open", "triage_unmute"]);
    await bot.click(green, "triage_unmute");
    const unmuted = await parentNow(bot, parent.ts);
    expect(visibleText(unmuted)).toMatch(/Recovered/);
    expect(visibleText(unmuted)).toMatch(/unmuted by <@U0ALICE>/);
    expect(buttonIds(unmuted)).toEqual(["run_open"]);
    expect(evidenceBody(unmuted)).toEqual(before);
  });

  it("Unmute from /decipher status brings the alert's controls back too", async () => {
    const { bot, parent } = await failingAlert();
    await bot.click(parent, "triage_mute");
    const status = JSON.parse((await bot.command("/decipher", "status")).body) as StoredMessage;
    const reply = {
      ...status,
      ts: `${Math.floor(Date.now() / 1000)}.000900`,
      channel: "C0ALERTS",
      ephemeral: true,
    };
    await bot.click(reply, "triage_unmute");
    expect((await objectState(bot, "test", 101))?.muted ?? null).toBeNull();
    expect(buttonIds(await parentNow(bot, parent.ts))).toEqual([
      "run_open",
      "triage_acknowledge",
      "triage_snooze",
      "triage_mute",
    ]);
  });

  it("/decipher subscribe test 101 unmutes a muted subscription too", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await bot.click(parent, "triage_mute");
    await bot.command("/decipher", "subscribe test 101");
    const replies = (await bot.messages()).filter((m) => m.ephemeral);
    expect(visibleText(replies.at(-1) as StoredMessage)).toMatch(/Unmuted test/);
    expect((await objectState(bot, "test", 101))?.muted ?? null).toBeNull();
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(2);
  });

  it("a button on an old alert whose subscription is gone answers so, and changes nothing", async () => {
    const { bot, parent } = await failingAlert();
    await bot.command("/decipher", "unsubscribe test 101");
    await bot.click(parent, "triage_acknowledge");
    const replies = (await bot.messages()).filter((m) => m.ephemeral);
    expect(visibleText(replies.at(-1) as StoredMessage)).toMatch(/no longer exists|not subscribed|gone/i);
    expect(await objectState(bot, "test", 101)).toBeNull();
  });
});

describe("an acknowledgement belongs to one alert", () => {
  it("the alert of a new failure streak is posted with nobody looking, and the green one drops who was looking", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await bot.click(parent, "triage_acknowledge");
    expect(visibleText(await parentNow(bot, parent.ts))).toMatch(/<@U0ALICE> is looking/);
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await objectState(bot, "test", 101))?.acknowledgedBy ?? []).toEqual([]);
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await bot.cron(new Date(t0 + 3 * MINUTE));
    const [first, second] = topLevel(await bot.posted());
    expect(second).toBeDefined();
    const green = visibleText(await parentNow(bot, (first as StoredMessage).ts));
    expect(green).toMatch(/Recovered/);
    expect(green).not.toMatch(/looking/);
    expect(visibleText(await parentNow(bot, (second as StoredMessage).ts))).not.toMatch(/looking/);
  });

  it("an Acknowledge clicked on a green alert is not carried onto the next alert", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.click(parent, "triage_acknowledge");
    const note = (await bot.messages()).filter((m) => m.ephemeral).at(-1) as StoredMessage;
    expect(visibleText(note)).toMatch(/passes again: its alert needs nobody looking/);
    expect((await objectState(bot, "test", 101))?.acknowledgedBy ?? []).toEqual([]);
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await bot.cron(new Date(t0 + 3 * MINUTE));
    const second = topLevel(await bot.posted())[1] as StoredMessage;
    expect(visibleText(await parentNow(bot, second.ts))).not.toMatch(/looking/);
  });
});

describe("a snooze that outlives the streak stays on the green alert", () => {
  it("a snoozed alert that recovers shows the snooze with Unsnooze, not who was looking; Unsnooze there ends it", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await bot.click(parent, "triage_acknowledge");
    await chooseSnooze(bot, parent, 1);
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const green = await parentNow(bot, parent.ts);
    expect(visibleText(green)).toMatch(/Recovered/);
    expect(visibleText(green)).toMatch(/snoozed by <@U0ALICE>/);
    expect(visibleText(green)).not.toMatch(/looking/);
    expect(buttonIds(green)).toContain("triage_unsnooze");
    await bot.click(green, "triage_unsnooze");
    expect((await objectState(bot, "test", 101))?.snooze ?? null).toBeNull();
    const after = await parentNow(bot, parent.ts);
    expect(visibleText(after)).toMatch(/Recovered/);
    expect(visibleText(after)).not.toMatch(/snoozed/);
    expect(buttonIds(after)).not.toContain("triage_unsnooze");
  });

  it("when the snooze runs out, the green alert drops it and its Unsnooze button", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await chooseSnooze(bot, parent, 1);
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect(buttonIds(await parentNow(bot, parent.ts))).toContain("triage_unsnooze");
    await bot.cron(new Date(t0 + 61 * MINUTE));
    const after = await parentNow(bot, parent.ts);
    expect(visibleText(after)).toMatch(/Recovered/);
    expect(visibleText(after)).not.toMatch(/snoozed/);
    expect(buttonIds(after)).not.toContain("triage_unsnooze");
  });
});
