import type { SlackEdgeAppEnv, SlackRequestWithRespond, SlashCommand } from "slack-edge";
import { plain } from "../../messages/decipher-replies.ts";
import { doctorLines } from "../../messages/doctor-lines.ts";
import { DOCTOR_CHECKING, DOCTOR_REFUSAL, doctorMessage } from "../../messages/doctor-message.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { reply } from "../../slack-api/respond.ts";
import { isWorkspaceAdmin } from "../../slack-api/workspace-admin.ts";
import type { Deps } from "../../wiring.ts";
import { deploymentFacts, workspaceFacts } from "../doctor/deep-facts.ts";
import { healthState } from "../health-state.ts";
import type { decipherCommand } from "./decipher-command-handler.ts";

type Request = SlackRequestWithRespond<SlackEdgeAppEnv, SlashCommand>;
type Listeners = ReturnType<typeof decipherCommand>;

const isDoctor = (req: Request) => /^\s*doctor\s*$/i.test(req.payload.text ?? "");

/**
 * A bot admin (ADMIN_USER_IDS; the installer and bot admins in multi-workspace mode) or a
 * Slack workspace admin or owner. Unlike a subscription change, an empty ADMIN_USER_IDS lets
 * nobody in by itself: the doctor shows how the deployment is set up.
 */
async function mayRunDoctor(deps: Deps, userId: string): Promise<boolean> {
  const { tenant } = deps;
  if (deps.config.adminUserIds.has(userId)) return true;
  if (tenant && (tenant.installerUserId === userId || tenant.admins.includes(userId))) return true;
  return isWorkspaceAdmin(deps.slack, userId);
}

/** The workspace's checks (its token, scopes, key and channels) and the clocks of its shard. */
async function doctorReply(deps: Deps, req: Request): Promise<void> {
  if (!(await mayRunDoctor(deps, req.payload.user_id))) {
    await reply(req.context.respond, plain(DOCTOR_REFUSAL), { replaceOriginal: true });
    return;
  }
  const teamId = req.payload.team_id || DEFAULT_TEAM;
  const [workspace, health] = await Promise.all([
    workspaceFacts(deps),
    deps.control.health(teamId).catch(() => null),
  ]);
  const state = health && healthState(health, deps.config.plan, deps.now().getTime());
  const lines = doctorLines({ multiWorkspace: false, ...workspace, ...deploymentFacts(deps.config, state) });
  await reply(req.context.respond, doctorMessage(lines), { replaceOriginal: true });
}

/**
 * `/decipher doctor` in front of the other `/decipher` subcommands
 * (src/handlers/commands/decipher-command-handler.ts): acks at once, checks after the ack.
 */
export function withDoctor(deps: Deps, decipher: Listeners): Listeners {
  return {
    ack: async (req) =>
      isDoctor(req) ? { response_type: "ephemeral" as const, ...plain(DOCTOR_CHECKING) } : decipher.ack(req),
    lazy: (req) => (isDoctor(req) ? doctorReply(deps, req) : decipher.lazy(req)),
  };
}
