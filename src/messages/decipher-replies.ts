import { type EngineHealth, refOf } from "../model/alert-control.ts";
import { type IndexEntry, stateCounts } from "../model/channel-index.ts";
import { subscriptionId } from "../model/kind-facts.ts";
import { mentionToken } from "../model/mention.ts";
import { resolveTestOptions, type Subscription } from "../model/subscription.ts";
import { WEEKDAY_NAMES, type WeeklySchedule } from "../model/weekly-schedule.ts";
import type { DigestSchedule } from "../store/digest-store.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { type ChannelPageValue, encodeChannelPageValue } from "./button-values.ts";
import { actions, context, header, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncatePlain } from "./limits.ts";
import { collectionUrl, testUrl } from "./links.ts";
import { bold, code, DATE_FORMAT_AHEAD, dateToken, escapeMrkdwn, link, plural } from "./mrkdwn.ts";
import { FIRST_PAGE, linesPage, MORE_NOTE, type PageAt, pageButtons, pageLabel } from "./paging.ts";
import { engineNotes, itemLine, pollingLine, triageStateLines } from "./subscription-state-lines.ts";
import { unmuteButton } from "./triage-controls.ts";

/** Replies to `/decipher` subcommands: short, plain, one fact per line. */

/** A vendor name is cut here in list and status, so one huge name never crowds out the others. */
const NAME_CHARS = 300;

export function subscriptionLabel(subscription: Subscription, appUrl: string): string {
  return subscription.kind === "test"
    ? `test ${link(testUrl(appUrl, subscription.testId), `${truncatePlain(subscription.testName, NAME_CHARS)} (#${subscription.testId})`)}`
    : `collection ${link(collectionUrl(appUrl, subscription.collectionId), `#${subscription.collectionId}`)} — ${escapeMrkdwn(truncatePlain(subscription.rootCause, NAME_CHARS))}`;
}

/** A subscription's options as the command that would set them: what `list` and `status` show. */
export function optionsLine(subscription: Subscription): string {
  if (subscription.kind === "collection") {
    const ping = mentionToken(subscription.mention);
    const pings = ping ? ` · new alerts ping ${ping}` : "";
    return subscription.growth === null
      ? `options: the default growth, +5 sessions or +50 %, whichever is smaller (${code("growth:<n>")} sets another)${pings}`
      : `options: ${code(`growth:${subscription.growth}`)}${pings}`;
  }
  const o = resolveTestOptions(subscription.options);
  const parts = testOptionTokens(o);
  // Shown as a name, not as the option's token: these replies are ephemeral, so nobody is pinged.
  const ping = mentionToken(o.mention);
  return `options: ${parts.map((p) => code(p)).join(" ")}${ping ? ` · new failures ping ${ping}` : ""}`;
}

function growthRule(growth: number | null): string {
  return growth === null ? "by 5 or by 50 %, whichever is smaller," : `by ${plural(growth, "session")},`;
}

/**
 * One **Unmute** button per muted subscription (a row holds 25). Slack refuses two controls
 * with one action_id in a block, so the second is `triage_unmute:2`, and so on (all are
 * answered by the Unmute listener, src/handlers/slack-app.ts).
 */
export function unmuteButtons(subscriptions: readonly Subscription[]): MessageBlock[] {
  const buttons = subscriptions
    .filter((s) => s.muted)
    .map((s) => unmuteButton(refOf(s), `Unmute ${s.kind} ${subscriptionId(s)}`))
    .filter((b) => b !== null)
    .map((b, i) => (i === 0 ? b : { ...b, action_id: `${ACTION_IDS.triageUnmute}:${i + 1}` }));
  return actions(...buttons.slice(0, 25));
}

export function plain(text: string): SlackMessage {
  return fitMessage({ text, blocks: [section(text)] });
}

export function subscribedMessage(
  subscription: Subscription,
  appUrl: string,
  already: boolean,
  /** It was muted: subscribing again unmuted it (from a fresh baseline). */
  unmuted = false,
  /** The subscription before this command changed its options. */
  before?: Subscription,
): SlackMessage {
  const what = subscriptionLabel(subscription, appUrl);
  const rule =
    subscription.kind === "test"
      ? "I'll post here when a new run fails, and thread follow-ups until it passes again."
      : `I'll post here when its unresolved sessions grow ${growthRule(subscription.growth)} or when it comes back after being resolved.`;
  const lead = unmuted
    ? `Unmuted ${what}: this channel gets its alerts again, from now on.`
    : before
      ? `Changed the options of ${what} in this channel: ${optionTokens(before)} → ${optionTokens(subscription)}.`
      : already
        ? `This channel already watches ${what}; nothing changed.`
        : `Subscribed this channel to ${what}.`;
  const howToChange = already && !before ? [context(changeHint(subscription))] : [];
  return fitMessage({
    text: lead.replace(/<[^|>]*\|([^>]*)>/g, "$1"),
    blocks: [section(`${lead}\n${rule}`), context(optionsLine(subscription)), ...howToChange],
  });
}

/** The options as the tokens that set them, for a change's "old → new" (a mention as a name). */
function optionTokens(subscription: Subscription): string {
  const ping = (m: string | null | undefined) => {
    const token = mentionToken(m);
    return token ? [`mention:${token}`] : [];
  };
  if (subscription.kind === "collection") {
    const growth =
      subscription.growth === null ? "the default growth" : code(`growth:${subscription.growth}`);
    return [growth, ...ping(subscription.mention)].join(" ");
  }
  const o = resolveTestOptions(subscription.options);
  const parts = testOptionTokens(o);
  return [...parts.map((p) => code(p)), ...ping(o.mention)].join(" ");
}

function changeHint(subscription: Subscription): string {
  const example =
    subscription.kind === "test"
      ? `/decipher subscribe test ${subscription.testId} after:2`
      : `/decipher subscribe collection ${subscription.collectionId} growth:10`;
  return `To change them, subscribe again with the options you want, like ${code(example)}: options you leave out go back to their defaults.`;
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
      ...unmuteButtons(onPage),
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
  entries: readonly IndexEntry[],
  digest: DigestSchedule | null,
  appUrl: string,
  now: Date,
  weekly: WeeklySchedule | null = null,
  at: PageAt = FIRST_PAGE,
): SlackMessage {
  const lines = entries.map(({ subscription: s }) =>
    [
      `• ${subscriptionLabel(s, appUrl)}${s.paused ? ` — ${bold("paused")}: ${escapeMrkdwn(s.paused.reason)}` : ""}${s.muted ? ` — ${bold("muted")}` : ""}`,
      `   ${optionsLine(s)}`,
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
function lastAlertLine(entry: IndexEntry): string {
  return entry.lastAlert ? `last alert ${dateToken(entry.lastAlert.at)}` : "no alert yet";
}

/**
 * Per subscription: whether polling works (lastError, paused) apart from what the item is
 * doing (a test failing for 3 runs is "polling OK" and still red), then triage state.
 */
export function statusMessage(
  entries: readonly IndexEntry[],
  lastPoll: { at: string; subscriptions: number; failed: number } | null,
  appUrl: string,
  now: Date,
  health: EngineHealth | null = null,
  at: PageAt = FIRST_PAGE,
): SlackMessage {
  const poll = lastPoll
    ? // The count of the whole deployment is not this channel's (nor, with Add to Slack, this workspace's).
      `Last poll ${dateToken(lastPoll.at)}. Each subscription polls on its own clock: every 10 s while a run is running, every minute otherwise.`
    : "No poll has run yet since the bot started; each subscription polls within a minute of subscribing.";
  const lines = entries.map((entry) => {
    const s = entry.subscription;
    return [
      `• ${subscriptionLabel(s, appUrl)}`,
      `   ${optionsLine(s)}`,
      ...[
        itemLine(s, now),
        pollingLine(s),
        ...triageStateLines(s, now),
        ...engineNotes(s, now),
        `${lastAlertLine(entry)} · last change ${dateToken(s.lastChangeAt)}`,
      ].map((line) => `   ${line}`),
    ].join("\n");
  });
  const workspace = health?.slackWorkspace
    ? `:rotating_light: Slack refuses the bot's token or scopes (${health.slackWorkspace.code}) since ${dateToken(health.slackWorkspace.since)}: alerts are held back and retried.`
    : null;
  return channelPage({
    view: "status",
    title: "Decipher alerts status",
    fallback: `Status of ${plural(entries.length, "subscription")}.`,
    entries,
    lines,
    empty: "This channel watches nothing yet.",
    notes: [poll],
    extra: workspace ? [section(workspace)] : [],
    now,
    at,
  });
}

/** A test subscription's options as the tokens `/decipher subscribe` takes, mention aside. */
function testOptionTokens(o: ReturnType<typeof resolveTestOptions>): string[] {
  return [
    `flaky:${o.flaky}`,
    `after:${o.after}`,
    ...(o.trigger ? [`trigger:${o.trigger}`] : []),
    ...(o.page ? [`page:${o.page}`] : []),
  ];
}
