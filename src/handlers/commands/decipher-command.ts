import { kindOptions, type SubscribeCommand } from "../../kinds/kind-options.ts";
import { optionNames } from "../../kinds/option-reader.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { isSubscriptionKind, type SubscriptionKind } from "../../model/subscription-kind.ts";
import { parseWeekday, type Weekday } from "../../model/weekly-schedule.ts";
import { isValidZone, parseClockTime } from "../../util/local-time.ts";

/** Subscribing asks Decipher first, so it is answered after the ack. */
export type { SubscribeCommand };

/** Everything else reads or writes only the bot's own state, so the ack answers it. */
export type QuickCommand =
  | { action: "unsubscribe"; kind: SubscriptionKind; id: number }
  | { action: "list" }
  | { action: "status" }
  | { action: "help" }
  | { action: "digest"; time: string; zone: string }
  | { action: "digest-off" }
  | { action: "weekly"; day: Weekday; time: string; zone: string }
  | { action: "weekly-off" };

/** `/decipher ask <question>`: a question in words, answered after the ack (it may ask Decipher). */
export type AskCommand = { action: "ask"; question: string };

export type DecipherCommand = SubscribeCommand | QuickCommand | AskCommand;

export const isSubscribe = (command: DecipherCommand): command is SubscribeCommand =>
  command.action === "subscribe";

/** Subcommands that change what a channel watches (subject to ADMIN_USER_IDS). */
export function changesSubscriptions(command: DecipherCommand): boolean {
  return ["subscribe", "unsubscribe", "digest", "digest-off", "weekly", "weekly-off"].includes(
    command.action,
  );
}

function parseId(kind: string, raw: string | undefined): number {
  if (!raw) throw new CommandInputError(`Which ${kind}? Add its numeric id, like \`${kind} 101\`.`);
  if (!/^\d{1,15}$/.test(raw))
    throw new CommandInputError(
      `\`${raw.slice(0, 40)}\` is not a ${kind} id: ids are numbers, like \`101\`.`,
    );
  const id = Number(raw);
  if (id <= 0) throw new CommandInputError(`${kind} ids start at 1.`);
  return id;
}

/** Ids one `subscribe` takes: each is its own reply section, and the answer stays one message. */
export const IDS_PER_SUBSCRIBE = 10;

/**
 * `101`, `101 102 103`, `101,102` or `101-103` (a list pasted from Decipher): the ids before the
 * first option, in order, each once. A range counts every id in it.
 */
function parseIds(kind: string, tokens: readonly string[]): number[] {
  const ids: number[] = [];
  for (const token of tokens) {
    for (const part of token.split(",").filter(Boolean)) {
      const range = /^(\d{1,15})[-–](\d{1,15})$/.exec(part);
      const from = range ? parseId(kind, range[1]) : parseId(kind, part);
      const to = range ? parseId(kind, range[2]) : from;
      if (to < from || to - from >= IDS_PER_SUBSCRIBE)
        throw new CommandInputError(
          `\`${part.slice(0, 40)}\` is not a range I take: like \`101-103\`, lowest first.`,
        );
      for (let id = from; id <= to; id++) if (!ids.includes(id)) ids.push(id);
    }
  }
  if (ids.length === 0) return [parseId(kind, undefined)];
  if (ids.length > IDS_PER_SUBSCRIBE)
    throw new CommandInputError(
      `At most ${IDS_PER_SUBSCRIBE} ${kind}s at once: subscribe to the rest in a second command.`,
    );
  return ids;
}

function parseKind(raw: string | undefined): SubscriptionKind {
  const kind = raw?.toLowerCase();
  if (isSubscriptionKind(kind)) return kind;
  throw new CommandInputError("Say what to watch: `test <id>` or `collection <id>`.");
}

/**
 * `HH:MM` and an IANA zone, normalized; every problem at once (with `also`, one found
 * before), so a bad day, time and zone are all named in one reply.
 */
function parseWhen(time: string, zone: string, also = ""): { time: string; zone: string } {
  const clock = parseClockTime(time);
  const problems = [
    also,
    clock ? "" : `\`${time.slice(0, 40)}\` is not a time of day: use 24-hour \`HH:MM\`, like \`09:00\`.`,
    isValidZone(zone)
      ? ""
      : `\`${zone.slice(0, 60)}\` is not a time zone I know: use an IANA name like \`Europe/Berlin\` or \`UTC\`.`,
  ].filter(Boolean);
  if (!clock || problems.length > 0) throw new CommandInputError(problems.join(" "));
  return { time: `${String(clock.hour).padStart(2, "0")}:${String(clock.minute).padStart(2, "0")}`, zone };
}

/** Reads the text after `/decipher`. Throws `CommandInputError` with a sentence that says what to fix. */
export function parseDecipherCommand(text: string): DecipherCommand {
  const [verb = "help", ...rest] = text.trim().split(/\s+/).filter(Boolean);
  switch (verb.toLowerCase()) {
    case "help":
      return { action: "help" };
    case "ask":
      return { action: "ask", question: rest.join(" ") };
    case "list":
      return { action: "list" };
    case "status":
      return { action: "status" };
    case "subscribe": {
      const kind = parseKind(rest[0]);
      // The first word after the kind is its id (or says why not); more ids may follow it.
      let end = 2;
      while (end < rest.length && /^[\d,\-–]+$/.test(rest[end] ?? "")) end++;
      const ids = parseIds(kind, rest.slice(1, end));
      const options = rest.slice(end);
      // The options are the ones `kind`'s own spec read, which the union's types cannot say.
      const parsed = kindOptions(kind).parseOptions(options);
      return {
        action: "subscribe",
        kind,
        id: ids[0],
        ids,
        ...parsed,
        given: optionNames(options),
      } as SubscribeCommand;
    }
    case "unsubscribe": {
      const kind = parseKind(rest[0]);
      if (rest.length > 2)
        throw new CommandInputError("`unsubscribe` takes a kind and an id, like `unsubscribe test 101`.");
      return { action: "unsubscribe", kind, id: parseId(kind, rest[1]) };
    }
    case "digest": {
      const [time, zone = "UTC", ...extra] = rest;
      if (time?.toLowerCase() === "off" && rest.length === 1) return { action: "digest-off" };
      const usage =
        "Give a time of day and optionally a zone: `digest 09:00 Europe/Berlin`, or `digest off`.";
      if (!time || extra.length > 0) throw new CommandInputError(usage);
      return { action: "digest", ...parseWhen(time, zone) };
    }
    case "weekly": {
      const [day, time, zone = "UTC", ...extra] = rest;
      if (day?.toLowerCase() === "off" && rest.length === 1) return { action: "weekly-off" };
      const usage =
        "Give a day, a time of day and optionally a zone: `weekly mon 09:00 Europe/Berlin`, or `weekly off`.";
      if (!day || !time || extra.length > 0) throw new CommandInputError(usage);
      const weekday = parseWeekday(day);
      const dayProblem = weekday
        ? ""
        : `\`${day.slice(0, 40)}\` is not a day of the week: use \`mon\`, \`tue\`, … \`sun\`.`;
      const when = parseWhen(time, zone, dayProblem);
      return { action: "weekly", day: weekday as Weekday, ...when };
    }
    default:
      throw new CommandInputError(`\`${verb.slice(0, 40)}\` is not a /decipher command.`);
  }
}
