import type { HomeTabView, SectionBlock } from "slack-edge";
import { factsOf, subscriptionId } from "../model/kind-facts.ts";
import { mentionToken } from "../model/mention.ts";
import type { Subscription } from "../model/subscription.ts";
import { type Acknowledgement, isSnoozed, type Muted, type Snooze } from "../model/triage-state.ts";
import { lookingLine, snoozeEnd } from "./alert-status.ts";
import { unmuteButtons } from "./decipher-replies.ts";
import { button, context, divider, header, packLines, section } from "./elements.ts";
import { type KindWords, wordsOf } from "./kind-words.ts";
import { fitMessage, type MessageBlock } from "./limits.ts";
import { dateToken, mention, oneLine, plural } from "./mrkdwn.ts";
import { isRichBlock, type RichBlock } from "./rich-blocks.ts";
import { mutedStateLine, pausedLine } from "./subscription-state-lines.ts";

/** Slack refuses a Home view of more than 100 blocks. */
export const HOME_MAX_BLOCKS = 100;
export const FIND_SESSIONS_ACTION_ID = "home_find_sessions";
/**
 * Sections one channel may take at least before its list is cut ("and N more"); a view of few
 * channels shares its 100 blocks among them, so one big channel shows every subscription.
 */
const SECTIONS_PER_CHANNEL = 3;

export type HomeInput = {
  subscriptions: Subscription[];
  appUrl: string;
  /** The workspace's URL (`https://acme.slack.com/`) from auth.test, for alert permalinks. */
  teamUrl: string | null;
  /** Subscriptions that exist but could not be read (not shown). */
  unreadable?: number;
  /** Slack could not say which channels the person is in, so none is shown. */
  unchecked?: boolean;
  /** When the view is built (default: now): only a copy stored before tests kept their state facts reads it. */
  now?: Date;
  /** The clock's pace, when the governor slowed it (src/messages/clock-pace.ts `homeClockLine`). */
  clockLine?: string | null;
};

/** Read defensively: an older KV copy may lack these fields or hold an earlier shape. */
type Triage = { acknowledgedBy?: unknown; snooze?: unknown; muted?: unknown };

function mutedOf(sub: Subscription): Muted | null {
  const value = (sub as Triage).muted as Partial<Muted> | null | undefined;
  return value && typeof value.by === "string" && typeof value.at === "string" ? (value as Muted) : null;
}

const isAck = (value: unknown): value is Acknowledgement =>
  !!value &&
  typeof value === "object" &&
  typeof (value as Acknowledgement).userId === "string" &&
  typeof (value as Acknowledgement).at === "string";

/** Who acknowledged the current alert, latest last (a list; a lone record counts too). */
function acknowledgements(sub: Subscription): Acknowledgement[] {
  const value = (sub as Triage).acknowledgedBy;
  return (Array.isArray(value) ? value : [value]).filter(isAck);
}

function snooze(sub: Subscription): Snooze | null {
  const value = (sub as Triage).snooze;
  if (!value || typeof value !== "object") return null;
  const s = value as Partial<Snooze>;
  return typeof s.by === "string" && s.choice && typeof s.choice === "object" ? (s as Snooze) : null;
}

export function permalink(teamUrl: string | null, channelId: string, ts: string): string | null {
  if (!teamUrl || !/^\d+\.\d+$/.test(ts)) return null;
  return `${teamUrl.replace(/\/+$/, "")}/archives/${channelId}/p${ts.replace(".", "")}`;
}

/** In the alerts' and status's words (src/messages/alert-status.ts): one state, one way of saying it. */
function snoozeText(s: Snooze): string {
  return `:sleeping: snoozed by ${mention(s.by)} ${snoozeEnd(s)}`;
}

/**
 * One line per subscription, read at a glance: what it is, how it is doing and its thread,
 * then only what needs someone (a pause, polling trouble, a mute, overdue, a snooze, who is
 * looking). Polling that works says nothing.
 */
export function subscriptionLine(
  words: KindWords,
  sub: Subscription,
  appUrl: string,
  teamUrl: string | null,
  now: Date = new Date(),
): string {
  const said = wordsOf(words, sub);
  const muted = mutedOf(sub);
  const polling = sub.lastError
    ? `${sub.lastError.checking ? ":hourglass_flowing_sand: checking" : ":warning: polling failed"} since ${dateToken(sub.erroringSince ?? sub.lastError.at)}: ${oneLine(sub.lastError.message.slice(0, 200))}`
    : "";
  // A pause and a mute each need someone, whichever came first. A kind polled while muted (a
  // test) keeps its state current, and its polling can fail while muted; a kind not polled
  // while muted says so instead.
  const polled = !muted || factsOf(sub).pollsWhileMuted;
  const health = [
    sub.paused ? pausedLine(sub, { ...sub.paused, reason: sub.paused.reason.slice(0, 200) }) : "",
    muted ? mutedStateLine(muted) : "",
    sub.paused ? "" : polled ? polling : said.mutedPolling,
  ];
  // A timed snooze that ran out is over, though its next poll has not cleared it yet.
  const s = snooze(sub);
  const snoozed = s && isSnoozed({ snooze: s }, now) ? s : null;
  const acks = acknowledgements(sub).slice(-3);
  const overdue = sub.overdue ?? 0;
  // A view never notifies anyone: the mention shows as the person's or group's name.
  const ping = mentionToken(said.mention(sub));
  return [
    `• ${said.homeName(sub, appUrl)} — ${said.homeLastAlert(sub, teamUrl, now)}`,
    ...health,
    overdue > 0 ? `:rotating_light: ${overdue} overdue (${said.overdueWhat} not told after 5 min)` : "",
    snoozed ? snoozeText(snoozed) : "",
    lookingLine(acks),
    ping ? `:bell: pings ${ping}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

const byChannel = (subs: Subscription[]) => {
  const map = new Map<string, Subscription[]>();
  for (const sub of [...subs].sort((a, b) => a.channelId.localeCompare(b.channelId))) {
    map.set(sub.channelId, [...(map.get(sub.channelId) ?? []), sub]);
  }
  for (const list of map.values()) {
    list.sort((a, b) =>
      a.kind === b.kind ? subscriptionId(a) - subscriptionId(b) : a.kind.localeCompare(b.kind),
    );
  }
  return map;
};

/**
 * The App Home: a Find sessions button, then each of the person's channels that the bot watches
 * (as `<#C…>`) with its subscriptions' health and last alerts.
 * Never more than 100 blocks: channels that do not fit are counted in a last line.
 * No relative times ("3 min ago"): the view's hash decides whether to republish.
 */
export function homeView(words: KindWords, input: HomeInput): HomeTabView {
  const top: MessageBlock[] = [
    header("Decipher"),
    {
      ...section(
        "Session replays, failed browser tests and growing issues. Paste a Decipher link in a channel and I explain it.",
      ),
      accessory:
        button({
          text: "Find sessions",
          actionId: FIND_SESSIONS_ACTION_ID,
          value: "open",
          style: "primary",
        }) ?? undefined,
    } as SectionBlock,
    ...(input.clockLine ? [context(input.clockLine)] : []),
    divider(),
  ];
  const footer: MessageBlock[] = [
    divider(),
    context(
      "Last alerts: only each subscription's latest alert thread is recorded (a test's current failure streak, a collection's last alert). `/decipher status` in a channel shows more.",
    ),
  ];
  const channels = byChannel(input.subscriptions);
  const body: MessageBlock[] = [];
  if (input.unchecked) {
    body.push(
      section(
        "Slack could not tell me which channels you are in just now, so I show none. Open this tab again in a minute; `/decipher status` in a channel works meanwhile.",
      ),
    );
  } else if (channels.size === 0) {
    body.push(
      section(
        "None of your channels is subscribed to anything yet. In a channel, type `/decipher subscribe test <id>`.",
      ),
    );
  }
  const room = HOME_MAX_BLOCKS - top.length - footer.length - 1;
  const left = [...channels.keys()];
  // Each channel's share of the room, less one block for its row of Unmute buttons.
  const share = Math.max(SECTIONS_PER_CHANNEL, Math.floor(room / Math.max(1, channels.size)) - 1);
  for (const [channelId, subs] of channels) {
    const lines = subs.map((s) => subscriptionLine(words, s, input.appUrl, input.teamUrl, input.now));
    const sections = [
      ...packLines(
        [`*<#${channelId}>* · ${plural(subs.length, "subscription")}`, ...lines],
        share,
        (n) => `_…and ${plural(n, "more subscription")}: \`/decipher list\` in <#${channelId}>_`,
      ),
      ...unmuteButtons(
        words,
        subs.filter((s) => mutedOf(s) !== null),
      ),
    ];
    if (body.length + sections.length > room) break;
    body.push(...sections);
    left.shift();
  }
  // Named, so each can be found (a channel mention is short: the line holds some 150 of them).
  if (left.length > 0)
    body.push(
      context(
        `…and ${plural(left.length, "more channel")} not shown (\`/decipher list\` in each shows what it watches): ${left.map((id) => `<#${id}>`).join(", ")}`,
      ),
    );
  if (input.unreadable)
    body.push(context(`${plural(input.unreadable, "subscription")} could not be read right now.`));
  // Fitted one by one: fitMessage caps a message at 50 blocks, a Home view may have 100.
  // A Home view has no charts or tables (Slack allows them in messages only).
  const blocks = [...top, ...body, ...footer]
    .flatMap((b) => fitMessage({ text: "Decipher", blocks: [b] }).blocks)
    .filter((b): b is Exclude<MessageBlock, RichBlock> => !isRichBlock(b));
  return { type: "home", blocks: blocks.slice(0, HOME_MAX_BLOCKS) };
}
