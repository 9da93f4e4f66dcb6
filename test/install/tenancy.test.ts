import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { GUEST_REFUSAL, OUTSIDER_REFUSAL } from "../../src/messages/outsiders.ts";
import { SUBSCRIPTION_CHANGE_REFUSAL } from "../../src/model/admins.ts";
import { envelope, fromAnotherOrg } from "../helpers/events.ts";
import {
  alertOf,
  everyKvKey,
  everyObjectsStorage,
  seenBy,
  type Tenant,
  threeWorkspaces,
} from "../helpers/tenancy.ts";

/**
 * Issue #36: three workspaces on one Worker, Acme and Globex sharing #alerts (Slack Connect),
 * Initech on its own. Every surface (/decipher, /sessions, @mentions, link unfurls, alert
 * buttons, Home) from each workspace, as a member, a bot admin, a person of the other
 * organization and a guest: what each may see and change. It ends with Globex uninstalling,
 * after which no Durable Object and no KV key holds anything of Globex, and Acme's and
 * Initech's data is all still there.
 */

/** Everything a workspace's people could be shown of it: its test's name and its sessions' email. */
const secretsOf = (t: Tenant) => [t.testName, t.email === "jane@acme.com" ? "" : t.email].filter(Boolean);
const othersOf = (all: readonly Tenant[], t: Tenant) => all.filter((o) => o !== t).map((o) => o.testName);

describe("three workspaces, as a member and as a bot admin", () => {
  it("each reads only its own Decipher data, on every surface", async () => {
    const { all } = await threeWorkspaces();
    for (const t of all) {
      const list = visibleText(
        JSON.parse((await t.bot.command("/decipher", "list", { userId: "U0BOB" })).body),
      );
      expect(list, t.label).toContain(t.testName);
      const status = visibleText(
        JSON.parse((await t.bot.command("/decipher", "status", { userId: "U0BOB" })).body),
      );
      expect(status, t.label).toContain(t.testName);
      await t.bot.command("/sessions", t.email, { userId: "U0BOB" });
      const mention = await t.events.say("C0ALERTS", `@Decipher sessions ${t.email}`, { userId: "U0BOB" });
      await t.events.say("C0ALERTS", `https://app.decipher.test/tests/${t.testId}`, { userId: "U0BOB" });
      await t.events.openHome("U0BOB");

      const seen = (await seenBy(t.bot, "U0BOB")).join("\n");
      expect(seen, t.label).toMatch(/app\.decipher\.test\/sessions\//);
      const replies = (await t.bot.messages("C0ALERTS")).filter((m) => m.thread_ts === mention.message.ts);
      expect(replies.map(visibleText).join("\n"), t.label).toContain(t.email);
      const unfurls = JSON.stringify((await t.bot.slackCalls()).filter((c) => c.method === "chat.unfurl"));
      expect(unfurls, t.label).toContain(t.testName);
      const home = JSON.stringify(await t.events.views("U0BOB"));
      expect(home, t.label).toContain(t.testName);
      const everything = `${list}${status}${seen}${unfurls}${home}${JSON.stringify(await t.bot.messages("C0ALERTS"))}`;
      for (const other of othersOf(all, t))
        expect(everything, `${t.label} shows ${other}`).not.toContain(other);
    }
  });

  it("a member acknowledges, but only the admin changes what the channel gets", async () => {
    const { all } = await threeWorkspaces();
    for (const t of all) {
      const alert = await alertOf(t);
      await t.bot.click(alert, "triage_acknowledge", { userId: "U0BOB" });
      await t.bot.click(alert, "triage_mute", { userId: "U0BOB" });
      const subscribe = await t.bot.command("/decipher", `subscribe test ${t.testId}`, {
        userId: "U0BOB",
        channelId: "C0DEMO",
      });
      expect(visibleText(JSON.parse(subscribe.body)), t.label).toContain(SUBSCRIPTION_CHANGE_REFUSAL);
      let now = visibleText((await alertOf(t)) ?? {});
      expect(now, t.label).toMatch(/<@U0BOB>/);
      expect(now, t.label).not.toMatch(/muted/);

      await t.bot.click(alert, "triage_mute", { userId: "U0ALICE" });
      now = visibleText(await alertOf(t));
      expect(now, t.label).toMatch(/muted by <@U0ALICE>/);
      await t.bot.command("/decipher", `subscribe test ${t.testId}`, { channelId: "C0DEMO" });
      const list = visibleText(
        JSON.parse((await t.bot.command("/decipher", "list", { channelId: "C0DEMO" })).body),
      );
      expect(list, t.label).toContain(t.testName);
    }
  });
});

describe("someone of another organization in the shared channel", () => {
  it("gets none of Acme's or Globex's data from any surface, and changes nothing", async () => {
    const { acme, globex, all } = await threeWorkspaces();
    for (const [t, other] of [
      [acme, globex],
      [globex, acme],
    ] as const) {
      await t.org.clearRequests();
      const before = visibleText(await alertOf(t));
      const { message, events } = await t.events.post("C0ALERTS", `@Decipher sessions ${t.email}`);
      for (const e of events) await t.events.send(fromAnotherOrg(e, t.team, other.team));
      // A question in words reads the channel's tests and their runs: none of it for them either.
      const asked = await t.events.post("C0ALERTS", "@Decipher what failed today?");
      for (const e of asked.events) await t.events.send(fromAnotherOrg(e, t.team, other.team));
      const link = await t.events.post("C0ALERTS", `https://app.decipher.test/tests/${t.testId}`);
      for (const e of link.events) await t.events.send(fromAnotherOrg(e, t.team, other.team));
      await t.events.send(fromAnotherOrg(await t.events.homeOpened("U0BOB"), t.team, other.team));
      for (const action of ["triage_acknowledge", "triage_mute"])
        await t.bot.click(await alertOf(t), action, { userId: "U0BOB", teamId: other.team });

      const replies = (await t.bot.messages("C0ALERTS")).filter(
        (m) => m.bot_id && (m.thread_ts === message.ts || m.thread_ts === asked.message.ts),
      );
      expect(
        replies.map((m) => m.text),
        t.label,
      ).toEqual([OUTSIDER_REFUSAL, OUTSIDER_REFUSAL]);
      expect(
        (await t.bot.slackCalls()).filter((c) => c.method === "chat.unfurl"),
        t.label,
      ).toEqual([]);
      expect(JSON.stringify(await t.events.views("U0BOB")), t.label).toContain(OUTSIDER_REFUSAL);
      // Their clicks reach their own organization's installation (docs/slack-platform.md), which
      // knows no such alert: nothing changed, nothing of this workspace shown.
      const told = await seenBy(t.bot, "U0BOB");
      expect(told, t.label).toHaveLength(2);
      for (const text of told) expect(text, t.label).not.toContain(t.testName);
      expect(visibleText(await alertOf(t)), t.label).toBe(before);
      expect(await t.org.requestTotal(), t.label).toBe(0);
    }
    // A command typed there goes to the person's own installation: their own data, none of the other's.
    const fromGlobex = await globex.bot.command("/decipher", "list", { userId: "U0BOB" });
    expect(visibleText(JSON.parse(fromGlobex.body))).not.toContain(acme.testName);
    // Initech shares nothing: an event naming another organization's person is refused there too.
    const initech = all[2];
    const forged = await initech.events.post("C0ALERTS", `https://app.decipher.test/tests/${initech.testId}`);
    for (const e of forged.events) await initech.events.send(fromAnotherOrg(e, initech.team, acme.team));
    expect((await initech.bot.slackCalls()).filter((c) => c.method === "chat.unfurl")).toEqual([]);
  });
});

describe("a guest of each workspace (Slack's multi-channel and single-channel guests)", () => {
  it("sees the alerts of their channel, and is answered nothing else on any surface", async () => {
    const { all } = await threeWorkspaces();
    for (const [t, guest, role] of [
      [all[0], "U0GUEST", "guest"],
      [all[1], "U0SOLO", "single-channel-guest"],
      [all[2], "U0GUEST", "guest"],
    ] as const) {
      await t.bot.person(guest, role, ["C0ALERTS"]);
      await t.org.clearRequests();
      const before = visibleText(await alertOf(t));
      const acks = [
        await t.bot.command("/decipher", "list", { userId: guest }),
        await t.bot.command("/sessions", t.email, { userId: guest }),
        await t.bot.command("/decipher", `unsubscribe test ${t.testId}`, { userId: guest }),
      ];
      for (const ack of acks)
        expect(JSON.parse(ack.body), t.label).toEqual({ response_type: "ephemeral", text: GUEST_REFUSAL });
      const mention = await t.events.say("C0ALERTS", `@Decipher sessions ${t.email}`, { userId: guest });
      await t.events.say("C0ALERTS", `https://app.decipher.test/tests/${t.testId}`, { userId: guest });
      await t.events.openHome(guest);
      await t.bot.click(await alertOf(t), "triage_acknowledge", { userId: guest });
      await t.bot.click(await alertOf(t), "triage_mute", { userId: guest });

      const replies = (await t.bot.messages("C0ALERTS")).filter(
        (m) => m.bot_id && m.thread_ts === mention.message.ts,
      );
      expect(
        replies.map((m) => m.text),
        t.label,
      ).toEqual([GUEST_REFUSAL]);
      expect(
        (await t.bot.slackCalls()).filter((c) => c.method === "chat.unfurl"),
        t.label,
      ).toEqual([]);
      const home = JSON.stringify(await t.events.views(guest));
      expect(home, t.label).toContain(GUEST_REFUSAL);
      expect(home, t.label).not.toContain(t.testName);
      const told = await seenBy(t.bot, guest);
      expect(told, t.label).toHaveLength(2);
      for (const text of told) expect(text, t.label).toContain(GUEST_REFUSAL);
      expect(visibleText(await alertOf(t)), t.label).toBe(before);
      expect(await t.org.requestTotal(), t.label).toBe(0);
      // The alert is the channel's: the guest sees it there, as everyone in #alerts does.
      expect(before, t.label).toContain(t.testName);
    }
  });

  it("a workspace admin Slack reports is not a guest: Bob, made one, is answered as before", async () => {
    const { acme } = await threeWorkspaces();
    await acme.bot.person("U0BOB", "admin");
    const list = visibleText(
      JSON.parse((await acme.bot.command("/decipher", "list", { userId: "U0BOB" })).body),
    );
    expect(list).toContain(acme.testName);
  });
});

describe("Globex uninstalls", () => {
  it("leaves nothing of Globex in any Durable Object or KV key, and all of Acme's and Initech's", async () => {
    const earlier = await everyObjectsStorage();
    const { acme, globex, initech } = await threeWorkspaces();
    for (const t of [acme, globex, initech]) {
      await t.bot.command("/decipher", "digest 09:00 UTC");
      await t.events.say("C0ALERTS", `@Decipher sessions ${t.email}`);
      await t.events.openHome();
    }
    const before = await everyObjectsStorage();
    const keysBefore = await everyKvKey();
    const mentions = (team: string) => (stored: string[]) => stored.some((s) => s.includes(team));
    expect([...before.values()].filter(mentions(globex.team)).length).toBeGreaterThan(3);
    expect(keysBefore.filter((k) => k.includes(globex.team)).length).toBeGreaterThan(1);

    await globex.events.send(envelope(globex.team, { type: "app_uninstalled" }, "EvGLOBEXLEAVES"));
    // What the workspace's object keeps on purpose: the uninstall's event id, so a late copy of
    // the event cannot undo a reinstall (src/objects/workspace-object.ts purge).
    const tombstone = ['uninstalled="EvGLOBEXLEAVES"'];

    const after = await everyObjectsStorage();
    const keysAfter = await everyKvKey();
    const left = [...after.entries()].filter(([, stored]) =>
      stored.some((s) => s.includes(globex.team) || secretsOf(globex).some((secret) => s.includes(secret))),
    );
    expect(left).toEqual([]);
    expect(keysAfter.filter((k) => k.includes(globex.team))).toEqual([]);
    // Every object that held Globex's data and no other team's holds nothing now (found by what
    // it stored, not by its name); those shared with the others (the shards' directory) lost Globex's rows.
    const onlyGlobex = [...before.entries()].filter(
      ([, stored]) => mentions(globex.team)(stored) && ![acme, initech].some((t) => mentions(t.team)(stored)),
    );
    expect(onlyGlobex.length).toBeGreaterThan(3);
    for (const [name] of onlyGlobex)
      expect(after.get(name), name).toEqual(name.startsWith("WORKSPACES:") ? tombstone : undefined);
    // Every object this test made that still stores anything is Acme's or Initech's: it names
    // their team, or it is their event gate (which keeps event ids and Home hashes, no team id);
    // else the used Add to Slack states (no team either), or Globex's tombstone.
    const gateOf = (t: Tenant) => `SLACK_EVENT_GATE:${env.SLACK_EVENT_GATE.idFromName(`team:${t.team}`)}`;
    const strays = [...after.entries()].filter(
      ([name, stored]) =>
        !earlier.has(name) &&
        ![acme, initech].some((t) => mentions(t.team)(stored) || name === gateOf(t)) &&
        !name.startsWith("INSTALL_STATES:") &&
        JSON.stringify(stored) !== JSON.stringify(tombstone),
    );
    expect(strays).toEqual([]);
    expect(after.has(gateOf(globex))).toBe(false);
    // Acme's and Initech's stay as they were.
    for (const t of [acme, initech]) {
      const theirs = [...before.entries()].filter(([, s]) => mentions(t.team)(s)).map(([n]) => n);
      expect(
        theirs.filter((n) => !after.has(n)),
        t.label,
      ).toEqual([]);
      expect(
        keysBefore.filter((k) => k.includes(t.team) && !keysAfter.includes(k)),
        t.label,
      ).toEqual([]);
      const list = visibleText(JSON.parse((await t.bot.command("/decipher", "list")).body));
      expect(list, t.label).toContain(String(t.testId));
    }
  });
});
