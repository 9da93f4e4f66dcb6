import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";

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
