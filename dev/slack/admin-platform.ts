import { type Context, Hono } from "hono";
import { deleteByPerson, findMessage, resolveChannel } from "./messages.ts";
import {
  type Channel,
  type Distribution,
  type PostingRestriction,
  USER_ROLES,
  type UserRole,
} from "./standin-types.ts";
import { TIERS } from "./tiers.ts";
import { isBotToken, type Workspace, type Workspaces } from "./workspaces.ts";

// `/__slack/*` for what real Slack does that the app cannot: how the app is distributed (its
// history tier), a person deleting a message, an admin restricting posting in a channel, and
// the app's `metadata_subscriptions` (docs/slack-platform.md names the pages).

type Body = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

const RESTRICTIONS: PostingRestriction[] = [
  "restricted_action",
  "restricted_action_read_only_channel",
  "restricted_action_thread_only_channel",
  "restricted_action_non_threadable_channel",
  "team_access_not_granted",
];

/** The other channel-level refusals, set by changing the channel as Slack would see it. */
const CHANNEL_STATES = ["is_archived", "not_in_channel", "channel_not_found"] as const;

async function jsonBody(c: Context): Promise<Body> {
  const parsed: unknown = await c.req.json().catch(() => ({}));
  return typeof parsed === "object" && parsed !== null ? (parsed as Body) : {};
}

export function adminPlatformRoutes(workspaces: Workspaces, defaultToken?: string) {
  const app = new Hono();

  function workspaceFor(c: Context, body: Body = {}): Workspace | Response {
    const token = str(body.botToken) ?? str(c.req.query("botToken")) ?? defaultToken;
    if (!token || !isBotToken(token))
      return c.json({ ok: false, error: "botToken must look like xoxb-…" }, 400);
    return workspaces.get(token);
  }

  /** The workspace and the channel `channelId` names, or the answer when there is none. */
  function channelFor(c: Context, body: Body): { ws: Workspace; channel: Channel } | Response {
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const channel = resolveChannel(ws, str(body.channelId));
    return channel ? { ws, channel } : c.json({ ok: false, error: "channel_not_found" }, 404);
  }

  app.post("/distribution", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const distribution = body.distribution as Distribution;
    if (!(distribution in TIERS))
      return c.json({ ok: false, error: "distribution must be internal or distributed" }, 400);
    ws.distribution = distribution;
    return c.json({ ok: true, distribution, tier: TIERS[distribution] });
  });

  /** `scopes`: the bot scopes the token has from now on, as `x-oauth-scopes` names them. */
  app.post("/scopes", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const scopes = body.scopes;
    if (!Array.isArray(scopes) || !scopes.every((x) => typeof x === "string" && /^[a-z.:_]+$/.test(x)))
      return c.json({ ok: false, error: 'scopes must be a list like ["chat:write"]' }, 400);
    ws.scopes = scopes as string[];
    return c.json({ ok: true, scopes });
  });

  /**
   * `teamId`: the workspace's team id from now on, as auth.test and every payload name it, for
   * tests whose requests name a team of their own choosing (test/helpers/slack-app.ts).
   */
  app.post("/team", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const teamId = str(body.teamId);
    if (!teamId || !/^T[A-Z0-9]{2,20}$/.test(teamId))
      return c.json({ ok: false, error: "teamId must look like T0TEST" }, 400);
    ws.teamId = teamId;
    return c.json({ ok: true, teamId });
  });

  /** `nowMs`: the time the workspace's rate windows read from now on (a test's clock). */
  app.post("/clock", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    if (typeof body.nowMs !== "number" || !Number.isFinite(body.nowMs))
      return c.json({ ok: false, error: "nowMs must be a time in milliseconds" }, 400);
    ws.clockOffsetMs = body.nowMs - Date.now();
    return c.json({ ok: true });
  });

  /** `restriction`: one of chat.postMessage's refusals for this channel; null lifts it. */
  app.post("/channels/restrict", async (c) => {
    const body = await jsonBody(c);
    const found = channelFor(c, body);
    if (found instanceof Response) return found;
    const { ws, channel } = found;
    const restriction = body.restriction;
    if (restriction === null) {
      channel.restriction = undefined;
      return c.json({ ok: true });
    }
    if (RESTRICTIONS.includes(restriction as PostingRestriction)) {
      channel.restriction = restriction as PostingRestriction;
      return c.json({ ok: true, restriction });
    }
    if (restriction === "is_archived") channel.isArchived = true;
    else if (restriction === "not_in_channel") channel.isMember = false;
    else if (restriction === "channel_not_found") ws.channels.delete(channel.id);
    else
      return c.json(
        {
          ok: false,
          error: `restriction must be null or one of ${[...RESTRICTIONS, ...CHANNEL_STATES].join("|")}`,
        },
        400,
      );
    return c.json({ ok: true, restriction });
  });

  /** The channel is shared with another organization (Slack Connect), or no longer (`shared: false`). */
  app.post("/channels/share", async (c) => {
    const body = await jsonBody(c);
    const found = channelFor(c, body);
    if (found instanceof Response) return found;
    const { channel } = found;
    channel.isExtShared = body.shared !== false;
    return c.json({ ok: true, shared: channel.isExtShared });
  });

  /**
   * A person of the workspace with a role users.info reports (`admin`, `owner`, `guest`,
   * `single-channel-guest`, or `member`), new or seeded. `channels`: the channels they are
   * in, and no others (a guest is only in the channels they were invited to); left out, a new
   * person is in #alerts only and a seeded one keeps theirs. `teamId`: they are of another
   * organization (Slack Connect), and every event, command and click names that team for them.
   */
  app.post("/users", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const id = str(body.userId);
    const role = (body.role ?? "member") as UserRole;
    const teamId = str(body.teamId);
    const badTeam = teamId !== undefined && !/^T[A-Z0-9]{2,20}$/.test(teamId);
    if (!id || !/^U[A-Z0-9]{2,20}$/.test(id) || !USER_ROLES.includes(role) || badTeam)
      return c.json(
        {
          ok: false,
          error: `userId must look like U0GUEST, role one of ${USER_ROLES.join("|")}, teamId like T0OTHER`,
        },
        400,
      );
    const name = str(body.name) ?? id.slice(1).toLowerCase();
    const seeded = ws.users.get(id);
    const person = seeded ?? { id, name, realName: name, displayName: name, isBot: false };
    const tz = str(body.tz);
    ws.users.set(id, { ...person, role, ...(teamId ? { teamId } : {}), ...(tz ? { tz } : {}) });
    const channels = Array.isArray(body.channels) ? body.channels.map(String) : seeded ? null : ["C0ALERTS"];
    if (channels)
      for (const channel of ws.channels.values()) {
        const others = channel.members.filter((m) => m !== id);
        channel.members = channels.includes(channel.id) ? [...others, id] : others;
      }
    return c.json({ ok: true, userId: id, role });
  });

  /** A person (or an admin) deletes a message, the bot's or anyone's. */
  app.post("/messages/delete", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const channel = resolveChannel(ws, str(body.channelId));
    const ts = str(body.ts);
    const message = channel && ts ? findMessage(ws, channel.id, ts) : undefined;
    if (!message || message.ephemeral || message.deleted)
      return c.json({ ok: false, error: "message_not_found" }, 404);
    deleteByPerson(message);
    return c.json({ ok: true, channel: message.channel, ts: message.ts });
  });

  /**
   * The app's manifest `metadata_subscriptions`: the event types it hears
   * `message_metadata_posted` for; `null` (the default) turns the event off.
   */
  app.post("/metadata-subscriptions", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const types = body.eventTypes;
    if (types !== null && !(Array.isArray(types) && types.every((t) => typeof t === "string")))
      return c.json({ ok: false, error: "eventTypes must be a list of event types, or null" }, 400);
    ws.metadataSubscriptions = types === null ? null : new Set(types as string[]);
    return c.json({ ok: true, eventTypes: types });
  });

  /**
   * The `message_metadata_posted` envelopes Slack owes the app, oldest first; taking them
   * empties the queue. The caller delivers them (`POST /__slack/events`), late, or never — an
   * event can be lost like any other.
   */
  app.post("/metadata-events/take", async (c) => {
    const ws = workspaceFor(c, await jsonBody(c));
    if (ws instanceof Response) return ws;
    const envelopes = ws.metadataEvents.splice(0);
    return c.json({ ok: true, envelopes });
  });

  return app;
}
