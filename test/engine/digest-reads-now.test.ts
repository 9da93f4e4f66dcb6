import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import { DigestStore } from "../../src/store/digest-store.ts";

/** `#alerts` watching a fresh test with a daily digest, five passes and a failure behind it. */
async function watchedTest(name: string) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const org = emulator.org(apiKey);
  const test = await org.addTest(name);
  await bot.command("/decipher", `subscribe test ${test.id}`);
  await bot.command("/decipher", "digest 09:00 UTC");
  for (const status of ["passed", "passed", "passed", "passed", "passed", "failed"] as const)
    await org.addRun(test.id, status);
  return { bot, org, test };
}

/** The channel's digest, sent when due, with no poll of its tests before it: its visible text. */
async function digestWithoutAPoll(bot: ReturnType<typeof createBot>): Promise<string> {
  const due = ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt;
  const name = objectNames.channel(await bot.team(), "C0ALERTS");
  await env.CHANNELS.get(env.CHANNELS.idFromName(name)).sendDueDigest(
    new Date(Date.parse(due) + 5_000).toISOString(),
    readConfig(bot.env),
  );
  const digest = (await bot.posted()).find((m) => /Daily Decipher digest/.test(m.text ?? ""));
  return visibleText(digest as StoredMessage);
}

// The digest is sent by the cron, while each test's own alarm polled it up to a minute before:
// what it says is current must be read now, not as of that poll.
describe("a digest reads what is current now", () => {
  it("a run that was running at the test's last poll and passed since is counted, and the test reads passing", async () => {
    const { bot, org, test } = await watchedTest("Checkout flow");
    const last = await org.addRun(test.id, "running");
    await bot.cron();
    // Ends after that poll, and no poll runs before the digest.
    await org.setRun(last.id, "passed");
    // The tests table: name, state, runs (24 h), failures, pass rate: seven runs, not the six polled.
    expect(await digestWithoutAPoll(bot)).toMatch(
      /Checkout flow\n🟢 passing: its last run passed\n7\n1\n86 %/,
    );
  });

  it("in a small channel, a run that appeared and passed since the last poll is counted too", async () => {
    const { bot, org, test } = await watchedTest("Login with SSO");
    await bot.cron();
    await org.addRun(test.id, "passed");
    expect(await digestWithoutAPoll(bot)).toMatch(
      /Login with SSO\n🟢 passing: its last run passed\n7\n1\n86 %/,
    );
  });
});
