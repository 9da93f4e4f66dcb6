import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { deliveredTo, envelope, eventsOf } from "../helpers/events.ts";
import { connectKey, install, installedWithKey, isInstalled } from "../helpers/installs.ts";

/**
 * Slack delivers an event at least once: when the answer to a delivery does not reach it, it
 * sends the same event again (same event_id and event_time, `X-Slack-Retry-Num`), up to three
 * times over some five minutes. An uninstall is acted on at once; its late copy must not undo
 * what happened since.
 */
describe("a retried app_uninstalled (multi-workspace mode)", () => {
  it("arriving after the workspace installed the app again leaves the new install, its key and subscriptions", async () => {
    const { bot, apiKey } = await installedWithKey();
    const team = await bot.team();
    const events = eventsOf(bot);
    const uninstalled = envelope(team, { type: "app_uninstalled" });
    await events.send(uninstalled);
    expect(await isInstalled(team)).toBe(false);

    // A minute later an admin adds the app again, connects Decipher and subscribes a channel.
    await install(bot);
    await connectKey(bot, apiKey);
    await bot.command("/decipher", "subscribe test 101");
    const listed = async () => visibleText(JSON.parse((await bot.command("/decipher", "list")).body));
    expect(await listed()).toContain("101");

    // Slack's retry of the first delivery, whose answer it did not get.
    const retry = await events.send(uninstalled, {
      "X-Slack-Retry-Num": "1",
      "X-Slack-Retry-Reason": "http_timeout",
    });
    expect(retry.status).toBe(200);
    expect(await isInstalled(team)).toBe(true);
    expect(await listed()).toContain("101");
  });
});

describe("an app_uninstalled whose first delivery never reached the bot (review15)", () => {
  it("arriving (as Slack's retry) after the workspace installed the app again over the install it never purged leaves the new install", async () => {
    const { bot } = await installedWithKey();
    const team = await bot.team();
    const events = eventsOf(bot);
    // An admin removes the app; Slack's first delivery is lost (the Worker was being deployed),
    // so the bot still holds the old install.
    const uninstalled = envelope(team, { type: "app_uninstalled" });
    // Slack retries after a minute and again after five: in between, the admin adds the app
    // again, in a later second than the uninstall.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
    await install(bot);
    expect(await isInstalled(team)).toBe(true);

    const retry = await events.send(uninstalled, {
      "X-Slack-Retry-Num": "1",
      "X-Slack-Retry-Reason": "http_error",
    });
    expect(retry.status).toBe(200);
    // The install is the admin's second one, made after the uninstall: it stays.
    expect(await isInstalled(team)).toBe(true);
  });
});

describe("a lifecycle event is about the workspace its team_id names (review15)", () => {
  // Slack's event reference: app_uninstalled's "team_id indicates which workspace uninstalled the
  // Slack app"; tokens_revoked: "Use the team_id to identify the associated workspace".
  // `authorizations` holds at most one installation the event is visible to, Slack's pick.
  it("an app_uninstalled of workspace A whose authorizations name workspace B purges A, not B", async () => {
    const a = await installedWithKey();
    const b = await installedWithKey();
    const teamA = await a.bot.team();
    const teamB = await b.bot.team();
    const uninstalled = {
      ...envelope(teamA, { type: "app_uninstalled" }),
      authorizations: deliveredTo(teamB),
    };
    expect((await eventsOf(a.bot).send(uninstalled)).status).toBe(200);
    expect(await isInstalled(teamB)).toBe(true);
    expect(await isInstalled(teamA)).toBe(false);
  });
});
