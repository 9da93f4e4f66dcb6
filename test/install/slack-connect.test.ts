import { describe, expect, it } from "vitest";
import { emulator, visibleText } from "../../dev/in-workerd/bot.ts";
import { OUTSIDER_REFUSAL } from "../../src/messages/outsiders.ts";
import { deliveredTo, eventsOf, fromAnotherOrg } from "../helpers/events.ts";
import { installedWithKey } from "../helpers/installs.ts";

/**
 * A channel shared with another organization (Slack Connect), in multi-workspace mode: Slack
 * delivers an event there to the installation named in `authorizations`, and names in
 * `team_id` (and a mention's `user_team`) the workspace of the person who acted
 * (test/helpers/events.ts fromAnotherOrg). That installation's Decipher data is for its own
 * members only (src/handlers/outsiders.ts): until issue #36 these tests asserted the opposite,
 * a help answer and an unfurl of /tests/101 for the other organization's person.
 */
describe("a shared channel, when someone of the other organization acts (multi-workspace mode)", () => {
  it("`@Decipher sessions <email>` there gets one reply in the thread saying why, with no session and nothing they typed", async () => {
    const { bot, apiKey } = await installedWithKey();
    const events = eventsOf(bot);
    const { message, events: sent } = await events.post("C0ALERTS", "@Decipher sessions jane@acme.com");
    const mention = sent.find((e) => e.event.type === "app_mention");
    if (!mention) throw new Error("the stand-in sent no app_mention");
    await emulator.org(apiKey).clearRequests();
    const ack = await events.send(fromAnotherOrg(mention, await bot.team()));
    expect([ack.status, ack.body]).toEqual([200, ""]);
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts === message.ts);
    expect(replies.map((m) => m.text)).toEqual([OUTSIDER_REFUSAL]);
    expect(visibleText(replies[0] ?? {})).not.toContain("jane@acme.com");
    expect(await emulator.org(apiKey).requestTotal()).toBe(0);
  });

  it("a Decipher link posted there is not unfurled, and nothing is read for it", async () => {
    const { bot, apiKey } = await installedWithKey();
    const events = eventsOf(bot);
    const { events: sent } = await events.post("C0ALERTS", "https://app.decipher.test/tests/101");
    const shared = sent.find((e) => e.event.type === "link_shared");
    if (!shared) throw new Error("the stand-in sent no link_shared");
    await emulator.org(apiKey).clearRequests();
    const ack = await events.send(fromAnotherOrg(shared, await bot.team()));
    expect([ack.status, ack.body]).toEqual([200, ""]);
    const unfurls = (await bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(unfurls).toHaveLength(0);
    expect(await emulator.org(apiKey).requestTotal()).toBe(0);
  });

  it("the workspace's own members in that channel are answered as before", async () => {
    const { bot } = await installedWithKey();
    const events = eventsOf(bot);
    const { message } = await events.say("C0ALERTS", "@Decipher sessions jane@acme.com");
    await events.say("C0ALERTS", "https://app.decipher.test/tests/101");
    const [reply] = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts === message.ts);
    expect(visibleText(reply ?? {})).toContain("jane@acme.com");
    const unfurls = (await bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(unfurls).toHaveLength(1);
  });
});

describe("two organizations that both installed the app, sharing a channel (review15)", () => {
  // The event goes to the installation named in `authorizations` (B's), but its event gate,
  // whose 60 s lookup cache unfurls read from (src/handlers/events/register.ts, `once`), is
  // still the one of `team_id` (A's, src/handlers/events/event-envelope.ts eventTeam).
  // Since issue #36, B's app shows A's people none of B's data: the link is not unfurled by B's
  // app at all (before, it unfurled it with B's test 201).
  it("a link one of A's people posts there is not unfurled by B's app, nor by A's app in A's own channel from B's data", async () => {
    const a = await installedWithKey("acme");
    const b = await installedWithKey("globex");
    const teamA = await a.bot.team();
    const teamB = await b.bot.team();
    const link = "https://app.decipher.test/tests/201"; // Globex's "Onboarding wizard"

    // In the shared channel: posted by someone of A, delivered to B's installation.
    const { events: sent } = await eventsOf(a.bot).post("C0ALERTS", link);
    const shared = sent.find((e) => e.event.type === "link_shared");
    if (!shared) throw new Error("the stand-in sent no link_shared");
    const viaB = {
      ...shared,
      team_id: teamA,
      authorizations: deliveredTo(teamB),
      is_ext_shared_channel: true,
    };
    expect((await eventsOf(b.bot).send(viaB)).status).toBe(200);
    const byB = (await b.bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(byB).toEqual([]);

    // Within the minute, in A's own channel, A's installation (Acme's key, which reads no test 201).
    const { events: own } = await eventsOf(a.bot).post("C0ALERTS", link);
    const ownShared = own.find((e) => e.event.type === "link_shared");
    if (!ownShared) throw new Error("the stand-in sent no link_shared");
    expect((await eventsOf(a.bot).send(ownShared)).status).toBe(200);
    const byA = (await a.bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(JSON.stringify(byA)).not.toContain("Onboarding wizard");
  });
});
