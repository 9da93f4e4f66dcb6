import { type EngineHealth, refOf } from "../model/alert-control.ts";
import { type IndexEntry, stateCounts } from "../model/channel-index.ts";
import type { Governed } from "../model/plan-governor.ts";
import type { Paused, Subscription } from "../model/subscription.ts";
import { WEEKDAY_NAMES, type WeeklySchedule } from "../model/weekly-schedule.ts";
import type { DigestSchedule } from "../store/digest-store.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { type ChannelPageValue, encodeChannelPageValue } from "./button-values.ts";
import { clockNote } from "./clock-pace.ts";
import { actions, context, divider, header, section } from "./elements.ts";
import { type KindWords, type SubscriptionWords, wordsOf } from "./kind-words.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncatePlain } from "./limits.ts";
import { bold, code, DATE_FORMAT_AHEAD, dateToken, escapeMrkdwn, plural } from "./mrkdwn.ts";
import { FIRST_PAGE, linesPage, MORE_NOTE, type PageAt, pageButtons, pageLabel } from "./paging.ts";
import { engineNotes, pausedLine, pollingLine, triageStateLines } from "./subscription-state-lines.ts";
import { unmuteButton } from "./triage-controls.ts";

/** Replies to `/decipher` subcommands: short, plain, one fact per line. */

export function subscriptionLabel(words: KindWords, subscription: Subscription, appUrl: string): string {
  return wordsOf(words, subscription).label(subscription, appUrl);
}

/** A subscription's options as the command that would set them: what `list` and `status` show. */
export function optionsLine(words: KindWords, subscription: Subscription): string {
  return wordsOf(words, subscription).optionsLine(subscription);
}

/**
 * One **Unmute** button per muted subscription (a row holds 25). Slack refuses two controls
 * with one action_id in a block, so the second is `triage_unmute:2`, and so on (all are
 * answered by the Unmute listener, src/handlers/slack-app.ts).
 */
/** A name on an Unmute button: Slack's button text holds 75 characters. */
const BUTTON_NAME_CHARS = 60;

export function unmuteButtons(words: KindWords, subscriptions: readonly Subscription[]): MessageBlock[] {
  const buttons = subscriptions
    .filter((s) => s.muted)
    .map((s) =>
      unmuteButton(refOf(s), `Unmute ${truncatePlain(wordsOf(words, s).shortName(s), BUTTON_NAME_CHARS)}`),
    )
    .filter((b) => b !== null)
    .map((b, i) => (i === 0 ? b : { ...b, action_id: `${ACTION_IDS.triageUnmute}:${i + 1}` }));
  return actions(...buttons.slice(0, 25));
}

/** A reply's notification text: each link read as its label. */
const linkLabels = (mrkdwn: string) => mrkdwn.replace(/<[^|>]*\|([^>]*)>/g, "$1");

/**
 * `/decipher unsubscribe test 101`'s answer, naming what it watched ("test Checkout flow
 * (#101)") when the channel's index still held it, its kind and id otherwise.
 */
export function unsubscribedMessage(
  words: KindWords,
  removed: boolean,
  ref: { kind: string; id: number },
  subscription: Subscription | null,
  appUrl: string,
): SlackMessage {
  const what = subscription
    ? wordsOf(words, subscription).label(subscription, appUrl)
    : `${ref.kind} ${ref.id}`;
  const text = removed
    ? `Unsubscribed this channel from ${what}.`
    : `This channel was not subscribed to ${what}; nothing changed.`;
  return fitMessage({ text: linkLabels(text), blocks: [section(text)] });
}

/** Several replies as one message (`subscribe test 101 102`): each its own part, a divider between. */
export function joinedReplies(parts: readonly SlackMessage[]): SlackMessage {
  if (parts.length === 1 && parts[0]) return parts[0];
  return fitMessage({
    text: parts.map((p) => p.text).join("\n"),
    blocks: parts.flatMap((p, i) => (i === 0 ? p.blocks : [divider(), ...p.blocks])),
  });
}

/** The ids one command had no room left to check (its share of calls is spent), and how to ask again. */
export function notCheckedMessage(kind: string, ids: readonly number[]): SlackMessage {
  return plain(
    `Not subscribed yet: ${kind} ${ids.join(", ")}: one command has room to check only so many with Decipher. Send ${code(`/decipher subscribe ${kind} ${ids.join(" ")}`)} for them, with the same options.`,
  );
}

export function plain(text: string): SlackMessage {
  return fitMessage({ text, blocks: [section(text)] });
}

export function subscribedMessage(
  words: KindWords,
  subscription: Subscription,
  appUrl: string,
  already: boolean,
  /** What subscribing again ended: a mute (from a fresh baseline), or a pause (`Paused`). */
  ended: "muted" | Paused | null = null,
  /** The subscription before this command changed its options. */
  before?: Subscription,
  /** When the reply is read: it says the state the subscription found, as of now. */
  now?: Date,
): SlackMessage {
  const said = wordsOf(words, subscription);
  const what = said.label(subscription, appUrl);
  const state = now ? `Now: ${said.itemLine(subscription, now)}\n` : "";
  const rule = `${state}${said.rule(subscription)}`;
  const lead =
    ended === "muted"
      ? `Unmuted ${what}: this channel gets its alerts again, from now on.`
      : ended
        ? `Resumed ${what}, paused here since ${dateToken(ended.at)}: its alerts are posted here again.`
        : before
          ? `Changed the options of ${what} in this channel: ${wordsOf(words, before).optionTokens(before)} → ${said.optionTokens(subscription)}.`
          : already
            ? `This channel already watches ${what}; nothing changed.`
            : `Subscribed this channel to ${what}.`;
  const howToChange = already && !before ? [context(changeHint(said.changeExample(subscription)))] : [];
  return fitMessage({
    text: linkLabels(lead),
    blocks: [section(`${lead}\n${rule}`), context(said.optionsLine(subscription)), ...howToChange],
  });
}

function changeHint(example: string): string {
  return `To change them, subscribe again with the options you want, like ${code(example)}: options you leave out stay as they are, and \`<option>:default\` puts one back.`;
}

/** Subscriptions a page of list or status shows at most: their Unmute buttons fit one row. */
export const SUBSCRIPTIONS_PER_PAGE = 25;
/** Sections a page may take (each up to 3,000 characters), well inside 50 blocks. */
const SECTIONS_PER_PAGE = 10;

/**
 * "200 subscriptions: 3 need attention · 1 paused": the channel at a glance, on every page. An
 * open failure alert, a poll that fails or a regressed collection needs attention: the rows
 * below name the test's class ("flaky", "broken"), so the headline does not say "failing".
 */
export function stateSummary(entries: readonly IndexEntry[], now: Date): string {
  const counts = stateCounts(entries, now);
  const parts = (["failing", "paused", "snoozed", "muted"] as const)
    .filter((state) => counts[state] > 0)
    .map((state) =>
      state === "failing"
        ? `${counts[state]} ${counts[state] === 1 ? "needs" : "need"} attention`
        : `${counts[state]} ${state}`,
    );
  return `${plural(entries.length, "subscription")}${parts.length > 0 ? `: ${parts.join(" · ")}` : ""}`;
}

/**
 * One page of a channel's subscriptions: a header, the entries from `at.from` (as many as fit,
 * see src/messages/paging.ts), the Unmute buttons of those shown, the notes, and the More and
 * First page buttons.
 */
function channelPage(p: {
  words: KindWords;
  view: ChannelPageValue["view"];
  title: string;
  /** The notification text. */
  fallback: string;
  entries: readonly IndexEntry[];
  lines: readonly string[];
  empty: string;
  notes: string[];
  extra: MessageBlock[];
  now: Date;
  at: PageAt;
}): SlackMessage {
  const { sections, shown, next } = linesPage(p.lines, p.at.from, {
    maxLines: SUBSCRIPTIONS_PER_PAGE,
    maxSections: SECTIONS_PER_PAGE,
  });
  const from = Math.min(p.at.from, p.entries.length);
  const onPage = p.entries.slice(from, from + shown).map((e) => e.subscription);
  const showing =
    p.entries.length > shown ? `Showing ${from + 1}–${from + shown} of ${p.entries.length}` : "";
  const more =
    next === null ? null : encodeChannelPageValue({ view: p.view, from: next, page: p.at.page + 1 });
  return fitMessage({
    text: p.fallback,
    blocks: [
      header(p.title),
      context(stateSummary(p.entries, p.now)),
      ...(p.entries.length > 0 ? sections : [section(p.empty)]),
      ...unmuteButtons(p.words, onPage),
      ...p.extra,
      context(
        ...p.notes,
        ...[[pageLabel(p.at.page), showing, more ? MORE_NOTE : ""].filter(Boolean).join(" · ")].filter(
          Boolean,
        ),
      ),
      ...pageButtons({
        page: p.at.page,
        first: encodeChannelPageValue({ view: p.view, from: 0, page: 1 }),
        more,
        actionIds: { first: ACTION_IDS.channelFirst, more: ACTION_IDS.channelMore },
      }),
    ],
  });
}

export function listMessage(
  words: KindWords,
  entries: readonly IndexEntry[],
  digest: DigestSchedule | null,
  appUrl: string,
  now: Date,
  weekly: WeeklySchedule | null = null,
  at: PageAt = FIRST_PAGE,
): SlackMessage {
  const lines = entries.map(({ subscription: s }) =>
    [
      `• ${subscriptionLabel(words, s, appUrl)}${s.paused ? ` — ${bold("paused")}: ${escapeMrkdwn(s.paused.reason)}` : ""}${s.muted ? ` — ${bold("muted")}` : ""}`,
      `   ${optionsLine(words, s)}`,
      ...triageStateLines(s, now).map((line) => `   ${line}`),
    ].join("\n"),
  );
  const digestLine = digest
    ? `Daily digest at ${code(digest.time)} ${escapeMrkdwn(digest.zone)}; next ${dateToken(digest.nextDueAt, DATE_FORMAT_AHEAD)}.`
    : "No daily digest (set one with `/decipher digest 09:00 Europe/Berlin`).";
  const weeklyLine = weekly
    ? `Weekly report on ${WEEKDAY_NAMES[weekly.day] ?? weekly.day}s at ${code(weekly.time)} ${escapeMrkdwn(weekly.zone)}; next ${dateToken(weekly.nextDueAt, DATE_FORMAT_AHEAD)}.`
    : "No weekly report (set one with `/decipher weekly mon 09:00 Europe/Berlin`).";
  return channelPage({
    words,
    view: "list",
    title: "What this channel watches",
    fallback: `This channel watches ${plural(entries.length, "item")}.`,
    entries,
    lines,
    empty:
      "This channel watches nothing yet. Try `/decipher subscribe test <id>` or `/decipher subscribe collection <id>`.",
    notes: [digestLine, weeklyLine],
    extra: [],
    now,
    at,
  });
}

/** When the subscription last alerted in the channel (its thread), from the channel's index. */
function lastAlertLine(said: SubscriptionWords<Subscription>, entry: IndexEntry): string {
  return entry.lastAlert ? `last alert ${dateToken(entry.lastAlert.at)}` : said.noAlertYet;
}

/**
 * Per subscription: whether polling works (lastError, paused) apart from what the item is
 * doing (a test failing for 3 runs is "polling OK" and still red), then triage state.
 */
export function statusMessage(
  words: KindWords,
  entries: readonly IndexEntry[],
  lastPoll: { at: string; subscriptions: number; failed: number } | null,
  appUrl: string,
  now: Date,
  /** With the governor's pace (src/model/plan-governor.ts), when the handler knows the plan. */
  health: (EngineHealth & { governed?: Governed }) | null = null,
  at: PageAt = FIRST_PAGE,
  /** Subscriptions of other channels that are paused: a pause is shown from any channel. */
  pausedElsewhere: readonly Subscription[] = [],
): SlackMessage {
  const clock = clockNote(health?.governed ?? null);
  const poll = lastPoll
    ? // The count of the whole deployment is not this channel's (nor, with Add to Slack, this workspace's).
      `Last poll ${dateToken(lastPoll.at)}. ${clock.note}`
    : `No poll has run yet since the bot started; each subscription polls within a minute of subscribing.${clock.stretched ? ` ${clock.note}` : ""}`;
  // At a glance: what it is and how it is doing on one line, then its options and last alert,
  // then only what needs someone (polling trouble, triage, failures not posted).
  const lines = entries.map((entry) => {
    const s = entry.subscription;
    const said = wordsOf(words, s);
    return [
      `• ${subscriptionLabel(words, s, appUrl)} — ${said.itemLine(s, now)}`,
      ...[
        `${lastAlertLine(said, entry)} · ${said.optionTokens(s)}`,
        pollingLine(said, s),
        ...triageStateLines(s, now),
        ...engineNotes(said, s, now),
      ]
        .filter(Boolean)
        .map((line) => `   ${line}`),
    ].join("\n");
  });
  const workspace = health?.slackWorkspace
    ? `:rotating_light: Slack refuses the bot's token or scopes (${health.slackWorkspace.code}) since ${dateToken(health.slackWorkspace.since)}: alerts are held back and retried.`
    : null;
  return channelPage({
    words,
    view: "status",
    title: "Decipher alerts status",
    fallback: `Status of ${plural(entries.length, "subscription")}.`,
    entries,
    lines,
    empty: "This channel watches nothing yet.",
    notes: [poll],
    extra: [
      ...(clock.warning ? [section(clock.warning)] : []),
      ...(workspace ? [section(workspace)] : []),
      ...(pausedElsewhere.length > 0 ? [pausedElsewhereSection(words, pausedElsewhere, appUrl)] : []),
    ],
    now,
    at,
  });
}

/** "Paused in other channels": each with its channel, reason and next try, as its own status says. */
function pausedElsewhereSection(words: KindWords, subs: readonly Subscription[], appUrl: string) {
  const lines = subs.flatMap((s) =>
    s.paused ? [`• ${subscriptionLabel(words, s, appUrl)}: ${pausedLine(s, s.paused)}`] : [],
  );
  return section(`*Paused in other channels*\n${lines.join("\n")}`);
}

/** A subscribe refused at a cap (src/config.ts `subscriptionCaps`): where, and what to do. */
export function capSentence(where: "channel" | "team", cap: number): string {
  return where === "channel"
    ? `This channel already watches ${cap} items, the most one channel may. Unsubscribe one first (\`/decipher list\` shows them), or watch it from another channel.`
    : `This workspace already watches ${cap} items, the most it may. Unsubscribe some first; whoever runs the bot can raise SUBSCRIPTIONS_PER_TEAM.`;
}

/** A channel's index did not answer: list, status and `@Decipher what's broken` say so. */
export const INDEX_UNREADABLE =
  "This channel's subscriptions could not be read just now. Nothing changed; try again in a minute.";

/** A question in a DM or the assistant pane while Slack cannot say which channels the person is in. */
export const CHANNELS_UNCHECKED =
  "Slack could not tell me which channels you are in just now, so I cannot say what they watch. Try again in a minute, or ask in a channel with @Decipher.";
