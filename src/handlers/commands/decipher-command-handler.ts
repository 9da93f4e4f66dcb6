import type { SlackEdgeAppEnv, SlackRequestWithRespond, SlashCommand } from "slack-edge";
import { kindSpec, specOf } from "../../kinds/kinds.ts";
import { listMessage, statusMessage, subscribedMessage, unsubscribedMessage } from "../../kinds/messages.ts";
import type { ChannelPageValue } from "../../messages/button-values.ts";
import {
  capSentence,
  INDEX_UNREADABLE,
  joinedReplies,
  notCheckedMessage,
  plain,
} from "../../messages/decipher-replies.ts";
import { section } from "../../messages/elements.ts";
import { errorMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { code, DATE_FORMAT_AHEAD, dateToken } from "../../messages/mrkdwn.ts";
import { SHARED_CHANNEL_NOTE } from "../../messages/outsiders.ts";
import { FIRST_PAGE, type PageAt } from "../../messages/paging.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { isAdmin, SUBSCRIPTION_CHANGE_REFUSAL } from "../../model/admins.ts";
import type { SubscriptionRef } from "../../model/alert-control.ts";
import { indexKey } from "../../model/channel-index.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { governPace } from "../../model/plan-governor.ts";
import type { Subscription } from "../../model/subscription.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { WEEKDAY_NAMES, weeklySchedule } from "../../model/weekly-schedule.ts";
import { channelPostable } from "../../slack-api/channel-check.ts";
import { reply } from "../../slack-api/respond.ts";
import type { Deps } from "../../wiring.ts";
import { helpAck, helpMessage } from "../help.ts";
import { perRequest } from "../per-request.ts";
import { pausedElsewhere } from "../watched-channels.ts";
import { answerInChannel } from "./ask-answers.ts";
import {
  type AskCommand,
  changesSubscriptions,
  type DecipherCommand,
  isSubscribe,
  parseDecipherCommand,
  type QuickCommand,
  type SubscribeCommand,
} from "./decipher-command.ts";

type Request = SlackRequestWithRespond<SlackEdgeAppEnv, SlashCommand>;
type Parsed = { ok: true; command: DecipherCommand } | { ok: false; reply: SlackMessage };

function read(req: Request, deps: Deps): Parsed {
  let command: DecipherCommand;
  try {
    command = parseDecipherCommand(req.payload.text ?? "");
  } catch (error) {
    if (!(error instanceof CommandInputError)) throw error;
    return { ok: false, reply: errorMessage(`${error.message} Type \`/decipher help\` for the commands.`) };
  }
  if (changesSubscriptions(command) && !isAdmin(deps.config.adminUserIds, req.payload.user_id)) {
    return { ok: false, reply: errorMessage(SUBSCRIPTION_CHANGE_REFUSAL) };
  }
  return { ok: true, command };
}

const ephemeral = (message: SlackMessage) => ({ response_type: "ephemeral" as const, ...message });

/** The team and channel a command manages (the team names the objects; see src/objects/addresses.ts). */
export type Where = { teamId: string; channelId: string };
const where = (req: Request): Where => ({
  teamId: req.payload.team_id || DEFAULT_TEAM,
  channelId: req.payload.channel_id,
});

/**
 * Subscribing asks the vendor first (is the id real? what is the baseline?), so it runs after
 * the ack. A channel the bot cannot post in is refused with the fix, before anything is stored.
 */
async function subscribe(deps: Deps, given: SubscribeCommand, channel: Where, userId: string) {
  const ref = { ...channel, kind: given.kind, id: given.id };
  const index = await deps.control
    .channelIndex(channel.teamId, channel.channelId, deps.now())
    .catch(() => null);
  // The channel's index holds the subscription's live state (paused, muted, options); unread,
  // its object does (and the channel's count is unknown, which leaves room).
  const existing = index
    ? (index.entries.find((e) => e.key === indexKey(given.kind, given.id))?.subscription ?? null)
    : await deps.control.subscription(ref).catch(() => undefined);
  if (existing === undefined) return errorMessage(INDEX_UNREADABLE);
  const command = keepOptions(given, existing);
  const unchanged = existing && !existing.paused && !existing.muted && sameOptions(existing, command);
  // A row whose removal failed outlives its subscription: the object says whether one is there.
  if (existing && unchanged && (!index || (await deps.control.subscription(ref).catch(() => existing))))
    return subscribedMessage(
      await withStateNow(deps, ref, existing),
      deps.config.decipherAppUrl,
      true,
      null,
      undefined,
      deps.now(),
    );
  if (!existing) {
    const full = await capReached(deps, channel, index?.entries.length ?? 0);
    if (full) return errorMessage(full);
  }
  const postable = await channelPostable(deps.slack, channel.channelId);
  if (!postable.ok) return errorMessage(postable.reason);
  const who = { channelId: channel.channelId, userId, now: deps.now() };
  // A paused or muted subscription starts over from now: what it missed is not replayed.
  const fresh: Subscription = await kindSpec(command.kind).baseline(deps.vendor, command, who);
  const { subscription, created } = await deps.control.subscribe(ref, fresh);
  const reply = subscribedMessage(
    created ? subscription : await withStateNow(deps, ref, subscription),
    deps.config.decipherAppUrl,
    !created && subscription === existing,
    existing?.muted && created ? "muted" : (existing?.paused ?? null),
    existing && !sameOptions(existing, command) ? existing : undefined,
    deps.now(),
  );
  return withNotes(reply, [
    postable.warning,
    postable.shared ? SHARED_CHANNEL_NOTE : null,
    ...specOf(fresh).optionNotes(fresh),
  ]);
}

/**
 * A subscription already here, with its state as of now for the reply's "Now:": the index and
 * the object hold the state of its last poll, which a run finished since may have changed.
 * Unread (a collection, an object or Decipher not answering), the stored state stands.
 */
async function withStateNow(deps: Deps, ref: SubscriptionRef, sub: Subscription): Promise<Subscription> {
  const facts = await deps.control.stateNow(ref, deps.now()).catch(() => null);
  return facts ? ({ ...sub, stateFacts: facts } as Subscription) : sub;
}

/** Notes under a reply, shown (a block each) and in its notification text. */
function withNotes(message: SlackMessage, notes: (string | null)[]): SlackMessage {
  const shown = notes.filter((note): note is string => note !== null);
  if (shown.length === 0) return message;
  return {
    text: [message.text, ...shown].join("\n"),
    blocks: [...message.blocks, ...shown.map((note) => section(note))],
  };
}

/**
 * A new subscription past a cap (`SUBSCRIPTIONS_PER_CHANNEL`, `SUBSCRIPTIONS_PER_TEAM`): the
 * sentence that refuses it; null when there is room. Unknown counts leave room.
 */
async function capReached(deps: Deps, { teamId }: Where, inChannel: number): Promise<string | null> {
  const caps = deps.config.subscriptionCaps;
  if (inChannel >= caps.channel) return capSentence("channel", caps.channel);
  const health = await deps.control.health(teamId).catch(() => null);
  if ((health?.subscriptions ?? 0) >= caps.team) return capSentence("team", caps.team);
  return null;
}

/** Subscribing again to a watched test changes the options the command names and keeps the rest. */
function keepOptions(command: SubscribeCommand, existing: Subscription | null): SubscribeCommand {
  if (!existing || existing.kind !== command.kind) return command;
  // `command` is of `existing`'s kind (checked above), which the union's types cannot say.
  const given = command as never;
  return {
    ...command,
    ...specOf(existing).changedOptions(existing, given, command.given),
  } as SubscribeCommand;
}

function sameOptions(existing: Subscription, command: SubscribeCommand): boolean {
  return existing.kind !== command.kind || specOf(existing).sameOptions(existing, command);
}

/**
 * A page of `/decipher list` or `status`, from the channel's index (one call, however many
 * subscriptions); the More and First page buttons come back here (src/handlers/actions/channel-more.ts).
 */
export async function channelPageMessage(
  deps: Deps,
  view: ChannelPageValue["view"],
  { teamId, channelId }: Where,
  at: PageAt,
): Promise<SlackMessage> {
  const now = deps.now();
  const [index, health] = await Promise.all([
    deps.control.channelIndex(teamId, channelId, now).catch(() => null),
    view === "status" ? deps.control.health(teamId).catch(() => null) : null,
  ]);
  if (!index) return errorMessage(INDEX_UNREADABLE);
  const appUrl = deps.config.decipherAppUrl;
  if (view === "list") return listMessage(index.entries, index.digest, appUrl, now, index.weekly, at);
  const pausedHere = index.entries.filter((e) => e.subscription.paused).length;
  const elsewhere =
    health && health.paused > pausedHere ? await pausedElsewhere(deps, teamId, channelId, now) : [];
  return statusMessage(
    index.entries,
    health?.lastCycleAt
      ? { at: health.lastCycleAt, subscriptions: health.subscriptions, failed: health.erroring }
      : null,
    appUrl,
    now,
    health && { ...health, governed: governPace(deps.config.plan, health.subscriptions, health.teams) },
    at,
    elsewhere,
  );
}

/** Commands that touch only the bot's own state: answered inside the ack. */
async function answer(
  deps: Deps,
  command: QuickCommand,
  { teamId, channelId }: Where,
): Promise<SlackMessage> {
  switch (command.action) {
    case "help":
      return helpMessage();
    case "list":
    case "status":
      return channelPageMessage(deps, command.action, { teamId, channelId }, FIRST_PAGE);
    case "unsubscribe": {
      // Read first for its name: the reply says what stopped, not only its id.
      const index = await deps.control.channelIndex(teamId, channelId, deps.now()).catch(() => null);
      const entry = index?.entries.find((e) => e.key === indexKey(command.kind, command.id));
      const removed = await deps.control.unsubscribe({
        teamId,
        channelId,
        kind: command.kind,
        id: command.id,
      });
      return unsubscribedMessage(removed, command, entry?.subscription ?? null, deps.config.decipherAppUrl);
    }
    case "digest": {
      await deps.control.setDigest(teamId, channelId, { time: command.time, zone: command.zone }, deps.now());
      return plain(
        `Daily digest set for ${code(command.time)} ${command.zone}. The first one arrives at the next ${command.time}.`,
      );
    }
    case "digest-off": {
      const had = await deps.control.setDigest(teamId, channelId, null, deps.now());
      return plain(had ? "Daily digest turned off for this channel." : "This channel had no daily digest.");
    }
    case "weekly": {
      const when = { day: command.day, time: command.time, zone: command.zone };
      const now = deps.now();
      const previous = await deps.control.setWeekly(teamId, channelId, when, now);
      // The object computed the same from the same inputs: the reply names the real first time,
      // today's if it is still ahead, a week later if this week's report already went out.
      const first = weeklySchedule(when, now, previous).nextDueAt;
      return plain(
        `Weekly report set for ${WEEKDAY_NAMES[command.day]}s at ${code(command.time)} ${command.zone}. The first one arrives ${dateToken(first, DATE_FORMAT_AHEAD)}, then once a week.`,
      );
    }
    case "weekly-off": {
      const had = await deps.control.setWeekly(teamId, channelId, null, deps.now());
      return plain(had ? "Weekly report turned off for this channel." : "This channel had no weekly report.");
    }
  }
}

/** `/decipher ask …`: the mention's answer (src/handlers/commands/ask-answers.ts), to the person alone. */
async function askAndReply(deps: Deps, command: AskCommand, req: Request): Promise<void> {
  const teamUrl = req.context.authorizeResult?.url ?? null;
  const asker = req.payload.user_id;
  const message = await answerInChannel(command.question, deps, { ...where(req), teamUrl, userId: asker });
  await reply(req.context.respond, message, { replaceOriginal: true });
}

/** Decipher and Slack calls one id's subscribe may make: its runs read (up to 4 pages), the channel checked. */
const CALLS_PER_SUBSCRIBE = 6;

/** Each id of the command in turn (one vendor check each), answered in one message, a part per id. */
async function subscribeAndReply(deps: Deps, command: SubscribeCommand, req: Request): Promise<void> {
  const parts: SlackMessage[] = [];
  for (const [i, id] of command.ids.entries()) {
    if (!deps.budget.has(CALLS_PER_SUBSCRIBE)) {
      parts.push(notCheckedMessage(command.kind, command.ids.slice(i)));
      break;
    }
    const one = { ...command, id, ids: [id] };
    parts.push(
      await subscribe(deps, one, where(req), req.payload.user_id).catch((error: unknown) =>
        errorMessage(vendorErrorSentence(error, `${command.kind} ${id}`)),
      ),
    );
  }
  await reply(req.context.respond, joinedReplies(parts), { replaceOriginal: true });
}

/**
 * `/decipher …`: parsed once per request. Quick subcommands answer in the ack; `subscribe`
 * acks with a progress line that the lazy listener replaces with the answer.
 */
export function decipherCommand(deps: Deps) {
  const parsed = perRequest((req: Request) => read(req, deps));
  return {
    ack: async (req: Request) => {
      const p = parsed(req);
      if (!p.ok) return ephemeral(p.reply);
      const { command } = p;
      if (isSubscribe(command))
        return ephemeral(plain(`Checking ${command.kind} ${command.ids.join(", ")} with Decipher…`));
      if (command.action === "help") return helpAck();
      if (command.action === "ask") return ephemeral(plain("Looking that up…"));
      return ephemeral(await answer(deps, command, where(req)));
    },
    /** Only `subscribe` has work after the ack; the rest return nothing (no `waitUntil`). */
    lazy: (req: Request): Promise<void> | undefined => {
      const p = parsed(req);
      if (p.ok && p.command.action === "ask") return askAndReply(deps, p.command, req);
      if (!p.ok || !isSubscribe(p.command)) return undefined;
      return subscribeAndReply(deps, p.command, req);
    },
  };
}
