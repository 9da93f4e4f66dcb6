import { OUTSIDER, type Refusal } from "../messages/outsiders.ts";
import { reply } from "../slack-api/respond.ts";
import { classifySlackFailure } from "../slack-api/slack-errors.ts";
import { isRecord } from "../util/checks.ts";
import type { Deps } from "../wiring.ts";
import { eventAuthorization } from "./events/event-envelope.ts";
import type { AnyRequest, LeanSlackApp } from "./lean-slack-app.ts";
import { directMessageOf } from "./mentions/direct-message.ts";

/**
 * Shared channels (Slack Connect), closed by default: someone whose workspace is not the one
 * the app is installed in gets none of its Decipher data from any request (command, mention,
 * link, button, Home), and one sentence saying why (docs/slack-platform.md, "Slack Connect").
 */

const named = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const field = (v: unknown, key: string): string | null => (isRecord(v) ? named(v[key]) : null);

/**
 * The workspace of the person a request comes from, as Slack names it, the most specific
 * first: an event's `user_team` (a message or mention in a shared channel), else its
 * envelope's `team_id` (the workspace the event came from; `link_shared` and `app_home_opened`
 * name no user team); a click's or a modal's `user.team_id`, else its `team.id`; a command's
 * `team_id`. Null: the request names none.
 */
export function personTeam(body: Record<string, unknown>): string | null {
  if (body.type === "event_callback")
    return (
      field(body.event, "user_team") ??
      field(isRecord(body.event) ? body.event.user : null, "team_id") ??
      named(body.team_id)
    );
  if (typeof body.command === "string") return named(body.team_id);
  return field(body.user, "team_id") ?? field(body.team, "id");
}

/**
 * The workspace the app answers for: multi-workspace mode's tenant, else the token's own
 * (`auth.test`), else for an event the installation Slack delivered it to. Null only while
 * Slack is too slow to say whose token this is, for a command or click (src/handlers/authorize.ts).
 */
export function installedTeam(req: AnyRequest, deps: Deps): string | null {
  return (
    deps.tenant?.teamId ??
    named(req.context.authorizeResult.teamId) ??
    named(eventAuthorization(req.body)?.team_id)
  );
}

export function isOutsider(body: Record<string, unknown>, installed: string | null): boolean {
  const team = personTeam(body);
  return installed !== null && team !== null && team !== installed;
}

/** The ack: the sentence for a command (only they see it); for a menu's options, none. */
function ack(refusal: Refusal) {
  return async (req: AnyRequest): Promise<unknown> => {
    if (typeof req.body.command === "string") return { response_type: "ephemeral", text: refusal.text };
    if (req.body.type === "block_suggestion") return { options: [] };
    return "";
  };
}

/**
 * Where the bot answers words said to it: a mention in its thread (a mention at the top level
 * starts one), a DM where it was written (src/handlers/mentions/direct-message.ts); null for
 * every other event.
 */
function wordsToBot(event: Record<string, unknown>): { channel: string; thread: string | null } | null {
  const channel = named(event.channel);
  if (!channel) return null;
  if (event.type === "app_mention") return { channel, thread: named(event.thread_ts) ?? named(event.ts) };
  if (directMessageOf(event)) return { channel, thread: named(event.thread_ts) };
  return null;
}

/** Where the bot speaks to the person of an event: words said to it, or the assistant pane's new thread. */
function answerPlace(event: Record<string, unknown>): { channel: string; thread: string | null } | null {
  const pane = event.type === "assistant_thread_started" && isRecord(event.assistant_thread);
  if (!pane) return wordsToBot(event);
  const thread = event.assistant_thread as Record<string, unknown>;
  const channel = named(thread.channel_id);
  return channel ? { channel, thread: named(thread.thread_ts) } : null;
}

/** After the ack: a mention is answered in its thread, a DM where it was written, a click to them alone, a Home tab with the sentence. */
function lazy(deps: Deps, refusal: Refusal, who: string) {
  return (req: AnyRequest): Promise<void> | undefined => {
    const failed = (what: string) => (error: unknown) =>
      console.warn(`${what} for ${who} failed (${classifySlackFailure(error).code})`);
    const event = req.body.type === "event_callback" && isRecord(req.body.event) ? req.body.event : null;
    const said = event ? answerPlace(event) : null;
    if (said) {
      const { text, blocks } = refusal.message();
      return deps.slack.chat
        .postMessage({
          channel: said.channel,
          ...(said.thread ? { thread_ts: said.thread } : {}),
          text,
          blocks,
        })
        .then(() => {}, failed("mention reply"));
    }
    if (event?.type === "app_home_opened" && named(event.user))
      return deps.slack.views
        .publish({ user_id: String(event.user), view: refusal.home() })
        .then(() => {}, failed("Home tab"));
    if (req.body.type === "block_actions" && req.context.respond)
      return reply(req.context.respond, refusal.message()).then(() => {});
    return undefined;
  };
}

/** What the bot does for a person it does not answer, whatever they asked: `refusal`, and nothing else. */
export const refusing = (deps: Deps, refusal: Refusal, who: string) => ({
  ack: ack(refusal),
  lazy: lazy(deps, refusal, who),
});

/** Registered before every other listener (src/handlers/slack-app.ts): the one check, for all of them. */
export function refuseOutsiders(app: LeanSlackApp, deps: Deps): void {
  const { ack, lazy } = refusing(deps, OUTSIDER, "another organization's person");
  app.first(
    (req) => {
      const outsider = isOutsider(req.body, installedTeam(req, deps));
      // Team ids only: never what they typed.
      if (outsider)
        console.info(`refused a request from workspace ${personTeam(req.body)} (another organization)`);
      return outsider;
    },
    ack,
    lazy,
  );
}
