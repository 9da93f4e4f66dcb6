import type { SlackEdgeAppEnv, SlackRequestWithRespond, SlashCommand } from "slack-edge";
import { baselineCollection, baselineTest } from "../../alerts/baseline.ts";
import { nextOccurrence } from "../../alerts/schedule.ts";
import { readHeartbeat } from "../../state/heartbeat.ts";
import type { Subscription } from "../../state/subscription-types.ts";
import { subscriptionKey } from "../../state/subscriptions.ts";
import { decipherHelpMessage, errorMessage } from "../blocks/index.ts";
import type { Deps } from "../deps.ts";
import type { SlackMessage } from "../limits.ts";
import { code } from "../mrkdwn.ts";
import { perRequest } from "../per-request.ts";
import { listMessage, plain, statusMessage, subscribedMessage } from "../replies/decipher-replies.ts";
import { reply } from "../respond.ts";
import { vendorErrorSentence } from "../vendor-error-message.ts";
import {
  changesSubscriptions,
  type DecipherCommand,
  isSubscribe,
  parseDecipherCommand,
  type QuickCommand,
  type SubscribeCommand,
} from "./decipher-command.ts";
import { CommandInputError } from "./parse-error.ts";

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
  const admins = deps.config.adminUserIds;
  if (changesSubscriptions(command) && admins.size > 0 && !admins.has(req.payload.user_id)) {
    return {
      ok: false,
      reply: errorMessage(
        "Only the bot's admins can change what this channel watches. Ask one of them, or use `/decipher list` and `/decipher status`.",
      ),
    };
  }
  return { ok: true, command };
}

const ephemeral = (message: SlackMessage) => ({ response_type: "ephemeral" as const, ...message });

/** Subscribing asks the vendor first (is the id real? what is the baseline?), so it runs after the ack. */
async function subscribe(deps: Deps, command: SubscribeCommand, channelId: string, userId: string) {
  const existing = await deps.subscriptions.get(channelId, command.kind, command.id);
  if (existing && !existing.paused) {
    // Repairs an index entry a concurrent subscribe may have lost.
    await deps.subscriptions.ensureIndexed(subscriptionKey(existing));
    if (
      existing.kind === "collection" &&
      command.kind === "collection" &&
      existing.growth !== command.growth
    ) {
      const updated = { ...existing, growth: command.growth, lastChangeAt: deps.now().toISOString() };
      await deps.subscriptions.update(updated);
      return subscribedMessage(updated, deps.config.decipherAppUrl, false);
    }
    return subscribedMessage(existing, deps.config.decipherAppUrl, true);
  }
  const who = { channelId, userId, now: deps.now() };
  // A paused subscription starts over from now: alerts it missed while paused are not replayed.
  const fresh: Subscription =
    command.kind === "test"
      ? await baselineTest(deps.vendor, command.id, who)
      : await baselineCollection(deps.vendor, command.id, command.growth, who);
  await deps.subscriptions.save(fresh);
  return subscribedMessage(fresh, deps.config.decipherAppUrl, false);
}

/** Commands that touch only the bot's own state: answered inside the ack. */
async function answer(deps: Deps, command: QuickCommand, channelId: string): Promise<SlackMessage> {
  const appUrl = deps.config.decipherAppUrl;
  switch (command.action) {
    case "help":
      return decipherHelpMessage();
    case "list":
      return listMessage(
        await deps.subscriptions.listForChannel(channelId),
        await deps.digests.get(channelId),
        appUrl,
        deps.now(),
      );
    case "status":
      return statusMessage(
        await deps.subscriptions.listForChannel(channelId),
        await readHeartbeat(deps.kv),
        appUrl,
        deps.now(),
      );
    case "unsubscribe": {
      const removed = await deps.subscriptions.remove(channelId, command.kind, command.id);
      return plain(
        removed
          ? `Unsubscribed this channel from ${command.kind} ${command.id}.`
          : `This channel was not subscribed to ${command.kind} ${command.id}; nothing changed.`,
      );
    }
    case "digest": {
      const previous = await deps.digests.get(channelId);
      const nextDueAt = nextOccurrence(command.time, command.zone, deps.now()).toISOString();
      await deps.digests.set(channelId, {
        time: command.time,
        zone: command.zone,
        nextDueAt,
        lastSentAt: previous?.lastSentAt ?? null,
        collectionCounts: previous?.collectionCounts ?? {},
      });
      return plain(
        `Daily digest set for ${code(command.time)} ${command.zone}. The first one arrives at the next ${command.time}.`,
      );
    }
    case "digest-off": {
      const had = await deps.digests.get(channelId);
      await deps.digests.set(channelId, null);
      return plain(had ? "Daily digest turned off for this channel." : "This channel had no daily digest.");
    }
  }
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
        return ephemeral(plain(`Checking ${command.kind} ${command.id} with Decipher…`));
      return ephemeral(await answer(deps, command, req.payload.channel_id));
    },
    lazy: async (req: Request) => {
      const p = parsed(req);
      if (!p.ok || !isSubscribe(p.command)) return;
      const { command } = p;
      const message = await subscribe(deps, command, req.payload.channel_id, req.payload.user_id).catch(
        (error: unknown) => errorMessage(vendorErrorSentence(error, `${command.kind} ${command.id}`)),
      );
      await reply(req.context.respond, message, { replaceOriginal: true });
    },
  };
}
