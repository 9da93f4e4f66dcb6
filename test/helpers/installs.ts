import { env, runInDurableObject } from "cloudflare:test";
import { type Bot, createBot, newOrg, standInUrl } from "../../dev/in-workerd/bot.ts";
import { eventsOf } from "./events.ts";

export type Flow = { start: Response; page: string; cookie: string; authorizeUrl: string };

/**
 * A Slack workspace (the stand-in's, named by its seed token) and the Worker in multi-workspace
 * mode (the "multi" project of vitest.config.ts). `apiKey` is its Decipher organization's key, connected only when a test does so.
 */
export function tenantBot(apiKey: string, seedToken = `xoxb-seed-${crypto.randomUUID()}`): Bot {
  // Its SLACK_BOT_TOKEN and DECIPHER_API_KEY bindings are ignored in this mode (src/config.ts);
  // they stay so the secret watch looks for both in everything logged.
  return createBot({ apiKey, botToken: seedToken });
}

/** GET /slack/install: the page, its Add to Slack link and the state cookie. */
export async function startInstall(bot: Bot): Promise<Flow> {
  const start = await bot.send(new Request("http://bot.test/slack/install"));
  const authorizeUrl = /id="add-to-slack" href="([^"]+)"/.exec(start.body)?.[1]?.replace(/&amp;/g, "&") ?? "";
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return {
    start: new Response(start.body, { status: start.status }),
    page: start.body,
    cookie,
    authorizeUrl,
  };
}

/** The person's choice on Slack's consent page: where Slack sends the browser back. */
export async function decide(
  flow: Flow,
  seedToken: string,
  decision: "allow" | "cancel" = "allow",
  userId = "U0ALICE",
): Promise<string> {
  const consent = new URL(flow.authorizeUrl);
  const q = new URLSearchParams(consent.search);
  q.set("decision", decision);
  q.set("workspace", seedToken);
  q.set("user", userId);
  const res = await fetch(`${standInUrl}/oauth/v2/decide?${q}`, { redirect: "manual" });
  return res.headers.get("location") ?? "";
}

/** Slack's redirect back, with the browser's cookie. */
export function finish(bot: Bot, location: string, cookie: string) {
  const url = new URL(location);
  return bot.send(new Request(`http://bot.test${url.pathname}${url.search}`, { headers: { cookie } }));
}

/** The whole Add to Slack flow for the bot's workspace: the success page. */
export async function install(bot: Bot, userId = "U0ALICE") {
  const flow = await startInstall(bot);
  return finish(bot, await decide(flow, bot.botToken, "allow", userId), flow.cookie);
}

/** An installed workspace with its own Decipher organization connected (through the Home tab's form). */
export async function installedWithKey(template: "acme" | "globex" = "acme") {
  const apiKey = await newOrg(template);
  const bot = tenantBot(apiKey);
  await install(bot);
  await connectKey(bot, apiKey);
  return { bot, apiKey };
}

/** The WorkspaceObject of a team, for tests that look inside. */
export const workspaceOf = (teamId: string) =>
  env.WORKSPACES.get(env.WORKSPACES.idFromName(`team:${teamId}`));

/** Whether the team's WorkspaceObject holds an installation (read from its storage). */
export const isInstalled = (teamId: string) =>
  runInDurableObject(
    workspaceOf(teamId),
    async (_object, state) => (await state.storage.get("install")) !== undefined,
  );

/** Home tab → Connect Decipher → paste the key → Save, as the installer (U0ALICE). */
export async function connectKey(bot: Bot, apiKey: string, userId = "U0ALICE") {
  const events = eventsOf(bot);
  await events.openHome(userId);
  await events.clickInHome("decipher_connect_open", userId);
  return events.submitModal({ key: apiKey }, userId);
}
