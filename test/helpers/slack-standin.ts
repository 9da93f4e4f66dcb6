import { standInUrl } from "../../dev/in-workerd/bot.ts";

/**
 * A `response_url` minted by the Slack stand-in for one channel and user, as Slack puts into
 * every slash command and button click. Tests use it instead of an address nobody listens on:
 * a reply sent to a closed port leaves workerd printing "Network connection lost" as an
 * uncaught exception, even though the bot handles the failure.
 */
export async function mintResponseUrl(
  botToken: string,
  channelId: string,
  userId: string,
  /** The message a button click came from, for `replace_original`. */
  messageTs?: string,
): Promise<string> {
  const res = await fetch(`${standInUrl}/__slack/response-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ botToken, channelId, userId, ...(messageTs ? { messageTs } : {}) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`the stand-in answered ${res.status} minting a response_url: ${text}`);
  return (JSON.parse(text) as { responseUrl: string }).responseUrl;
}

/** A `response_url` on the stand-in that it never minted: it answers 404, like an expired one. */
export const unknownResponseUrl = `${standInUrl}/response/never-minted`;
