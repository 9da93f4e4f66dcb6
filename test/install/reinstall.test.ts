import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import { envelope, eventsOf } from "../helpers/events.ts";
import { connectKey, install, installedWithKey, tenantBot, workspaceOf } from "../helpers/installs.ts";
import { storageOf } from "../helpers/tenancy.ts";

// Issue #36, finding 1: a member who reinstalls must not take over the Decipher key and the
// bot's admins. Slack lets any member allowed to add apps click Add to Slack → Allow again;
// that alone passes none of the installer's rights.

describe("a reinstall by another member", () => {
  it("keeps the installer, the key and the admins, and tells the installer in a DM", async () => {
    const { bot, apiKey } = await installedWithKey();
    const team = await bot.team();

    const done = await install(bot, "U0BOB");
    expect(done.status).toBe(200);
    const after = await workspaceOf(team).credentials();
    expect(after?.installerUserId).toBe("U0ALICE");
    expect(after?.decipherKey).toBe(apiKey);

    // Bob may not change the key: the form is refused to him.
    await connectKey(bot, "bob-s-own-key-123", "U0BOB");
    expect((await workspaceOf(team).credentials())?.decipherKey).toBe(apiKey);

    const dm = (await bot.posted("D0ALICE")).map((m) => visibleText(m)).join("\n");
    expect(dm).toMatch(/<@U0BOB> installed Decipher again/);
    expect(dm).toMatch(/key, who installed it and the bot admins stay as they were/);
  });

  it("by the installer is a plain reinstall: no DM", async () => {
    const { bot } = await installedWithKey();
    await install(bot, "U0ALICE");
    expect((await workspaceOf(await bot.team()).credentials())?.installerUserId).toBe("U0ALICE");
    expect(await bot.posted("D0ALICE")).toEqual([]);
  });
});

describe("/slack/install?team=…", () => {
  it("takes only a well-formed team id, so a link cannot choose the scopes, the client or the state", async () => {
    const bot = tenantBot(await newOrg());
    const injected = "T0ACME&scope=admin&user_scope=chat:write&client_id=EVIL&state=mine";
    const res = await bot.send(
      new Request(`http://bot.test/slack/install?team=${encodeURIComponent(injected)}`),
    );
    const href = /id="add-to-slack" href="([^"]+)"/.exec(res.body)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const q = new URL(href).searchParams;
    expect(q.getAll("scope")).toHaveLength(1);
    expect(q.get("scope")).not.toContain("admin");
    expect(q.has("user_scope")).toBe(false);
    expect(q.getAll("client_id")).not.toContain("EVIL");
    expect(q.getAll("state")).not.toContain("mine");
    expect(q.has("team")).toBe(false);
  });

  it("passes a real team id on to Slack", async () => {
    const bot = tenantBot(await newOrg());
    const res = await bot.send(new Request("http://bot.test/slack/install?team=T0ACME123"));
    const href = /id="add-to-slack" href="([^"]+)"/.exec(res.body)?.[1]?.replace(/&amp;/g, "&") ?? "";
    expect(new URL(href).searchParams.get("team")).toBe("T0ACME123");
  });
});

describe("an uninstall after a channel's subscriptions were removed", () => {
  it("still deletes that channel's object: its outage window, decisions and outbox", async () => {
    const { bot, apiKey } = await installedWithKey();
    const team = await bot.team();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0DEMO" });
    await emulator.org(apiKey).addRun(101, "failed");
    await bot.cron();
    const channel = env.CHANNELS.get(env.CHANNELS.idFromName(objectNames.channel(team, "C0DEMO")));
    const stored = () => storageOf(channel);
    expect((await stored()).length).toBeGreaterThan(0);
    await bot.command("/decipher", "unsubscribe test 101", { channelId: "C0DEMO" });

    await eventsOf(bot).send(envelope(team, { type: "app_uninstalled" }));
    expect(await stored()).toEqual([]);
  });
});
