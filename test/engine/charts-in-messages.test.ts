import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { keys } from "../../src/store/keys.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const DAY = 24 * 60 * 60_000;

const types = (m: StoredMessage | undefined) => (m?.blocks ?? []).map((b) => b.type);
const rich = (m: StoredMessage | undefined) =>
  types(m).filter((t) => t === "data_visualization" || t === "table");

/** `HH:MM` of an instant in a zone. */
function clock(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
}

/**
 * Sets the digest two minutes ahead in `zone` and fires the cron just after it. Two zones 26
 * hours apart (Etc/GMT+12, Etc/GMT-14) give two local dates minutes apart, so a test sees a
 * second day's digest without waiting one: the figures are still real, read from Decipher now.
 * The second is set a few minutes after the first: a digest is sent once per due instant.
 */
async function digestIn(bot: ReturnType<typeof createBot>, zone: string, minutesAhead = 2) {
  await bot.command(
    "/decipher",
    `digest ${clock(new Date(Date.now() + minutesAhead * 60_000), zone)} ${zone}`,
  );
  const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
  if (!schedule) throw new Error("digest was not stored");
  await bot.cron(new Date(Date.parse(schedule.nextDueAt) + 5_000));
}

async function channelWithDigest() {
  const bot = createBot({ apiKey: await newOrg() });
  await bot.command("/decipher", "subscribe test 101");
  await bot.command("/decipher", "subscribe collection 501");
  await bot.command("/decipher", "digest 09:00 UTC");
  const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
  if (!schedule) throw new Error("digest was not stored");
  return { bot, due: new Date(schedule.nextDueAt) };
}

const digests = async (bot: ReturnType<typeof createBot>) =>
  (await bot.posted()).filter((m) => /Daily Decipher digest/.test(m.text ?? ""));

const postCalls = async (bot: ReturnType<typeof createBot>) => await bot.alertPosts();

describe("charts and tables in the daily digest", () => {
  it("show the tests as a table from the first digest, and the charts once two local days have figures", async () => {
    const { bot } = await channelWithDigest();
    await digestIn(bot, "Etc/GMT+12");
    const [first] = await digests(bot);
    expect(rich(first)).toEqual(["table"]);
    expect(visibleText(first as StoredMessage)).toContain("Checkout flow");
    // The table's text alternative is not sent where the table is shown.
    expect(visibleText(first as StoredMessage)).not.toMatch(/Checkout flow> · /);

    await digestIn(bot, "Etc/GMT-14", 5);
    const second = (await digests(bot))[1];
    expect(rich(second)).toEqual(["data_visualization", "data_visualization", "table"]);
    const titles = (second?.blocks ?? []).flatMap((b) => (b.type === "data_visualization" ? [b.title] : []));
    expect(titles).toEqual([
      "New sessions per day, last 2 days",
      "Pass rate of this channel's tests, last 2 days",
    ]);
    // Two local dates, each with the figures its digest read: no request beyond the digests' own.
    const history = (await new DigestStore(env.STATE).get("C0ALERTS"))?.history ?? [];
    expect(history).toHaveLength(2);
    expect(history[0]?.collections["501"]).toEqual(history[1]?.collections["501"]);
  });

  it("go out without their charts and table when Slack refuses them, and later digests skip them", async () => {
    const { bot, due } = await channelWithDigest();
    await bot.blockRollout(["data_visualization", "table"]);
    await bot.cron(new Date(due.getTime() + 5_000));

    const sent = await digests(bot);
    expect(sent).toHaveLength(1);
    expect(rich(sent[0])).toEqual([]);
    // Nothing is lost: the table's figures are there as lines.
    expect(visibleText(sent[0] as StoredMessage)).toMatch(/Checkout flow> · .* · \d+ runs?, \d+ failures?/);
    expect((await postCalls(bot)).map((c) => c.error ?? "ok")).toEqual(["invalid_blocks", "ok"]);
    expect(await env.STATE.get(keys.richBlocksRefused(await bot.team()))).not.toBeNull();

    // The next day's digest is sent once, without them, at the first try.
    await bot.cron(new Date(due.getTime() + DAY + 5_000));
    expect(await digests(bot)).toHaveLength(2);
    expect((await postCalls(bot)).map((c) => c.error ?? "ok")).toEqual(["invalid_blocks", "ok", "ok"]);
    expect(rich((await digests(bot))[1])).toEqual([]);
  });
});

describe("a refusal of one table's content", () => {
  it("drops the charts and table from that digest only: the workspace keeps them for the next", async () => {
    const { bot, due } = await channelWithDigest();
    await bot.slackFault("chat.postMessage", "error", 1, {
      error: "invalid_blocks",
      details: ["[ERROR] only one table block allowed [json-pointer:/blocks]"],
    });
    await bot.cron(new Date(due.getTime() + 5_000));
    const sent = await digests(bot);
    expect(sent).toHaveLength(1);
    expect(rich(sent[0])).toEqual([]);
    // Said in the same digest, whose table's figures are there as lines.
    expect(visibleText(sent[0] as StoredMessage)).toMatch(/a table was left out: Slack refused it/);
    expect(visibleText(sent[0] as StoredMessage)).toMatch(/Checkout flow> · .* · \d+ runs?, \d+ failures?/);
    expect(await env.STATE.get(keys.richBlocksRefused(await bot.team()))).toBeNull();

    await bot.cron(new Date(due.getTime() + DAY + 5_000));
    expect(await digests(bot)).toHaveLength(2);
    expect(rich((await digests(bot))[1])).not.toEqual([]);
  });
});

describe("a block type one workspace refuses", () => {
  it("is remembered for that type only: no tables in the digest, and the next alert still has its chart", async () => {
    const { bot, due } = await channelWithDigest();
    await bot.blockRollout(["table"]);
    await bot.cron(new Date(due.getTime() + 5_000));
    expect(rich((await digests(bot))[0])).toEqual([]);
    const remembered = JSON.parse((await env.STATE.get(keys.richBlocksRefused(await bot.team()))) ?? "{}");
    expect(Object.keys(remembered)).toEqual(["table"]);

    await bot.command("/decipher", "subscribe collection 501 growth:3");
    await emulator.org(bot.env.DECIPHER_API_KEY).grow(501, 4);
    await bot.cron(new Date(due.getTime() + 10 * 60_000));
    const alert = (await bot.posted()).find(
      (m) => /grew|sessions/i.test(m.text ?? "") && !/digest/.test(m.text ?? ""),
    );
    expect(types(alert)).toContain("data_visualization");
  });
});

describe("charts in alerts", () => {
  it("a collection alert charts its growth, and its parent's chart grows with later alerts", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    await bot.cron();
    await org.grow(501, 4);
    await bot.cron();
    const [parent] = await bot.posted();
    const chart = parent?.blocks?.find((b) => b.type === "data_visualization") as {
      chart: { series: { data: { value: number }[] }[] };
    };
    const [first, second] = chart.chart.series[0]?.data.map((p) => p.value) ?? [];
    expect(second).toBe((first ?? 0) + 4);

    await org.grow(501, 5);
    await bot.cron(new Date(Date.now() + 2 * 60_000));
    const edits = (await bot.slackCalls()).filter((c) => c.method === "chat.update");
    const edited = JSON.stringify(edits.at(-1)?.params);
    expect(edited).toContain("data_visualization");
    const now = (await bot.messages()).find((m) => m.ts === parent?.ts);
    const grown = now?.blocks?.find((b) => b.type === "data_visualization") as typeof chart;
    expect(grown.chart.series[0]?.data.map((p) => p.value)).toEqual([first, second, (second ?? 0) + 5]);
  });

  it("a collection alert Slack refuses for its chart goes out without it, once", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    await bot.blockRollout(["data_visualization"]);
    await bot.cron();
    await org.grow(501, 4);
    await bot.cron();
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(types(posts[0])).not.toContain("data_visualization");
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/Sessions at each alert\*: \d+ → \d+/);
  });
});

describe("mention: pings the right people once per failure", () => {
  const ONCALL = "<!subteam^S0ONCALL>";

  it("pings in the first alert of a streak only: not its thread replies, edits or recovery", async () => {
    // A test with no earlier runs: the demo test 101's seeded failures would make the second
    // streak flaky, which is told in the day's flaky thread rather than as a new streak.
    const apiKey = await newOrg();
    const org = emulator.org(apiKey);
    const { id } = await org.addTest("Pinged flow");
    const bot = createBot({ apiKey });
    await bot.command("/decipher", `subscribe test ${id} mention:<!subteam^S0ONCALL|@oncall>`, {
      channelId: "C0ALERTS",
    });
    const t0 = Date.now();
    await org.addRun(id, "failed");
    await bot.cron(new Date(t0));
    await org.addRun(id, "failed");
    await bot.cron(new Date(t0 + 60_000));
    await org.addRun(id, "failed");
    await bot.cron(new Date(t0 + 120_000));
    await org.addRun(id, "passed");
    await bot.cron(new Date(t0 + 180_000));

    const pings = await bot.pings();
    const [parent] = await bot.posted();
    expect(pings).toEqual([{ target: ONCALL, channel: "C0ALERTS", ts: parent?.ts }]);
    const edits = (await bot.slackCalls()).filter((c) => c.method === "chat.update");
    expect(edits.length).toBeGreaterThan(0);
    for (const edit of edits) expect(JSON.stringify(edit.params)).not.toContain("S0ONCALL");

    // A new streak is a new failure: one more ping.
    await org.addRun(id, "failed");
    await bot.cron(new Date(t0 + 240_000));
    expect((await bot.pings()).map((p) => p.target)).toEqual([ONCALL, ONCALL]);
  });

  it("is shown in list and status", async () => {
    const { bot } = await subscribedBot("subscribe test 101 mention:<@U0ALICE|alice>");
    for (const sub of ["list", "status"]) {
      await bot.command("/decipher", sub);
      const reply = (await bot.messages()).at(-1);
      expect(visibleText(reply as StoredMessage)).toContain("new failures ping <@U0ALICE>");
    }
  });

  it("a collection's mention pings in each new alert only: not its growth replies or the card's edits", async () => {
    const { bot, org } = await subscribedBot(
      "subscribe collection 501 growth:2 mention:<!subteam^S0ONCALL|@oncall>",
    );
    const t0 = Date.now();
    await org.grow(501, 3);
    await bot.cron(new Date(t0));
    const [card] = await bot.posted();
    expect(await bot.pings()).toEqual([{ target: ONCALL, channel: "C0ALERTS", ts: card?.ts }]);
    // Later growth replies in the card's thread and edits the card: nobody is pinged again.
    await org.grow(501, 3);
    await bot.cron(new Date(t0 + 60_000));
    const replies = (await bot.messages()).filter((m) => m.thread_ts === card?.ts && m.ts !== card?.ts);
    expect(replies.length).toBeGreaterThan(0);
    const edits = (await bot.slackCalls()).filter((c) => c.method === "chat.update");
    expect(edits.length).toBeGreaterThan(0);
    for (const edit of edits) expect(JSON.stringify(edit.params)).not.toContain("S0ONCALL");
    expect(await bot.pings()).toHaveLength(1);
  });

  it("a collection's mention is shown in list and status, and changed in place by subscribing again", async () => {
    const { bot } = await subscribedBot("subscribe collection 501 mention:<@U0ALICE|alice>");
    // list and status answer in the command's own response (ephemeral), not as channel messages.
    const answer = async (text: string) =>
      visibleText(JSON.parse((await bot.command("/decipher", text)).body) as { text?: string });
    expect(await answer("list")).toContain("new alerts ping <@U0ALICE>");
    expect(await answer("status")).toContain("mention:<@U0ALICE>");
    await bot.command("/decipher", "subscribe collection 501 mention:<!subteam^S0ONCALL>");
    const list = await answer("list");
    expect(list).toContain(`new alerts ping ${ONCALL}`);
    expect(list).not.toContain("U0ALICE");
  });

  it("an outage message pings each distinct mention once", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    const mentions = ["<@U0ALICE|alice>", "<!subteam^S0ONCALL|@oncall>", "<!subteam^S0ONCALL|@oncall>"];
    const tests = [];
    for (const mention of mentions) {
      const test = await org.addTest(`Checkout ${tests.length}`);
      tests.push(test);
      await bot.command("/decipher", `subscribe test ${test.id} mention:${mention}`);
    }
    for (const test of tests) await org.addRun(test.id, "failed");
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/3 tests failing at once/);
    expect((await bot.pings()).map((p) => p.target).sort()).toEqual([ONCALL, "<@U0ALICE>"].sort());
  });
});
