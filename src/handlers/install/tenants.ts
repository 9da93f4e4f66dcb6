import type { ExecutionContext } from "slack-edge";
import type { Config, Env } from "../../config.ts";
import { configFor, purgeTeam, teamCredentials } from "../../objects/tenancy.ts";
import type { TeamCredentials } from "../../objects/workspace-object.ts";
import { isRecord } from "../../util/checks.ts";
import { describeError } from "../../util/describe-error.ts";
import { eventAuthorization, eventTeam } from "../events/event-envelope.ts";
import { LIFECYCLE_EVENT_TYPES } from "../events/event-types.ts";
import type { LeanSlackApp } from "../lean-slack-app.ts";
import type { Tenants } from "../slack-edge.ts";
import { INSTALL_PATH } from "./install-pages.ts";

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The team and the kind of a signed body: a command, an interaction payload or an event envelope. */
export function requestTeam(body: Record<string, unknown>): {
  teamId: string | null;
  kind: "command" | "interaction" | "event";
  orgWide: boolean;
} {
  if (body.type === "event_callback") {
    const orgWide =
      body.is_enterprise_install === true || eventAuthorization(body)?.is_enterprise_install === true;
    return { teamId: eventTeam(body), kind: "event", orgWide };
  }
  if (typeof body.command === "string")
    return { teamId: str(body.team_id), kind: "command", orgWide: body.is_enterprise_install === "true" };
  // A modal opened in a shared channel names the installation's team apart (slack-edge's reading).
  const installed = isRecord(body.view) ? str(body.view.app_installed_team_id) : null;
  const team = isRecord(body.team) ? str(body.team.id) : null;
  const user = isRecord(body.user) ? str(body.user.team_id) : null;
  return {
    teamId: installed ?? team ?? user,
    kind: "interaction",
    orgWide: body.is_enterprise_install === true,
  };
}

const ephemeral = (text: string) => Response.json({ response_type: "ephemeral", text });
const ok = () => new Response(null, { status: 200 });

/** Events the bot acts on for a workspace without a Decipher key: the Home tab, to connect one. */
const WITHOUT_KEY = new Set(["app_home_opened"]);

const notInstalled = (origin: string) =>
  `Decipher is not installed in this workspace (or it was uninstalled). Someone who may add apps can install it from ${origin}${INSTALL_PATH}.`;
const NOT_CONNECTED =
  "This workspace has not connected Decipher yet. Whoever installed the app, or a workspace admin, can open the Decipher app's *Home* tab in Slack and click *Connect Decipher* to add an API key.";
const ORG_WIDE =
  "Org-wide (Enterprise Grid) installs are not supported: install Decipher into each workspace instead.";

/** One Slack app per installed team and isolate, rebuilt when the team's token, key or admins change. */
type Built = { fingerprint: string; app: LeanSlackApp };
const MAX_APPS = 200;

export function tenants(
  config: Config,
  env: Env,
  build: (config: Config, env: Env, credentials: TeamCredentials) => LeanSlackApp,
): Tenants {
  const apps = new Map<string, Built>();

  function appOf(credentials: TeamCredentials): LeanSlackApp {
    const fingerprint = JSON.stringify([
      credentials.botToken,
      credentials.decipherKey,
      credentials.admins,
      credentials.installerUserId,
    ]);
    const hit = apps.get(credentials.teamId);
    if (hit && hit.fingerprint === fingerprint) return hit.app;
    const app = build(configFor(config, credentials), env, credentials);
    if (apps.size >= MAX_APPS) apps.delete(apps.keys().next().value as string);
    apps.set(credentials.teamId, { fingerprint, app });
    return app;
  }

  return {
    lifecycle(body, ctx: ExecutionContext) {
      if (!isRecord(body) || body.type !== "event_callback" || !isRecord(body.event)) return null;
      const type = body.event.type;
      if (!(LIFECYCLE_EVENT_TYPES as readonly unknown[]).includes(type)) return null;
      // Slack's event reference: `team_id` names the workspace that uninstalled or whose tokens
      // were revoked; `authorizations` only names an installation the event is visible to.
      const { teamId: delivered, orgWide } = requestTeam(body);
      const teamId = str(body.team_id) ?? delivered;
      // Org-level events carry no workspace to purge: acknowledged, nothing else.
      if (!teamId || orgWide) return ok();
      const bot = isRecord(body.event.tokens) ? body.event.tokens.bot : undefined;
      if (type === "tokens_revoked" && !(Array.isArray(bot) && bot.length > 0)) return ok();
      const time = typeof body.event_time === "number" ? body.event_time : null;
      ctx.waitUntil(
        purgeTeam(env, teamId, new Date(), { id: str(body.event_id), time }).catch((error: unknown) =>
          console.error(`uninstall of ${teamId} failed: ${describeError(error)}`),
        ),
      );
      return ok();
    },

    async appFor(body, origin) {
      const { teamId, kind, orgWide } = requestTeam(body);
      if (orgWide) return kind === "command" ? ephemeral(ORG_WIDE) : ok();
      const credentials = teamId ? await teamCredentials(env, teamId) : null;
      if (!credentials) return kind === "command" ? ephemeral(notInstalled(origin)) : ok();
      if (!credentials.decipherKey) {
        if (kind === "command") return ephemeral(NOT_CONNECTED);
        const event = isRecord(body.event) ? body.event.type : null;
        if (kind === "event" && !WITHOUT_KEY.has(String(event))) return ok();
      }
      return appOf(credentials);
    },
  };
}
