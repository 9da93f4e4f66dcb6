import { describe, expect, it } from "vitest";
import { deliveredTo, type Envelope, eventsOf } from "../helpers/events.ts";
import { installedWithKey } from "../helpers/installs.ts";

/**
 * A channel shared with another organization (Slack Connect). Slack delivers an event there to
 * the installation named in `authorizations`, and puts in `team_id` the workspace the event
 * came from, which may be the other organization's: java-slack-sdk's EventInSharedChannelsTest
 * (bolt/src/test/java/test_locally/app/EventInSharedChannelsTest.java, its `messagePayload`)
 * has `"team_id": "T_SOURCE"`, `authorizations[0].team_id` "T_INSTALLED" and
 * `"event_context": "1-message-T_SOURCE-C111"`, and its bolt app finds the bot of T_INSTALLED.
 */
const OTHER_ORG_TEAM = "T0OTHERORG";

/** An envelope as Slack sends it from a shared channel, when someone of the other organization acted. */
function fromTheOtherOrg(sent: Envelope, installedTeam: string): Envelope {
  return {
    ...sent,
    team_id: OTHER_ORG_TEAM,
    authorizations: deliveredTo(installedTeam),
    is_ext_shared_channel: true,
    event_context: `1-${sent.event.type}-${OTHER_ORG_TEAM}-C0ALERTS`,
    event: { ...sent.event, user_team: OTHER_ORG_TEAM },
  };
}

describe("a shared channel, when someone of the other organization acts (multi-workspace mode)", () => {
  it("a mention of the app there gets its answer from the installed workspace's app", async () => {
    const { bot } = await installedWithKey();
    const events = eventsOf(bot);
    const { message, events: sent } = await events.post("C0ALERTS", "@Decipher help");
    const mention = sent.find((e) => e.event.type === "app_mention");
    if (!mention) throw new Error("the stand-in sent no app_mention");
    const ack = await events.send(fromTheOtherOrg(mention, await bot.team()));
    expect([ack.status, ack.body]).toEqual([200, ""]);
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts === message.ts);
    expect(replies).toHaveLength(1);
  });

  it("a Decipher link posted there is unfurled by the installed workspace's app", async () => {
    const { bot } = await installedWithKey();
    const events = eventsOf(bot);
    const { events: sent } = await events.post("C0ALERTS", "https://app.decipher.test/tests/101");
    const shared = sent.find((e) => e.event.type === "link_shared");
    if (!shared) throw new Error("the stand-in sent no link_shared");
    const ack = await events.send(fromTheOtherOrg(shared, await bot.team()));
    expect([ack.status, ack.body]).toEqual([200, ""]);
    const unfurls = (await bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(unfurls).toHaveLength(1);
  });
});

describe("two organizations that both installed the app, sharing a channel (review15)", () => {
  // The event goes to the installation named in `authorizations` (B's), but its event gate,
  // whose 60 s lookup cache unfurls read from (src/handlers/events/register.ts, `once`), is
  // still the one of `team_id` (A's, src/handlers/events/event-envelope.ts eventTeam).
  it("a link one of A's people posts there, unfurled by B's app with B's Decipher data, is not unfurled by A's app in A's own channel from that data", async () => {
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
    expect(JSON.stringify(byB)).toContain("Onboarding wizard");

    // Within the minute, in A's own channel, A's installation (Acme's key, which reads no test 201).
    const { events: own } = await eventsOf(a.bot).post("C0ALERTS", link);
    const ownShared = own.find((e) => e.event.type === "link_shared");
    if (!ownShared) throw new Error("the stand-in sent no link_shared");
    expect((await eventsOf(a.bot).send(ownShared)).status).toBe(200);
    const byA = (await a.bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(JSON.stringify(byA)).not.toContain("Onboarding wizard");
  });
});
