import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { health, runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Issue #34, case 3: a person deletes an alert. Slack then answers `message_not_found` to an
// edit of it, and a reply with its thread_ts lands under "This message was deleted." (or, as
// one review saw, is refused): either way the alert must carry on where people can see it.

const MINUTE = 60_000;
const topLevel = (m: StoredMessage) => !m.thread_ts || m.thread_ts === m.ts;

async function alertThenDeleted() {
  const { bot, org, tests } = await channelWatching(1);
  const test = tests[0] as { id: number };
  const t0 = Date.now();
  const at = (m: number) => new Date(t0 + m * MINUTE);
  const first = await org.addRun(test.id, "failed");
  await bot.cron(at(0));
  const alert = (await bot.posted()).find((m) => topLevel(m) && runIdsIn(visibleText(m)).includes(first.id));
  await bot.deleteMessage(alert?.ts as string);
  return { bot, org, test, at, deletedTs: alert?.ts as string };
}

describe("a person deletes a failure alert while the test keeps failing", () => {
  for (const replies of ["accepted under the deleted alert", "refused"] as const) {
    it(`starts a new alert that says so, and the thread goes on there (replies ${replies})`, async () => {
      const { bot, org, test, at, deletedTs } = await alertThenDeleted();
      const second = await org.addRun(test.id, "failed");
      if (replies === "refused")
        await bot.slackFault("chat.postMessage", "error", 1, { error: "message_not_found" });
      await bot.cron(at(1));
      await bot.cron(at(2));

      const posted = await bot.posted();
      const carried = posted.filter((m) => topLevel(m) && m.ts !== deletedTs);
      expect(carried).toHaveLength(1);
      const parent = carried[0] as StoredMessage;
      expect(visibleText(parent)).toMatch(/earlier alert .* was deleted/i);
      // The new alert shows the streak, the run told since included.
      expect(visibleText(parent)).toMatch(/failing for 2 runs/);

      const third = await org.addRun(test.id, "failed");
      await bot.cron(at(3));
      const reply = (await bot.posted()).find((m) => runIdsIn(visibleText(m)).includes(third.id));
      expect(reply?.thread_ts).toBe(parent.ts);
      expect(second.id).toBeGreaterThan(0);
    });
  }

  it("a pass ends the streak and the next failure is told once, as a new alert", async () => {
    const { bot, org, test, at } = await alertThenDeleted();
    await org.addRun(test.id, "failed");
    await bot.cron(at(1));
    await org.addRun(test.id, "passed");
    await bot.cron(at(2));
    const next = await org.addRun(test.id, "failed");
    await bot.cron(at(3));
    await bot.cron(at(4));
    const told = (await bot.posted()).filter((m) => runIdsIn(visibleText(m)).includes(next.id));
    expect(told).toHaveLength(1);
    expect(topLevel(told[0] as StoredMessage)).toBe(true);
    expect((await health(bot)).overdue).toBe(0);
    // Nothing is tried over and over: a deleted alert is not edited on every poll.
    const edits = (await bot.slackCalls()).filter(
      (c) => c.method === "chat.update" && c.error === "message_not_found",
    );
    expect(edits.length).toBeLessThanOrEqual(2);
  });
});

describe("a person deletes a collection alert while it keeps growing", () => {
  for (const replies of ["accepted under the deleted alert", "refused"] as const) {
    it(`posts the alert again, saying so, and later growth replies there (replies ${replies})`, async () => {
      const apiKey = await newOrg();
      const bot = createBot({ apiKey });
      const org = emulator.org(apiKey);
      await bot.command("/decipher", "subscribe collection 501");
      const t0 = Date.now();
      const at = (m: number) => new Date(t0 + m * MINUTE);
      await org.grow(501, 40);
      await bot.cron(at(0));
      const first = (await bot.posted()).find(topLevel) as StoredMessage;
      await bot.deleteMessage(first.ts);
      await org.grow(501, 40);
      if (replies === "refused")
        await bot.slackFault("chat.postMessage", "error", 1, { error: "message_not_found" });
      await bot.cron(at(1));
      await bot.cron(at(2));
      const carried = (await bot.posted()).filter((m) => topLevel(m) && m.ts !== first.ts);
      expect(carried).toHaveLength(1);
      expect(visibleText(carried[0] as StoredMessage)).toMatch(
        /earlier alert for this collection was deleted/,
      );
      await org.grow(501, 40);
      await bot.cron(at(3));
      const latest = (await bot.posted()).at(-1) as StoredMessage;
      expect(latest.thread_ts).toBe(carried[0]?.ts);
    });
  }
});
