/**
 * The one client of the stand-in's inspection API (`/__slack/…`, dev/slack/README.md), for the
 * test bot, the test helpers and the benchmarks, like dev/emulator/control-client.ts for the
 * emulator. Every call names its workspace by bot token. An answer other than 2xx throws with
 * the route and the stand-in's own error body.
 */

import type { FaultKind, UserRole } from "./standin-types.ts";

export type SlackAdmin = ReturnType<typeof slackAdmin>;

export function slackAdmin(standInUrl: string) {
  const root = `${standInUrl.replace(/\/$/, "")}/__slack`;

  async function call<T>(method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`stand-in ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  const query = (fields: Record<string, string | undefined>) =>
    new URLSearchParams(
      Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ).toString();

  return {
    call,
    /**
     * A `response_url` for one channel and user, as Slack puts into every slash command and
     * click; `messageTs` is the message a click came from, for `replace_original`. Tests use
     * one rather than an address nobody listens on: a reply sent to a closed port leaves workerd
     * printing "Network connection lost" as an uncaught exception, though the bot handles it.
     */
    responseUrl: async (botToken: string, channelId: string, userId: string, messageTs?: string) =>
      (
        await call<{ responseUrl: string }>("POST", "/response-urls", {
          botToken,
          channelId,
          userId,
          ...(messageTs ? { messageTs } : {}),
        })
      ).responseUrl,
    /** The workspace's messages in ts order, as the stand-in shows them (snake_case wire fields). */
    messages: async <M>(botToken: string, channel?: string) =>
      (await call<{ messages: M[] }>("GET", `/messages?${query({ botToken, channel })}`)).messages,
    /** The Web API calls the workspace's token made, oldest first. */
    calls: async <C>(botToken: string, method?: string) =>
      (await call<{ calls: C[] }>("GET", `/calls?${query({ botToken, method })}`)).calls,
    /** The person's Home view and open modals, as the bot last published and opened them. */
    views: (botToken: string, userId = "U0ALICE") =>
      call<{
        home: { id: string; blocks: Array<Record<string, unknown>> } | null;
        modals: Array<{ id: string; callback_id?: string; blocks: Array<Record<string, unknown>> }>;
      }>("GET", `/views?${query({ botToken, userId })}`),
    /** The workspace back to its seeded state: no messages, calls or faults. */
    reset: (botToken: string) => call("POST", "/reset", { botToken }),
    /** The next `count` calls of `method` fail this way (`extra`: error, retryAfter, delayMs). */
    fault: (
      botToken: string,
      method: string,
      kind: FaultKind,
      count = 1,
      extra: Record<string, unknown> = {},
    ) => call("POST", "/faults", { botToken, method, kind, count, ...extra }),
    /** The faults still queued are dropped: Slack answers normally again. */
    clearFaults: (botToken: string) => call("POST", "/faults/clear", { botToken }),
    /** Block types Slack has not rolled out to this workspace yet (e.g. charts and tables). */
    blockRollout: (botToken: string, refuse: string[]) =>
      call("POST", "/block-rollout", { botToken, refuse }),
    /** The app's history tier here (docs/slack-platform.md). */
    /** The channel is shared with another organization (Slack Connect), or no longer. */
    shareChannel: (botToken: string, channelId: string, shared = true) =>
      call("POST", "/channels/share", { botToken, channelId, shared }),
    /** The bot scopes the token has from now on (the `x-oauth-scopes` header of every answer). */
    scopes: (botToken: string, scopes: string[]) => call("POST", "/scopes", { botToken, scopes }),
    /** A person with a role users.info reports (a guest, an admin), in `channels` only (dev/slack/README.md). */
    user: (
      botToken: string,
      userId: string,
      role: UserRole,
      channels?: string[],
      teamId?: string,
      tz?: string,
    ) =>
      call("POST", "/users", {
        botToken,
        userId,
        role,
        ...(channels ? { channels } : {}),
        ...(teamId ? { teamId } : {}),
        ...(tz ? { tz } : {}),
      }),
    /** The workspace's team id from now on (auth.test and every payload). */
    team: (botToken: string, teamId: string) => call("POST", "/team", { botToken, teamId }),
    distribution: (botToken: string, distribution: "internal" | "distributed") =>
      call("POST", "/distribution", { botToken, distribution }),
    /** The time the workspace's rate windows read from now on (a test's simulated clock). */
    clock: (botToken: string, nowMs: number) => call("POST", "/clock", { botToken, nowMs }),
    /** One of chat.postMessage's refusals for this channel (docs/slack-platform.md); null lifts it. */
    restrict: (botToken: string, channelId: string, restriction: string | null) =>
      call("POST", "/channels/restrict", { botToken, channelId, restriction }),
    /** A person deletes a message. */
    deleteMessage: (botToken: string, channelId: string, ts: string) =>
      call("POST", "/messages/delete", { botToken, channelId, ts }),
    /** The manifest's `metadata_subscriptions` (null: none, no `message_metadata_posted`). */
    metadataSubscriptions: (botToken: string, eventTypes: string[] | null) =>
      call("POST", "/metadata-subscriptions", { botToken, eventTypes }),
    /** The `message_metadata_posted` envelopes owed to the app, oldest first; handed out once. */
    takeMetadataEvents: async (botToken: string) =>
      (await call<{ envelopes: Record<string, unknown>[] }>("POST", "/metadata-events/take", { botToken }))
        .envelopes,
    /** Who Slack notified of a mention, oldest first (new messages only, never edits). */
    pings: async (botToken: string) =>
      (
        await call<{ pings: Array<{ target: string; channel: string; ts: string; threadTs?: string }> }>(
          "GET",
          `/pings?${query({ botToken })}`,
        )
      ).pings,
  };
}
