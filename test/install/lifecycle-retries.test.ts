import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { envelope, eventsOf } from "../helpers/events.ts";
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
