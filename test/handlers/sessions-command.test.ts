import { describe, expect, it } from "vitest";
import { createBot, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";

async function lastEphemeral(bot: Awaited<ReturnType<typeof createBot>>) {
  const messages = await bot.messages("C0ALERTS");
  return messages.at(-1) as StoredMessage;
}

describe("/sessions", () => {
  it("finding nothing without a range, does not offer a longer one", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "nobody-here@example.com");
    const text = visibleText(await lastEphemeral(bot));
    expect(text).toContain("No sessions for nobody-here@example.com");
    expect(text).toContain("That searched with no date range");
    await bot.command("/sessions", "nobody-here@example.com since:2d");
    expect(visibleText(await lastEphemeral(bot))).toContain("Try a longer range");
  });

  it("acks at once, then replaces the ack with one card per session", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = await bot.command("/sessions", "jane@acme.com");
    expect(ack.status).toBe(200);
    expect(JSON.parse(ack.body)).toMatchObject({
      response_type: "ephemeral",
      text: expect.stringContaining("jane@acme.com"),
    });

    const reply = await lastEphemeral(bot);
    expect(reply.ephemeral).toBe(true);
    const text = visibleText(reply);
    expect(text).toContain("jane@acme.com");
    expect(text).toMatch(/https:\/\/app\.decipher\.test\/sessions\/[0-9a-f-]{36}/);
    const buttons = JSON.stringify(reply.blocks);
    expect(buttons).toContain("sessions_more");
    expect(buttons).toContain("session_clicks");
  });

  it("pages with More, and opens a timeline and clicks from a card", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "jane@acme.com");
    const first = await lastEphemeral(bot);
    const firstIds = JSON.stringify(first.blocks).match(/sessions\/[0-9a-f-]{36}/g) ?? ([] as string[]);

    expect((await bot.click(first, "sessions_more")).status).toBe(200);
    const second = await lastEphemeral(bot);
    const secondIds = JSON.stringify(second.blocks).match(/sessions\/[0-9a-f-]{36}/g) ?? ([] as string[]);
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);

    await bot.click(first, "session_timeline");
    const timeline = await lastEphemeral(bot);
    expect(visibleText(timeline).toLowerCase()).toContain("timeline");

    await bot.click(first, "session_clicks");
    const clicks = await lastEphemeral(bot);
    expect(visibleText(clicks)).toMatch(/expire|no screenshots/i);
  });

  it("More says 'page 2' and offers the way back to the first page", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "jane@acme.com");
    const first = await lastEphemeral(bot);
    await bot.click(first, "sessions_more");
    const second = await lastEphemeral(bot);
    expect(visibleText(second)).toContain("page 2");
    await bot.click(second, "sessions_first");
    const back = await lastEphemeral(bot);
    expect(visibleText(back)).not.toMatch(/page \d/);
    expect(JSON.stringify(back.blocks).match(/sessions\/[0-9a-f-]{36}/g)).toEqual(
      JSON.stringify(first.blocks).match(/sessions\/[0-9a-f-]{36}/g),
    );
  });

  it("Timeline, Clicks and Screenshots name the session: who, when, and a link", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "jane@acme.com");
    const cards = await lastEphemeral(bot);
    for (const action of ["session_timeline", "session_clicks"]) {
      await bot.click(cards, action);
      const text = visibleText(await lastEphemeral(bot));
      expect(text).toMatch(
        /<https:\/\/app\.decipher\.test\/sessions\/[0-9a-f-]{36}\|jane@acme\.com>\*'s session · /,
      );
      expect(text).toMatch(/<!date\^\d+\^/);
    }
  });

  it("a refused Share says how to make sharing work, not how to subscribe", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "jane@acme.com");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "not_in_channel" });
    await bot.click(await lastEphemeral(bot), "session_share");
    const answer = visibleText(await lastEphemeral(bot));
    expect(answer).toMatch(
      /Could not share: I am not in this channel\. Invite me with `\/invite @Decipher`, then click Share again\./,
    );
    expect(answer).not.toMatch(/subscrib/i);
  });

  it("shares a card into the channel, attributed to who shared it", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "jane@acme.com");
    await bot.click(await lastEphemeral(bot), "session_share", { userId: "U0BOB" });
    const posted = (await bot.messages("C0ALERTS")).filter((m) => !m.ephemeral);
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] as StoredMessage)).toContain("<@U0BOB>");
  });

  it("answers bad input with usage and an example, without calling Decipher", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = await bot.command("/sessions", "not-an-email");
    const body = JSON.parse(ack.body);
    expect(body.response_type).toBe("ephemeral");
    expect(visibleText(body)).toMatch(/\/sessions .*@/);
  });

  it("says plainly when there are no sessions", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/sessions", "nobody@nowhere.example");
    expect(visibleText(await lastEphemeral(bot))).toMatch(/no sessions/i);
  });

  it("turns a rejected API key into a sentence, never a stack trace", async () => {
    const bot = createBot({ apiKey: "dcp_live_revoked" });
    await bot.command("/sessions", "jane@acme.com");
    const text = visibleText(await lastEphemeral(bot));
    expect(text).toContain("API key was rejected");
    expect(text).not.toMatch(/at .*\.ts:\d+|Error:/);
    expect(text).not.toContain("dcp_live_revoked");
  });
});
