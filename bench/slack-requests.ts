import { slackAdmin } from "../dev/slack/admin-client.ts";
import { clickFor, madeUpControl, slashCommandFor } from "../dev/slack/payloads.ts";
import { signSlackRequest } from "../dev/slack/sign.ts";

/** Requests exactly as Slack sends them to the bot: form-encoded, signed, fresh timestamp. */

export type Target = { botUrl: string; slackUrl: string; signingSecret: string; botToken: string };

/** A real `response_url` from the stand-in (5 uses each), so the lazy reply has somewhere to go. */
const mintResponseUrl = (t: Target, channelId: string, userId = "U0ALICE") =>
  slackAdmin(t.slackUrl).responseUrl(t.botToken, channelId, userId);

/**
 * The workspace's team, as auth.test names it and Slack puts it in every request: a request
 * naming another team is from another organization, and gets only a refusal (src/handlers/outsiders.ts).
 */
const teams = new Map<string, Promise<string>>();
function teamOf(t: Target): Promise<string> {
  let team = teams.get(t.botToken);
  if (!team) {
    team = fetch(`${t.slackUrl.replace(/\/$/, "")}/api/auth.test`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.botToken}` },
    })
      .then((res) => res.json() as Promise<{ team_id?: string }>)
      .then((body) => body.team_id ?? "T0TEST");
    teams.set(t.botToken, team);
  }
  return team;
}

async function signed(t: Target, body: string): Promise<Request> {
  const headers = await signSlackRequest(t.signingSecret, body, Math.floor(Date.now() / 1000));
  return new Request(`${t.botUrl}/slack/events`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
}

export async function commandRequest(t: Target, command: string, text: string, channelId = "C0ALERTS") {
  const responseUrl = await mintResponseUrl(t, channelId);
  return signed(
    t,
    slashCommandFor({ teamId: await teamOf(t), channelId, userId: "U0ALICE", command, text, responseUrl }),
  );
}

/** A click on a session card's **Timeline** button (action `session_timeline`, value = session id). */
export async function timelineClickRequest(t: Target, sessionId: string, channelId = "C0ALERTS") {
  const body = clickFor({
    teamId: await teamOf(t),
    channelId,
    userId: "U0ALICE",
    responseUrl: await mintResponseUrl(t, channelId),
    messageTs: "1732200000.000100",
    ephemeral: true,
    button: madeUpControl("session_timeline", sessionId),
  });
  return signed(t, body);
}
