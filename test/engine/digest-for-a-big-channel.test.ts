import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { DigestStore } from "../../src/store/digest-store.ts";

// Review of the digest for a big channel (the case 10): built from what the objects
// hold, it needs no vendor read per test, so it fits one invocation's budget.

const TESTS = 200;

describe("a digest for a big channel", () => {
  it(`is sent once for ${TESTS} tests in one channel, and the next one is scheduled`, {
    timeout: 240_000,
  }, async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    const ids: number[] = [];
    for (let i = 0; i < TESTS; i++) ids.push((await org.addTest(`Flow ${i + 1}`)).id);
    for (const id of ids) await bot.command("/decipher", `subscribe test ${id}`);
    await bot.command("/decipher", "digest 09:00 UTC");
    const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
    const due = new Date(schedule?.nextDueAt ?? 0).getTime();
    await bot.cron(new Date(due + 5_000));
    const digests = (await bot.posted()).filter((m) => /digest/i.test(visibleText(m)));
    expect(digests).toHaveLength(1);
    expect((await new DigestStore(env.STATE).get("C0ALERTS"))?.nextDueAt).not.toBe(schedule?.nextDueAt);
  });
});
