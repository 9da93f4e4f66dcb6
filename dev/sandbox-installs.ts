import { type PageExamples, workspaceKey } from "./slack/page/routes.ts";
import type { Stack } from "./stack.ts";

// `WORKSPACES=2 npm start`: each workspace is installed the way a person installs it — the
// Add to Slack page, Slack's consent page, the redirect back with the state cookie — then
// connects its own Decipher organization in the Home tab's form, and subscribes a channel.

export type SandboxWorkspace = { botToken: string; label: string; apiKey: string; commands: string[] };

async function json<T>(res: Response, what: string): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as T & { ok?: boolean; error?: string };
  if (!res.ok || body.ok === false) throw new Error(`${what}: ${body.error ?? res.status}`);
  return body;
}

async function standIn<T>(stack: Stack, path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${stack.slackUrl}/__slack${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return json<T>(res, path);
}

/** Add to Slack, as a browser goes through it; answers the success page's title. */
export async function installThroughFlow(stack: Stack, ws: SandboxWorkspace): Promise<string> {
  const start = await fetch(`${stack.botUrl}/slack/install`);
  const page = await start.text();
  const link = /id="add-to-slack" href="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&");
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  if (!link) throw new Error(`no Add to Slack button on ${stack.botUrl}/slack/install`);
  const consent = new URL(link);
  const choice = new URLSearchParams(consent.search);
  choice.set("decision", "allow");
  choice.set("workspace", ws.botToken);
  const approved = await fetch(`${stack.slackUrl}/oauth/v2/decide?${choice}`, { redirect: "manual" });
  const back = approved.headers.get("location") ?? "";
  const done = await fetch(back, { headers: { cookie } });
  const title = /<h1>([^<]*)<\/h1>/.exec(await done.text())?.[1] ?? "";
  if (done.status !== 200) throw new Error(`install of ${ws.label} failed: ${title}`);
  return title;
}

/** Home tab → Connect Decipher → paste the organization's key → Save, as the installer. */
export async function connectDecipher(stack: Stack, ws: SandboxWorkspace, userId = "U0ALICE") {
  await standIn(stack, "/home-opened", { botToken: ws.botToken, userId });
  await standIn(stack, "/view-actions", { botToken: ws.botToken, userId, actionId: "decipher_connect_open" });
  // The bot opens the form after acknowledging the click: wait for it, as a person would.
  let submitted: { errors?: Record<string, string> } | null = null;
  for (let attempt = 0; !submitted; attempt++) {
    try {
      submitted = await standIn<{ errors?: Record<string, string> }>(stack, "/view-submissions", {
        botToken: ws.botToken,
        userId,
        values: { key: ws.apiKey },
      });
    } catch (error) {
      if (attempt >= 40 || !String(error).includes("view_not_found")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  if (submitted.errors)
    throw new Error(`connecting Decipher in ${ws.label}: ${Object.values(submitted.errors)[0]}`);
}

export async function subscribe(stack: Stack, ws: SandboxWorkspace, channelId: string) {
  for (const text of ws.commands) {
    const done = await standIn<{ outcome?: string }>(stack, "/commands", {
      botToken: ws.botToken,
      command: "/decipher",
      text,
      channelId,
      userId: "U0ALICE",
    });
    if (done.outcome !== "ok") throw new Error(`/decipher ${text} in ${ws.label} → ${done.outcome}`);
  }
}

/** The team id Slack gives the workspace (auth.test's). */
async function teamIdOf(stack: Stack, ws: SandboxWorkspace): Promise<string> {
  const res = await fetch(`${stack.slackUrl}/__slack/workspace?botToken=${encodeURIComponent(ws.botToken)}`);
  return (await json<{ team_id: string }>(res, "/__slack/workspace")).team_id;
}

/** Someone of the other organization in a channel shared with it, and what to try as them. */
export const SHARED_PERSON = { userId: "U0HANK", name: "hank" };

/**
 * Slack Connect: `host`'s #alerts is shared with `guest`'s organization, Hank of it is in the
 * channel (the page's "Viewing as" offers him), and the host's admin subscribes it to `testId`,
 * whose reply says the channel is shared. Whatever Hank asks the host's app there gets one
 * sentence: the data is for the host's own members (src/handlers/outsiders.ts).
 */
export async function shareAlerts(
  stack: Stack,
  host: SandboxWorkspace,
  guest: SandboxWorkspace,
  testId: number,
) {
  const channelId = "C0ALERTS";
  await standIn(stack, "/channels/share", { botToken: host.botToken, channelId, shared: true });
  await standIn(stack, "/users", {
    botToken: host.botToken,
    ...SHARED_PERSON,
    teamId: await teamIdOf(stack, guest),
    channels: [channelId],
  });
  await subscribe(stack, { ...host, commands: [`subscribe test ${testId}`] }, channelId);
}

/** The second workspace on the consent page. */
export const offer = (stack: Stack, ws: SandboxWorkspace) =>
  standIn(stack, "/oauth/offer", { botToken: ws.botToken, label: ws.label });

/** The sandbox page's workspace switcher offers it, with its own examples. */
export async function registerOnPage(stack: Stack, ws: SandboxWorkspace, examples: PageExamples) {
  const res = await fetch(`${stack.slackUrl}/__sandbox/workspaces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ botToken: ws.botToken, label: ws.label, examples }),
  });
  await json(res, "/__sandbox/workspaces");
}

/** The sandbox page showing a workspace: named by its label's key, never by its bot token. */
export const workspacePageUrl = (stack: Pick<Stack, "pageUrl">, ws: SandboxWorkspace, channelId: string) =>
  `${stack.pageUrl}?ws=${encodeURIComponent(workspaceKey(ws.label))}#${channelId}`;
