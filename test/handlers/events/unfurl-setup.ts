import { createBot, emulator, emulatorUrl, newOrg } from "../../../dev/in-workerd/bot.ts";
import { eventsOf } from "../../helpers/events.ts";

/** DECIPHER_APP_URL in vitest.config.ts: the links the bot explains. */
export const APP = "https://app.decipher.test";

export type VendorSession = { id: string; userEmail: string | null; hasTimeline: boolean };

/** A fresh org and bot, plus what a test needs to know of its sessions. */
export async function unfurlBot() {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const org = emulator.org(apiKey);
  const res = await fetch(`${emulatorUrl}/api/v1/sessions?limit=100`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  });
  const sessions = ((await res.json()) as { data: (VendorSession & { duration: number | null })[] }).data;
  // A finished session with a timeline (its clicks carry screenshots).
  const session = sessions.find((s) => s.hasTimeline && s.duration !== null && s.userEmail) as VendorSession;
  await org.clearRequests();
  return { bot, org, events: eventsOf(bot), session, sessions };
}

export type Unfurls = Record<string, { blocks: Array<Record<string, unknown>> }>;

/** Every chat.unfurl the bot made, oldest first. */
export async function unfurlCalls(bot: ReturnType<typeof createBot>) {
  return (await bot.slackCalls())
    .filter((c) => c.method === "chat.unfurl")
    .map((c) => c as unknown as { ok: boolean; error?: string; params: { unfurls: Unfurls } });
}
