import { createBot, emulator, newOrg } from "../../dev/in-workerd/bot.ts";

/**
 * A bot with its own emulator organization and Slack workspace, after one `/decipher`
 * command (by default, `#alerts` subscribing to test 101).
 */
export async function subscribedBot(command = "subscribe test 101", channelId = "C0ALERTS") {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  await bot.command("/decipher", command, { channelId });
  return { bot, org: emulator.org(apiKey) };
}
