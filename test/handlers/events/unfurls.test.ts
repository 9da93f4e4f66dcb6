import { describe, expect, it } from "vitest";
import { visibleText } from "../../../dev/in-workerd/bot.ts";
import * as ACTION_IDS from "../../../src/messages/action-ids.ts";
import { APP, unfurlBot, unfurlCalls } from "./unfurl-setup.ts";

const buttons = (blocks: Array<Record<string, unknown>>) =>
  blocks.flatMap((b) => (b.type === "actions" ? (b.elements as Array<Record<string, unknown>>) : []));

describe("link_shared → chat.unfurl", () => {
  it("explains a session link: who, facts, overview, screenshot, Watch replay / Timeline / Clicks", async () => {
    const { bot, org, events, session } = await unfurlBot();
    const url = `${APP}/sessions/${session.id}`;
    const { acks } = await events.say("C0ALERTS", `look at this ${url}`);
    expect(acks.map((a) => a.status)).toEqual([200]);
    const calls = await unfurlCalls(bot);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.ok).toBe(true);
    const blocks = calls[0]?.params.unfurls[url]?.blocks ?? [];
    const text = visibleText({ blocks });
    expect(text).toContain(session.userEmail);
    expect(text).toContain(":stopwatch:");
    expect(text).toMatch(/:label: `/);
    const image = blocks.find((b) => b.type === "image");
    expect(image?.image_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/screenshots\/org_\w+\//);
    const ids = buttons(blocks).map((b) => b.action_id);
    expect(ids).toEqual(expect.arrayContaining([ACTION_IDS.sessionTimeline, ACTION_IDS.sessionClicks]));
    expect(
      buttons(blocks).find((b) => b.text && (b.text as { text: string }).text === "Watch replay")?.url,
    ).toBe(url);
    // At most three vendor calls for one session link.
    expect((await org.requests()).total).toBeLessThanOrEqual(3);
    // The stand-in shows the unfurl under the message.
    const [message] = (await bot.messages("C0ALERTS")).filter((m) => m.text?.includes(url));
    expect(Object.keys((message?.unfurls as object) ?? {})).toEqual([url]);
  });

  it("answers the unfurl's Timeline button with the existing handler", async () => {
    const { bot, events, session } = await unfurlBot();
    const url = `${APP}/sessions/${session.id}`;
    const { message } = await events.say("C0ALERTS", url);
    const blocks = (await unfurlCalls(bot))[0]?.params.unfurls[url]?.blocks ?? [];
    const ack = await bot.click({ ts: message.ts, channel: "C0ALERTS", blocks }, ACTION_IDS.sessionTimeline);
    expect(ack.status).toBe(200);
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral && m.bot_id);
    expect(replies.length).toBeGreaterThan(0);
  });

  it("explains a test link: name, a strip of its last 10 runs (newest last), the last failure", async () => {
    const { bot, org, events } = await unfurlBot();
    const failed = await org.addRun(101, "failed", { oneLineSummary: "Pay button never enabled" });
    await org.addRun(101, "passed");
    const url = `${APP}/tests/101`;
    await events.say("C0ALERTS", url);
    const text = visibleText({ blocks: (await unfurlCalls(bot))[0]?.params.unfurls[url]?.blocks ?? [] });
    expect(text).toContain("Checkout flow");
    const strip = /([🟩🟥⬜]+)/u.exec(text)?.[1] ?? "";
    expect([...strip]).toHaveLength(10);
    expect([...strip].at(-1)).toBe("🟩");
    expect([...strip].at(-2)).toBe("🟥");
    expect(text).toContain("Pay button never enabled");
    expect(failed.id).toBeGreaterThan(0);
    expect((await org.requests()).total).toBeLessThanOrEqual(3);
  });

  it("explains a run link: that run's status, failed step and summary", async () => {
    const { bot, events, org } = await unfurlBot();
    const run = await org.addRun(102, "failed", {
      oneLineSummary: "SSO redirect loops",
      firstFailedStepNumber: 3,
      totalSteps: 8,
      failedSteps: 1,
    });
    const url = `${APP}/tests/102/runs/${run.id}`;
    await events.say("C0ALERTS", url);
    const text = visibleText({ blocks: (await unfurlCalls(bot))[0]?.params.unfurls[url]?.blocks ?? [] });
    expect(text).toContain(`Run #${run.id}`);
    expect(text).toContain("failed");
    expect(text).toContain("step 3 of 8");
    expect(text).toContain("SSO redirect loops");
  });

  it("unfurls several links of one message in one chat.unfurl call", async () => {
    const { bot, events, session } = await unfurlBot();
    const links = [`${APP}/sessions/${session.id}`, `${APP}/tests/101`, `${APP}/tests/102`];
    await events.say("C0ALERTS", `three: ${links.join(" and ")}`);
    const calls = await unfurlCalls(bot);
    expect(calls).toHaveLength(1);
    expect(Object.keys(calls[0]?.params.unfurls ?? {}).sort()).toEqual([...links].sort());
  });

  it("leaves unknown ids, wrong forms and other domains to Slack's own preview", async () => {
    const { bot, events, org } = await unfurlBot();
    const good = `${APP}/tests/101`;
    const unknownSession = `${APP}/sessions/00000000-0000-4000-8000-000000000000`;
    const unknownTest = `${APP}/tests/999999`;
    const unknownRun = `${APP}/tests/101/runs/1`;
    const wrongForm = `${APP}/sessions/not-a-uuid`;
    const text = [
      good,
      unknownSession,
      unknownTest,
      unknownRun,
      wrongForm,
      "https://example.com/tests/101",
    ].join(" ");
    const { events: sent } = await events.say("C0ALERTS", text);
    // Slack only tells the app about its own domains.
    expect(sent[0]?.event.links).not.toContainEqual(expect.objectContaining({ domain: "example.com" }));
    const calls = await unfurlCalls(bot);
    expect(calls).toHaveLength(1);
    expect(Object.keys(calls[0]?.params.unfurls ?? {})).toEqual([good]);
    const shown = JSON.stringify(calls[0]?.params.unfurls);
    expect(shown).not.toMatch(/not found|error/i);
    expect((await org.requests()).total).toBeLessThanOrEqual(1 + 2 + 1 + 1);
  });

  it("makes no chat.unfurl call when no Decipher link resolves (unknown session)", async () => {
    const { bot, events } = await unfurlBot();
    await events.say("C0ALERTS", `${APP}/sessions/00000000-0000-4000-8000-000000000000`);
    expect(await unfurlCalls(bot)).toEqual([]);
  });

  it("makes no chat.unfurl call when Decipher answers 500, and posts no error", async () => {
    const { bot, events, org, session } = await unfurlBot();
    await org.fault("*", "500", 20);
    await events.say("C0ALERTS", `${APP}/sessions/${session.id} ${APP}/tests/101`);
    expect(await unfurlCalls(bot)).toEqual([]);
    expect((await bot.messages("C0ALERTS")).filter((m) => m.bot_id)).toEqual([]);
  });

  it("makes no call at all for links that are all in the wrong form", async () => {
    const { bot, events, org } = await unfurlBot();
    await events.say("C0ALERTS", `${APP}/collections/501 ${APP}/tests/abc ${APP}/sessions`);
    expect(await unfurlCalls(bot)).toEqual([]);
    expect((await org.requests()).total).toBe(0);
  });

  it("looks a link pasted ten times in a minute up once (60 s cache in the team's Durable Object)", async () => {
    const { bot, events, org, session } = await unfurlBot();
    const url = `${APP}/sessions/${session.id}`;
    for (let i = 0; i < 10; i++) await events.say("C0ALERTS", `again ${i} ${url}`);
    const calls = await unfurlCalls(bot);
    expect(calls).toHaveLength(10);
    expect(calls.every((c) => c.ok)).toBe(true);
    const { byRoute, total } = await org.requests();
    expect(byRoute.clicks).toBe(1);
    expect(byRoute.timeline).toBe(1);
    expect(total).toBeLessThanOrEqual(3);
  });

  it("shares one lookup between concurrent events for the same link", async () => {
    const { events, org } = await unfurlBot();
    const posted = await Promise.all(
      Array.from({ length: 4 }, (_, i) => events.post("C0ALERTS", `${i} ${APP}/tests/101`)),
    );
    await Promise.all(posted.map((p) => events.send(p.events[0])));
    expect((await org.requests()).byRoute.testRuns).toBeLessThanOrEqual(2);
  });

  it("looks up at most five links of one message (the invocation's subrequest budget)", async () => {
    const { bot, events, org } = await unfurlBot();
    const tests = await Promise.all(Array.from({ length: 7 }, (_, i) => org.addTest(`Budget test ${i}`)));
    await Promise.all(tests.map((t) => org.addRun(t.id, "passed")));
    await events.say("C0ALERTS", tests.map((t) => `${APP}/tests/${t.id}`).join(" "));
    const calls = await unfurlCalls(bot);
    expect(calls).toHaveLength(1);
    expect(Object.keys(calls[0]?.params.unfurls ?? {})).toHaveLength(5);
    expect((await org.requests()).byRoute.testRuns).toBe(5);
  });

  it("names the message by channel and ts when the event has no unfurl_id", async () => {
    const { bot, events } = await unfurlBot();
    const url = `${APP}/tests/101`;
    const { message, events: sent } = await events.post("C0ALERTS", url);
    const { unfurl_id: _id, source: _source, ...event } = (sent[0]?.event ?? {}) as Record<string, unknown>;
    await events.send({ ...sent[0], event });
    const [call] = await unfurlCalls(bot);
    expect(call?.ok).toBe(true);
    expect(call?.params).toMatchObject({ channel: "C0ALERTS", ts: message.ts });
  });
});
