import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import * as ACTION_IDS from "../../src/messages/action-ids.ts";
import { encodeSnoozeValue, encodeTriageRef } from "../../src/messages/triage-values.ts";
import type { SubscriptionRef } from "../../src/model/alert-control.ts";
import { CHANNEL_ID, FakeAlertControl, slackApp, TEAM_ID } from "../helpers/slack-app.ts";

const ref: SubscriptionRef = { teamId: TEAM_ID, channelId: CHANNEL_ID, kind: "test", id: 101 };
const value = encodeTriageRef(ref) as string;

/** The ephemeral replies a user sees, newest last. */
async function repliesTo(app: Awaited<ReturnType<typeof slackApp>>, userId: string) {
  return (await app.messages())
    .filter((m) => m.ephemeral && m.visible_to === userId)
    .map((m) => visibleText(m));
}

const fakeOf = (app: Awaited<ReturnType<typeof slackApp>>) => app.alertControl as FakeAlertControl;

describe("Acknowledge", () => {
  it("reaches the subscription named by the value and answers only the clicker with the note", async () => {
    const app = await slackApp();
    const res = await app.act(ACTION_IDS.triageAcknowledge, value);
    expect(res.status).toBe(200);
    expect(fakeOf(app).calls).toEqual([
      { ref, action: { type: "acknowledge", userId: "U0ALICE" }, now: expect.any(Date) },
    ]);
    expect(await repliesTo(app, "U0ALICE")).toEqual([
      expect.stringContaining("Marked you as looking (1 looking)"),
    ]);
    expect(await repliesTo(app, "U0BOB")).toEqual([]);
  });

  it("clicked twice by the same person: both reach the writer, the second answer says so", async () => {
    const app = await slackApp();
    await app.act(ACTION_IDS.triageAcknowledge, value);
    await app.act(ACTION_IDS.triageAcknowledge, value);
    expect(fakeOf(app).calls).toHaveLength(2);
    expect((await repliesTo(app, "U0ALICE")).at(-1)).toContain("already marked as looking");
  });

  it("clicked by two people: each is recorded as looking", async () => {
    const app = await slackApp();
    await app.act(ACTION_IDS.triageAcknowledge, value, { userId: "U0ALICE" });
    await app.act(ACTION_IDS.triageAcknowledge, value, { userId: "U0BOB" });
    expect(fakeOf(app).calls.map((c) => c.action.userId)).toEqual(["U0ALICE", "U0BOB"]);
    expect((await repliesTo(app, "U0BOB")).at(-1)).toContain("2 looking");
  });

  it("is open to everyone even when ADMIN_USER_IDS is set", async () => {
    const app = await slackApp({ adminUserIds: "U0ADMIN" });
    await app.act(ACTION_IDS.triageAcknowledge, value, { userId: "U0BOB" });
    expect(fakeOf(app).calls).toHaveLength(1);
  });

  it("on an old alert whose subscription is gone, answers with the 'gone' note", async () => {
    const fake = new FakeAlertControl();
    fake.gone.add(FakeAlertControl.key(ref));
    const app = await slackApp({ alertControl: fake });
    await app.act(ACTION_IDS.triageAcknowledge, value);
    expect((await repliesTo(app, "U0ALICE")).at(-1)).toContain("no longer watches test 101");
  });
});

describe("tampered or foreign values change nothing", () => {
  const foreignChannel = encodeTriageRef({ ...ref, channelId: "C0OTHER" }) as string;
  const foreignTeam = encodeTriageRef({ ...ref, teamId: "T0OTHER" }) as string;
  it.each([
    ["garbage", "garbage"],
    ["an empty value", ""],
    ["a wrong version", value.replace(/^1\|/, "2|")],
    ["a negative id", value.replace(/\|101$/, "|-5")],
    ["an unknown kind", value.replace("|test|", "|user|")],
    ["another channel's alert", foreignChannel],
    ["another workspace's alert", foreignTeam],
    ["markup", "<@U0ALICE>|<!channel>"],
  ])("%s", async (_, tampered) => {
    const app = await slackApp();
    const res = await app.act(ACTION_IDS.triageAcknowledge, tampered);
    expect(res.status).toBe(200);
    expect(fakeOf(app).calls).toEqual([]);
    expect((await repliesTo(app, "U0ALICE")).at(-1)).toContain(
      "That control no longer works, so nothing changed",
    );
  });

  it.each([
    ["a snooze length the menu never offers", `${value}|for:3`],
    ["'until it passes' on a collection", `${encodeTriageRef({ ...ref, kind: "collection" })}|until-pass`],
    ["'until +N sessions' on a test", `${value}|until-growth:5`],
    ["no length at all", value],
  ])("snooze with %s", async (_, tampered) => {
    const app = await slackApp();
    await app.act(ACTION_IDS.triageSnooze, tampered, { select: true });
    expect(fakeOf(app).calls).toEqual([]);
    expect((await repliesTo(app, "U0ALICE")).at(-1)).toContain("nothing changed");
  });
});

describe("Snooze and Mute", () => {
  it("a snooze pick carries its length to the writer", async () => {
    const app = await slackApp();
    await app.act(ACTION_IDS.triageSnooze, encodeSnoozeValue(ref, { kind: "for", hours: 4 }) as string, {
      select: true,
    });
    await app.act(ACTION_IDS.triageSnooze, encodeSnoozeValue(ref, { kind: "until-pass" }) as string, {
      select: true,
    });
    expect(fakeOf(app).calls.map((c) => c.action)).toEqual([
      { type: "snooze", userId: "U0ALICE", choice: { kind: "for", hours: 4 } },
      { type: "snooze", userId: "U0ALICE", choice: { kind: "until-pass" } },
    ]);
    expect((await repliesTo(app, "U0ALICE")).at(-1)).toContain("snooze done.");
  });

  it("Mute and Unsnooze reach the writer", async () => {
    const app = await slackApp();
    await app.act(ACTION_IDS.triageMute, value);
    await app.act(ACTION_IDS.triageUnsnooze, value);
    expect(fakeOf(app).calls.map((c) => c.action.type)).toEqual(["mute", "unsnooze"]);
  });

  it("every Unmute button of a row reaches the writer (the second is triage_unmute:2, and so on)", async () => {
    const app = await slackApp();
    await app.act(ACTION_IDS.triageUnmute, value);
    await app.act(`${ACTION_IDS.triageUnmute}:2`, value);
    await app.act(`${ACTION_IDS.triageUnmute}:25`, value);
    expect(fakeOf(app).calls.map((c) => c.action.type)).toEqual(["unmute", "unmute", "unmute"]);
  });

  it.each([
    ["snooze", ACTION_IDS.triageSnooze, `${value}|for:1`, true],
    ["mute", ACTION_IDS.triageMute, value, false],
    ["unsnooze", ACTION_IDS.triageUnsnooze, value, false],
  ])(
    "with ADMIN_USER_IDS set, %s is refused to others with the reason",
    async (verb, actionId, v, select) => {
      const app = await slackApp({ adminUserIds: "U0ALICE" });
      await app.act(actionId, v, { userId: "U0BOB", select });
      expect(fakeOf(app).calls).toEqual([]);
      const said = (await repliesTo(app, "U0BOB")).at(-1);
      expect(said).toContain(`Only the bot's admins can ${verb} alerts in this channel`);
      expect(said).toContain("Acknowledge is open to all");
      await app.act(actionId, v, { userId: "U0ALICE", select });
      expect(fakeOf(app).calls).toHaveLength(1);
    },
  );
});

describe("when the writer cannot answer", () => {
  it("says so in a sentence, without a stack trace", async () => {
    const fake = new FakeAlertControl();
    fake.failWith = new Error("DO reset at objects/subscription.ts:42");
    const app = await slackApp({ alertControl: fake });
    await app.act(ACTION_IDS.triageAcknowledge, value);
    const said = (await repliesTo(app, "U0ALICE")).at(-1) ?? "";
    expect(said).toContain("Could not reach this alert's state right now; nothing changed");
    expect(said).not.toMatch(/objects\/|\.ts:|at /);
  });
});
