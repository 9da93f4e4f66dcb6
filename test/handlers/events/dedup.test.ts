import { describe, expect, it } from "vitest";
import { APP, unfurlBot, unfurlCalls } from "./unfurl-setup.ts";

describe("event_id dedup (Slack retries)", () => {
  it("handles the same event twice only once", async () => {
    const { bot, events } = await unfurlBot();
    const { events: sent } = await events.post("C0ALERTS", `${APP}/tests/101`);
    const first = await events.send(sent[0]);
    const second = await events.send(sent[0]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await unfurlCalls(bot)).toHaveLength(1);
  });

  it("acknowledges Slack's retries (X-Slack-Retry-Num) and still unfurls once", async () => {
    const { bot, events } = await unfurlBot();
    const { events: sent } = await events.post("C0ALERTS", `${APP}/tests/101`);
    const acks = [
      await events.send(sent[0]),
      await events.send(sent[0], { "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout" }),
      await events.send(sent[0], { "X-Slack-Retry-Num": "2", "X-Slack-Retry-Reason": "http_error" }),
    ];
    expect(acks.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await unfurlCalls(bot)).toHaveLength(1);
  });

  it("handles a retry that arrives first (the original got lost) exactly once", async () => {
    const { bot, events } = await unfurlBot();
    const { events: sent } = await events.post("C0ALERTS", `${APP}/tests/101`);
    await events.send(sent[0], { "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout" });
    await events.send(sent[0]);
    expect(await unfurlCalls(bot)).toHaveLength(1);
  });

  it("handles retries racing each other once", async () => {
    const { bot, events } = await unfurlBot();
    const { events: sent } = await events.post("C0ALERTS", `${APP}/tests/102`);
    await Promise.all([
      events.send(sent[0]),
      events.send(sent[0], { "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout" }),
      events.send(sent[0], { "X-Slack-Retry-Num": "2", "X-Slack-Retry-Reason": "http_timeout" }),
    ]);
    expect(await unfurlCalls(bot)).toHaveLength(1);
  });

  it("treats different event ids for different messages as different events", async () => {
    const { bot, events } = await unfurlBot();
    await events.say("C0ALERTS", `${APP}/tests/101`);
    await events.say("C0ALERTS", `${APP}/tests/101`);
    expect(await unfurlCalls(bot)).toHaveLength(2);
  });
});
