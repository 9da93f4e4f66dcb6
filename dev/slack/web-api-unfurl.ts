import { isRecord } from "../../src/util/checks.ts";
import { type Params, stringParam } from "./api-params.ts";
import { validateBlocks } from "./block-limits.ts";
import { slackError } from "./content.ts";
import { findMessage, resolveChannel, withBlockIds } from "./messages.ts";
import type { MethodBody, MethodContext } from "./method-types.ts";
import type { Block, StoredMessage } from "./standin-types.ts";
import type { Workspace } from "./workspaces.ts";

// chat.unfurl: the app's previews for links Slack told it about in `link_shared`. Slack
// names the message by channel + ts, or (while it is still in the composer) by unfurl_id +
// source; each URL must be one the message shared, and each preview's blocks must pass the
// same checks as a message's.

const SOURCES = new Set(["composer", "conversations_history"]);

/** The unfurl_id the stand-in gives a delivered message: stable, derived from its place. */
export const unfurlIdOf = (m: StoredMessage) => `UF${m.channel}.${m.ts}`;

function target(ws: Workspace, params: Params): StoredMessage | MethodBody {
  const unfurlId = stringParam(params, "unfurl_id");
  if (unfurlId) {
    if (!SOURCES.has(stringParam(params, "source") ?? "")) return slackError("invalid_source");
    const m = ws.messages.find((x) => x.links && unfurlIdOf(x) === unfurlId);
    return m ?? slackError("invalid_unfurl_id");
  }
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  const ts = stringParam(params, "ts");
  if (!ts) return slackError("missing_ts");
  return findMessage(ws, channel.id, ts) ?? slackError("cannot_find_message");
}

function readUnfurls(params: Params): { urls: Record<string, unknown> } | MethodBody {
  let value = params.unfurls;
  if (value === undefined || value === "") return slackError("missing_unfurls");
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return slackError("invalid_unfurls_format");
    }
  }
  return isRecord(value) && Object.keys(value).length > 0
    ? { urls: value }
    : slackError("invalid_unfurls_format");
}

export const chatUnfurl = ({ ws, params }: MethodContext): MethodBody => {
  const message = target(ws, params);
  if ("ok" in message) return message;
  const read = readUnfurls(params);
  if ("ok" in read) return read;
  const unfurls = read.urls;
  const stored: Record<string, { blocks: Block[] }> = {};
  const problems: string[] = [];
  for (const [url, unfurl] of Object.entries(unfurls)) {
    if (!message.links?.includes(url)) return slackError("cannot_unfurl_url");
    if (!isRecord(unfurl) || !Array.isArray(unfurl.blocks)) return slackError("invalid_unfurls_format");
    problems.push(...validateBlocks(unfurl.blocks, 50, `/unfurls/${encodeURIComponent(url)}/blocks`));
    stored[url] = { blocks: withBlockIds(ws, unfurl.blocks as Block[]) ?? [] };
  }
  if (problems.length > 0) {
    return slackError("invalid_blocks", {
      errors: problems.map((p) => p.replace(/^\[ERROR\] /, "")),
      response_metadata: { messages: problems },
    });
  }
  message.unfurls = { ...message.unfurls, ...stored };
  return { ok: true };
};
