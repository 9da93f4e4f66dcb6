import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { channelObject, objectNames } from "../../src/objects/addresses.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";
import { objectState } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const store = () => new SubscriptionStore(env.STATE);

describe("/decipher subscribe with options, end to end", () => {
  it("answers a bad option with the usage and stores nothing", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = await bot.command("/decipher", "subscribe test 101 after:2 loud:yes");
    const reply = visibleText(JSON.parse(ack.body));
    expect(reply).toMatch(/`loud:yes` is not an option of `subscribe test`/);
    expect(reply).toMatch(/flaky:thread\|digest\|alert/);
    expect(await store().get("C0ALERTS", "test", 101)).toBeNull();
  });

  it("names a bad value and stores nothing", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = await bot.command("/decipher", "subscribe test 101 page:checkout");
    expect(visibleText(JSON.parse(ack.body))).toMatch(/`page:checkout`.*starting with `\/`/);
    expect(await store().get("C0ALERTS", "test", 101)).toBeNull();
  });

  it("subscribes when every option is good", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101 flaky:digest after:2 trigger:schedule page:/checkout");
    expect(await store().get("C0ALERTS", "test", 101)).toMatchObject({ kind: "test", testId: 101 });
  });
});

describe("an option that matches none of the test's runs", () => {
  it("a trigger no recent run had is said under the reply, with the triggers its runs have", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101 trigger:scheduled");
    const reply = visibleText((await bot.messages("C0ALERTS")).at(-1) ?? {});
    expect(reply).toMatch(
      /No run of test 101 in the last \d+ runs had trigger `scheduled`; its triggers are .*`schedule`/,
    );
    expect(reply).toContain("trigger:default");
    await bot.command("/decipher", "subscribe test 101 trigger:schedule", { channelId: "C0DEMO" });
    expect(visibleText((await bot.messages("C0DEMO")).at(-1) ?? {})).not.toMatch(/No run of test/);
  });
});

describe("subscribing again to a watched test or collection", () => {
  it("keeps the options when subscribing again without options, and says it already watches", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101 page:/checkout", { channelId: "C0DEMO" });
    const first = await store().get("C0DEMO", "test", 101);
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0DEMO" });
    const reply = visibleText((await bot.messages("C0DEMO")).at(-1) ?? {});
    expect(reply).toMatch(/already watches .*nothing changed/);
    expect(reply).toContain("page:/checkout");
    expect(reply).toMatch(/To change them, subscribe again with the options you want/);
    expect(await store().get("C0DEMO", "test", 101)).toEqual(first);
  });

  it("suggests a change that changes something: never the value already set", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101 after:2", { channelId: "C0DEMO" });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0DEMO" });
    const reply = visibleText((await bot.messages("C0DEMO")).at(-1) ?? {});
    expect(reply).toMatch(/already watches .*nothing changed/);
    expect(reply).toContain("like `/decipher subscribe test 101 after:3`");
  });

  it("changes only the options named, keeps the others, and names the old and the new", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101 page:/checkout", { channelId: "C0DEMO" });
    await bot.command("/decipher", "subscribe test 101 after:2", { channelId: "C0DEMO" });
    const reply = visibleText((await bot.messages("C0DEMO")).at(-1) ?? {});
    expect(reply).toMatch(
      /Changed the options of test .*`after:1` `page:\/checkout` → `flaky:thread` `after:2` `page:\/checkout`/,
    );
    const saved = await store().get("C0DEMO", "test", 101);
    expect(saved?.kind === "test" && saved.options).toMatchObject({ after: 2, page: "/checkout" });
  });

  it("puts one option back with `<option>:default`, keeping the rest", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101 after:3 page:/checkout", { channelId: "C0DEMO" });
    await bot.command("/decipher", "subscribe test 101 page:default", { channelId: "C0DEMO" });
    const saved = await store().get("C0DEMO", "test", 101);
    expect(saved?.kind === "test" && saved.options).toMatchObject({ after: 3, page: null });
    await bot.command("/decipher", "subscribe collection 501 growth:12", { channelId: "C0DEMO" });
    await bot.command("/decipher", "subscribe collection 501 growth:default", { channelId: "C0DEMO" });
    expect(await store().get("C0DEMO", "collection", 501)).toMatchObject({ growth: null });
  });

  it("keeps a collection's growth when subscribing again without options", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe collection 501 growth:12", { channelId: "C0DEMO" });
    await bot.command("/decipher", "subscribe collection 501", { channelId: "C0DEMO" });
    expect(visibleText((await bot.messages("C0DEMO")).at(-1) ?? {})).toMatch(/already watches.*growth:12/s);
    expect(await store().get("C0DEMO", "collection", 501)).toMatchObject({ growth: 12 });
  });
});

describe("subscribing again after an unsubscribe that left its index row behind", () => {
  it("subscribes: the row outlived its subscription (the channel's object did not answer the removal)", async () => {
    const { bot } = await subscribedBot("subscribe test 101");
    const channel = channelObject(env as never, objectNames.channel(await bot.team(), "C0ALERTS"));
    const [row] = (await channel.channelIndex("C0ALERTS", new Date().toISOString())).entries;
    await bot.command("/decipher", "unsubscribe test 101");
    // What an unsubscribe leaves when its row's removal fails (src/objects/subscription-object.ts remove).
    if (row) await channel.indexSubscription(row.subscription, new Date().toISOString());

    await bot.command("/decipher", "subscribe test 101");
    expect(visibleText((await bot.messages("C0ALERTS")).at(-1) ?? {})).not.toMatch(/already watches/);
    expect(await objectState(bot, "test", 101)).toMatchObject({ kind: "test", testId: 101 });
  });
});
