import { readContent } from "./content.ts";
import { teamOf } from "./event-payloads.ts";
import { addMessage, botMessage, findMessage, resolveChannel, toSlackMessage } from "./messages.ts";
import {
  buildBlockActionsBody,
  buildBlockActionsPayload,
  buildSlashCommandBody,
  elementAction,
  matchingElements,
  newTriggerId,
} from "./payloads.ts";
import type { ResponseUrls } from "./response-urls.ts";
import { SLACKBOT_USER_ID } from "./seed.ts";
import { signSlackRequest } from "./sign.ts";
import type { Workspace } from "./workspaces.ts";

// Sending a user's slash command or button click to the bot, signed like Slack signs it, and
// doing what Slack does with the bot's immediate answer.

/** Slack shows "operation_timeout" when the app takes longer than this to acknowledge. */
export const ACK_DEADLINE_MS = 3000;
/** We still wait this long so a slow first request under `wrangler dev` does not vanish. */
const GIVE_UP_MS = 30_000;

export type DeliveryTarget = { botUrl: string; signingSecret: string };

export type Delivery = {
  status: number;
  body: unknown;
  responseUrl: string;
  elapsedMs: number;
  /** Slack's own verdict on the ack: ok, or the error it shows the user. */
  outcome: "ok" | "operation_timeout" | "dispatch_failed";
};

export type DeliveryError = { error: string; status: 400 | 404 };

type Deps = {
  ws: Workspace;
  responseUrls: ResponseUrls;
  /** Absolute base for response URLs, e.g. "http://127.0.0.1:8790". */
  origin: string;
  nextTs: () => string;
  fetch?: typeof fetch;
};

/** Signs and POSTs one request to the app; never throws (status 0 when unreachable). */
export async function post(
  target: DeliveryTarget,
  body: string,
  fetchFn: typeof fetch,
  contentType = "application/x-www-form-urlencoded",
  extraHeaders: Record<string, string> = {},
) {
  const headers = await signSlackRequest(target.signingSecret, body);
  const started = Date.now();
  try {
    const res = await fetchFn(target.botUrl, {
      method: "POST",
      headers: {
        "Content-Type": contentType,
        "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
        ...extraHeaders,
        ...headers,
      },
      body,
      signal: AbortSignal.timeout(GIVE_UP_MS),
    });
    const text = await res.text();
    const type = res.headers.get("content-type") ?? "";
    let parsed: unknown = text;
    if (type.includes("json") && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed, elapsedMs: Date.now() - started };
  } catch (e) {
    return { status: 0, body: String(e), elapsedMs: Date.now() - started };
  }
}

export function outcomeOf(status: number, elapsedMs: number): Delivery["outcome"] {
  if (status < 200 || status > 299) return "dispatch_failed";
  return elapsedMs > ACK_DEADLINE_MS ? "operation_timeout" : "ok";
}

function slackbotNotice(deps: Deps, channel: string, user: string, text: string) {
  addMessage(deps.ws, {
    ts: deps.nextTs(),
    channel,
    text,
    user: SLACKBOT_USER_ID,
    ephemeral: true,
    visibleTo: user,
    via: "slackbot",
  });
}

/** A non-empty ack to a slash command is shown like a response_url post (ephemeral by default). */
function showCommandAck(deps: Deps, channel: string, user: string, body: unknown, responseUrlId: string) {
  const params = typeof body === "string" ? { text: body } : (body as Record<string, unknown>);
  if (!params || (typeof body === "string" && body.trim() === "")) return;
  const content = readContent(params, true);
  if (!content.ok) return;
  // The answer already replaced it: a progress message must not appear after its answer.
  if (deps.responseUrls.answered(responseUrlId)) return;
  const inChannel = params.response_type === "in_channel";
  const ts = deps.nextTs();
  // A later replace_original through the command's response URL replaces this ack.
  deps.responseUrls.bindCommandAck(responseUrlId, ts);
  addMessage(
    deps.ws,
    botMessage({
      ts,
      channel,
      text: content.text ?? "",
      blocks: content.blocks,
      ephemeral: !inChannel,
      visibleTo: inChannel ? undefined : user,
      via: "command_ack",
    }),
  );
}

export type CommandRequest = { command: string; text: string; channelId: string; userId: string };

export async function deliverCommand(
  deps: Deps,
  target: DeliveryTarget,
  req: CommandRequest,
): Promise<Delivery | DeliveryError> {
  const channel = resolveChannel(deps.ws, req.channelId);
  if (!channel) return { error: "channel_not_found", status: 404 };
  const user = deps.ws.users.get(req.userId);
  if (!user || user.isBot) return { error: "user_not_found", status: 404 };
  if (!req.command) return { error: "command is required", status: 400 };
  const id = deps.responseUrls.create({ workspace: deps.ws, channel: channel.id, user: user.id });
  const responseUrl = `${deps.origin}/response/${id}`;
  const body = buildSlashCommandBody({
    team: { ...deps.ws, teamId: teamOf(deps.ws, user) },
    channel,
    user,
    command: req.command,
    text: req.text ?? "",
    responseUrl,
    triggerId: newTriggerId(),
  });
  const res = await post(target, body, deps.fetch ?? fetch);
  const outcome = outcomeOf(res.status, res.elapsedMs);
  if (outcome === "ok") showCommandAck(deps, channel.id, user.id, res.body, id);
  else {
    const name = req.command.startsWith("/") ? req.command : `/${req.command}`;
    slackbotNotice(deps, channel.id, user.id, `${name} failed with the error "${outcome}"`);
  }
  return { ...res, responseUrl, outcome };
}

export type ActionRequest = {
  channelId: string;
  userId: string;
  messageTs: string;
  actionId: string;
  /** The clicked element's block: Slack always sends it; needed when blocks share an action_id. */
  blockId?: string;
  /** A button's own value, as Slack sends it. */
  value?: string;
  /** For a `static_select`: the value of the option the person chose. */
  selectedValue?: string;
  /** Reuse an existing response URL instead of minting a new one. */
  responseUrl?: string;
};

export async function deliverAction(
  deps: Deps,
  target: DeliveryTarget,
  req: ActionRequest,
): Promise<Delivery | DeliveryError> {
  const channel = resolveChannel(deps.ws, req.channelId);
  if (!channel) return { error: "channel_not_found", status: 404 };
  const user = deps.ws.users.get(req.userId);
  if (!user || user.isBot) return { error: "user_not_found", status: 404 };
  const message = findMessage(deps.ws, channel.id, req.messageTs);
  if (!message || (message.ephemeral && message.visibleTo !== user.id)) {
    return { error: "message_not_found", status: 404 };
  }
  // Buttons of the message itself, or of an app's unfurl under it.
  const query = { actionId: req.actionId, blockId: req.blockId, value: req.value };
  const matches = [message, ...Object.values(message.unfurls ?? {})].flatMap((m) =>
    matchingElements(m, query),
  );
  const button = matches[0];
  if (!button) return { error: "button_not_found", status: 404 };
  // Slack knows which element was clicked; a click that could be any of several is a caller's bug.
  if (matches.length > 1) {
    return {
      error: `ambiguous_action: ${matches.length} elements have action_id ${req.actionId}; give the clicked one's blockId`,
      status: 400,
    };
  }
  // Checked before a response URL is minted: a refused choice leaves nothing behind.
  const check = elementAction(button, "0", req.selectedValue);
  if (!check.ok) return { error: check.error, status: 400 };
  const responseUrl =
    req.responseUrl ??
    `${deps.origin}/response/${deps.responseUrls.create({
      workspace: deps.ws,
      channel: channel.id,
      user: user.id,
      sourceTs: message.ts,
    })}`;
  const built = buildBlockActionsPayload({
    team: { ...deps.ws, teamId: teamOf(deps.ws, user) },
    channel,
    user,
    message,
    button,
    responseUrl,
    triggerId: newTriggerId(),
    actionTs: deps.nextTs(),
    slackMessage: toSlackMessage(deps.ws, message),
    selectedValue: req.selectedValue,
  });
  if (!built.ok) return { error: built.error, status: 400 };
  const res = await post(target, buildBlockActionsBody(built.payload), deps.fetch ?? fetch);
  const outcome = outcomeOf(res.status, res.elapsedMs);
  // Slack ignores an interaction ack's body; a slow or failed ack only shows a warning icon.
  return { ...res, responseUrl, outcome };
}
