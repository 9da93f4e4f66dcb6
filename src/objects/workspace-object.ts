import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config.ts";
import { installerAfter } from "../model/installer.ts";
import { type HistoryMethod, turnWait } from "../slack-api/find-posted.ts";
import { createSlackClient } from "../slack-api/slack-client.ts";
import { classifySlackFailure } from "../slack-api/slack-errors.ts";
import { open, seal } from "../util/secret-box.ts";

/**
 * One Slack workspace's installation (multi-workspace mode): its bot token, the refresh token
 * when token rotation is on, the scopes it granted, who installed it, its bot admins and its
 * Decipher key. One object per team (`team:<teamId>`) is the single writer of all of it. In
 * either mode it also keeps the workspace's turns at Slack's history methods, which Slack
 * counts per workspace (src/objects/history-pace.ts).
 *
 * Why an object and not KV (slack-cloudflare-workers' KVInstallationStore): with rotation on,
 * a refresh invalidates the previous refresh token. Two isolates that both see an expiring
 * token in KV would both refresh with the same refresh token; the loser gets
 * `invalid_refresh_token`, and if its write lands last (KV is last-writer-wins and eventually
 * consistent for 60 s) the stored refresh token is the dead one and the install is lost. In
 * one object the second caller waits for the first refresh and gets its result. Uninstall is
 * one `deleteAll`, and a reinstall right after it cannot read a stale copy.
 *
 * Secrets are sealed with ENCRYPTION_KEY (src/util/secret-box.ts), bound to the team and the
 * field, so storage holds no token or key in the clear. RPC answers carry them in the clear to
 * the Worker that asked (same account, same script).
 */

/** What an install hands over (oauth.v2.access, already exchanged). */
export type NewInstallation = {
  teamId: string;
  teamName: string | null;
  appId: string;
  installerUserId: string;
  botUserId: string;
  botToken: string;
  scopes: string[];
  refreshToken: string | null;
  /** Epoch ms when the bot token expires (rotation on), else null. */
  expiresAt: number | null;
};

/** What the rest of the Worker needs to act for the team. */
export type TeamCredentials = {
  teamId: string;
  botToken: string;
  botUserId: string;
  installerUserId: string;
  scopes: string[];
  /** The workspace's bot admins; empty means everyone, as ADMIN_USER_IDS does. */
  admins: string[];
  decipherKey: string | null;
  /** Epoch ms until which the token is good (Infinity without rotation). */
  goodUntil: number;
};

/** What the Home tab may show about the Decipher key: never the key. */
export type DecipherKeyInfo = { last4: string; setBy: string; setAt: string };

type Stored = {
  teamId: string;
  teamName: string | null;
  appId: string;
  installerUserId: string;
  botUserId: string;
  scopes: string[];
  botToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  installedAt: string;
  /** The latest install or reinstall: an uninstall event older than it is about an earlier one. */
  lastInstalledAt?: string;
  admins: string[];
};

type StoredKey = { sealed: string } & DecipherKeyInfo;

/** An `app_uninstalled` or `tokens_revoked` event: its `event_id` and `event_time` (Unix seconds). */
export type UninstallEvent = { id: string | null; time: number | null };

/** A token this close to expiry is refreshed before it is handed out. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

export class WorkspaceObject extends DurableObject<Env> {
  /** The refresh in flight: every caller during it waits for this one (single flight). */
  #refreshing: Promise<Stored> | null = null;

  #secret(): string {
    const secret = this.env.ENCRYPTION_KEY?.trim();
    if (!secret) throw new Error("ENCRYPTION_KEY is not set");
    return secret;
  }

  #seal(team: string, field: string, value: string) {
    return seal(this.#secret(), value, `${team}:${field}`);
  }

  #open(team: string, field: string, value: string) {
    return open(this.#secret(), value, `${team}:${field}`);
  }

  /**
   * Saves an install, first or again. A reinstall (a new manifest version's scopes, or the same
   * app approved twice) replaces the token and the scope list and keeps the Decipher key and the
   * admins: the workspace did not leave. The installer's rights stay with the installer unless
   * the one who approved holds them too (src/model/installer.ts); `keptFrom` names the installer
   * when someone else approved, to be told. After an uninstall there is nothing to keep.
   */
  async install(
    installation: NewInstallation,
    at: string,
    byIsWorkspaceAdmin = false,
  ): Promise<{ first: boolean; keptFrom: string | null }> {
    const existing = await this.ctx.storage.get<Stored>("install");
    const team = installation.teamId;
    const installer = installerAfter(existing, installation.installerUserId, byIsWorkspaceAdmin);
    const stored: Stored = {
      teamId: team,
      teamName: installation.teamName,
      appId: installation.appId,
      installerUserId: installer.installerUserId,
      botUserId: installation.botUserId,
      scopes: [...new Set(installation.scopes)].sort(),
      botToken: await this.#seal(team, "bot", installation.botToken),
      refreshToken: installation.refreshToken
        ? await this.#seal(team, "refresh", installation.refreshToken)
        : null,
      expiresAt: installation.expiresAt,
      installedAt: existing?.installedAt ?? at,
      lastInstalledAt: at,
      admins: existing?.admins ?? [],
    };
    await this.ctx.storage.put("install", stored);
    return { first: !existing, keptFrom: installer.keptFrom };
  }

  /** The team's credentials, the bot token refreshed first when it is about to expire; null: not installed. */
  async credentials(now: number = Date.now()): Promise<TeamCredentials | null> {
    let stored = await this.ctx.storage.get<Stored>("install");
    if (!stored) return null;
    if (stored.refreshToken && stored.expiresAt !== null && stored.expiresAt - REFRESH_MARGIN_MS <= now) {
      stored = await this.#refresh(stored, now);
    }
    const key = await this.ctx.storage.get<StoredKey>("decipher");
    const team = stored.teamId;
    return {
      teamId: team,
      botToken: await this.#open(team, "bot", stored.botToken),
      botUserId: stored.botUserId,
      installerUserId: stored.installerUserId,
      scopes: stored.scopes,
      admins: stored.admins,
      decipherKey: key ? await this.#open(team, "decipher", key.sealed) : null,
      goodUntil:
        stored.refreshToken && stored.expiresAt !== null ? stored.expiresAt : Number.POSITIVE_INFINITY,
    };
  }

  /**
   * One refresh at a time: callers arriving while one runs (an object interleaves requests at
   * every await) share its result instead of spending the refresh token a second time.
   */
  #refresh(stored: Stored, now: number): Promise<Stored> {
    this.#refreshing ??= this.#exchange(stored, now).finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #exchange(stale: Stored, now: number): Promise<Stored> {
    // Read again: a refresh that finished between this caller's read and now already rotated it.
    const stored = (await this.ctx.storage.get<Stored>("install")) ?? stale;
    if (!stored.refreshToken || (stored.expiresAt ?? 0) - REFRESH_MARGIN_MS > now) return stored;
    const team = stored.teamId;
    const client = createSlackClient({ slackBotToken: "", slackApiUrl: slackApiUrl(this.env) });
    try {
      const answer = await client.oauth.v2.access({
        client_id: this.env.SLACK_CLIENT_ID ?? "",
        client_secret: this.env.SLACK_CLIENT_SECRET ?? "",
        grant_type: "refresh_token",
        refresh_token: await this.#open(team, "refresh", stored.refreshToken),
      });
      if (!answer.access_token || !answer.refresh_token) throw new Error("oauth.v2.access answered no token");
      const next: Stored = {
        ...stored,
        botToken: await this.#seal(team, "bot", answer.access_token),
        refreshToken: await this.#seal(team, "refresh", answer.refresh_token),
        expiresAt: answer.expires_in ? now + answer.expires_in * 1000 : null,
        ...(answer.scope ? { scopes: answer.scope.split(",").sort() } : {}),
      };
      await this.ctx.storage.put("install", next);
      return next;
    } catch (error) {
      // The old token still works until it expires; past that, callers get an expired one and
      // Slack's own `token_expired` answer, which pauses and tells like any token refusal.
      console.warn(`token refresh for ${team} failed (${classifySlackFailure(error).code})`);
      return stored;
    }
  }

  /** Stores the Decipher key, sealed; the caller checked it with a read call first. */
  /**
   * The workspace's turn to read history with `method` at `now` (the caller's cycle clock): 0
   * and the turn is taken, or how long to wait. Storage, not memory: an object evicted between
   * two reads a minute apart must still know the first.
   */
  async historyTurn(method: HistoryMethod, now: number, spacingMs: number): Promise<number> {
    const key = `history-turn:${method}`;
    const wait = turnWait(await this.ctx.storage.get<number>(key), now, spacingMs);
    if (wait === 0) await this.ctx.storage.put(key, now);
    return wait;
  }

  async setDecipherKey(key: string, userId: string, at: string): Promise<DecipherKeyInfo> {
    const stored = await this.ctx.storage.get<Stored>("install");
    if (!stored) throw new Error("not installed");
    const info: DecipherKeyInfo = { last4: key.slice(-4), setBy: userId, setAt: at };
    await this.ctx.storage.put("decipher", {
      ...info,
      sealed: await this.#seal(stored.teamId, "decipher", key),
    });
    return info;
  }

  async removeDecipherKey(): Promise<boolean> {
    return this.ctx.storage.delete("decipher");
  }

  async decipherKeyInfo(): Promise<DecipherKeyInfo | null> {
    const key = await this.ctx.storage.get<StoredKey>("decipher");
    return key ? { last4: key.last4, setBy: key.setBy, setAt: key.setAt } : null;
  }

  async setAdmins(admins: string[]): Promise<void> {
    const stored = await this.ctx.storage.get<Stored>("install");
    if (!stored) throw new Error("not installed");
    await this.ctx.storage.put("install", { ...stored, admins: [...new Set(admins)].slice(0, 50) });
  }

  /**
   * Uninstall: nothing of the team is left here but the uninstall event's id. An install saved
   * since is kept when the event is one already acted on (Slack's retry of a delivery whose
   * answer it did not get) or is older than the latest install (its Unix seconds before that
   * install's, a reinstall over an install whose uninstall never reached the bot included):
   * that install was made after this uninstall.
   */
  async purge(event: UninstallEvent): Promise<"purged" | "absent" | "kept"> {
    const stored = await this.ctx.storage.get<Stored>("install");
    if (stored) {
      const retried = event.id !== null && (await this.ctx.storage.get("uninstalled")) === event.id;
      const installed = Date.parse(stored.lastInstalledAt ?? stored.installedAt);
      const older = event.time !== null && installed >= (event.time + 1) * 1000;
      if (retried || older) return "kept";
    }
    await this.ctx.storage.deleteAll();
    if (event.id !== null) await this.ctx.storage.put("uninstalled", event.id);
    return stored ? "purged" : "absent";
  }
}

function slackApiUrl(env: Env): string {
  return `${(env.SLACK_API_URL?.trim() || "https://slack.com/api/").replace(/\/+$/, "")}/`;
}
