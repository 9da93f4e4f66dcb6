import type { Params } from "./api-params.ts";
import { readContent, slackError } from "./content.ts";
import {
  addMessage,
  botMessage,
  findMessage,
  removeMessage,
  threadParent,
  withBlockIds,
} from "./messages.ts";
import type { Workspace } from "./workspaces.ts";

// Slack's response_url: good for 5 posts within 30 minutes of the interaction that minted it.
// It posts as the app in the channel where the command ran, ephemeral by default, and for a
// button click it can replace or delete the message that held the button.

export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

export type ResponseUrlTarget = {
  workspace: Workspace;
  channel: string;
  user: string;
  /** The message a clicked button lives in; absent for slash commands. */
  sourceTs?: string;
};

type Entry = ResponseUrlTarget & {
  createdAt: number;
  uses: number;
  /** A slash command's answer arrived with replace_original before its ack was shown. */
  answered?: boolean;
};

export type ResponseUrlReply = { status: number; body: Record<string, unknown> };

export class ResponseUrls {
  #entries = new Map<string, Entry>();
  #counter = 0;
  #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Mint an opaque id; `ageMs` lets tests create an already-old URL instead of waiting 30 min. */
  create(target: ResponseUrlTarget, ageMs = 0): string {
    this.#counter += 1;
    const secret = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    const id = `${target.workspace.teamId}-${this.#counter}-${secret}`;
    this.#entries.set(id, { ...target, createdAt: this.#now() - ageMs, uses: 0 });
    return id;
  }

  /**
   * A slash command's ack became a message: its response URL now replaces that message, as
   * Slack replaces an ephemeral "working on it" ack. Answers false when the answer came first
   * (the ack is then stale and must not be shown after it).
   */
  bindCommandAck(id: string, ts: string): boolean {
    const entry = this.#entries.get(id);
    if (!entry || entry.answered) return false;
    entry.sourceTs = ts;
    return true;
  }

  /** Whether a replace_original answer already arrived for this (slash command) URL. */
  answered(id: string): boolean {
    return this.#entries.get(id)?.answered === true;
  }

  describe(id: string) {
    const e = this.#entries.get(id);
    return e && { uses: e.uses, expiresAt: new Date(e.createdAt + RESPONSE_URL_TTL_MS).toISOString() };
  }

  post(id: string, body: unknown, nextTs: () => string): ResponseUrlReply {
    const entry = this.#entries.get(id);
    if (!entry) return { status: 404, body: slackError("no_service") };
    if (this.#now() - entry.createdAt > RESPONSE_URL_TTL_MS)
      return { status: 404, body: slackError("expired_url") };
    if (entry.uses >= RESPONSE_URL_MAX_USES) return { status: 404, body: slackError("used_url") };
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return { status: 400, body: slackError("invalid_payload") };
    }
    const params = body as Params;
    const reply = apply(entry, params, nextTs);
    if (reply.status === 200) entry.uses += 1;
    if (
      reply.status === 200 &&
      !entry.sourceTs &&
      (params.replace_original === true || params.replace_original === "true")
    )
      entry.answered = true;
    return reply;
  }
}

function apply(entry: Entry, params: Params, nextTs: () => string): ResponseUrlReply {
  const ws = entry.workspace;
  const source = entry.sourceTs ? findMessage(ws, entry.channel, entry.sourceTs) : undefined;
  if (params.delete_original === true || params.delete_original === "true") {
    if (!source) return { status: 404, body: slackError("message_not_found") };
    removeMessage(ws, source);
    return { status: 200, body: { ok: true } };
  }
  const content = readContent(params, true, ws.refusedBlocks);
  if (!content.ok) return { status: 400, body: content.body };
  const replace = params.replace_original === true || params.replace_original === "true";
  if (replace && source) {
    source.text = content.text ?? "";
    source.blocks = withBlockIds(ws, content.blocks);
    // An ephemeral replaced through its response_url shows no "(edited)" mark, as in Slack.
    // Slack's "Modifying messages" guide (docs.slack.dev/messaging/modifying-messages) keeps
    // edits and replacements apart: chat.update edits non-ephemeral messages ("Ephemeral
    // messages can't be updated in this way"), and response_url replaces the original
    // "regardless of whether it was an ephemeral message or not"; no Slack doc gives a replaced
    // ephemeral an edit mark. A channel message replaced this way is marked like a chat.update edit.
    if (source.ephemeral) delete source.edited;
    else source.edited = { user: source.user, ts: nextTs() };
    return { status: 200, body: { ok: true } };
  }
  const inChannel = params.response_type === "in_channel";
  const threadTs =
    typeof params.thread_ts === "string" ? threadParent(ws, entry.channel, params.thread_ts)?.ts : undefined;
  addMessage(
    ws,
    botMessage({
      ts: nextTs(),
      channel: entry.channel,
      threadTs,
      text: content.text ?? "",
      blocks: content.blocks,
      ephemeral: !inChannel,
      visibleTo: inChannel ? undefined : entry.user,
      via: "response_url",
    }),
  );
  return { status: 200, body: { ok: true } };
}
