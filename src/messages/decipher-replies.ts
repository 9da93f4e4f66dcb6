import { type EngineHealth, refOf } from "../model/alert-control.ts";
import { mentionToken } from "../model/mention.ts";
import { resolveTestOptions, type Subscription } from "../model/subscription.ts";
import { WEEKDAY_NAMES, type WeeklySchedule } from "../model/weekly-schedule.ts";
import type { DigestSchedule } from "../store/digest-store.ts";
import { actions, context, header, packLines, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "./limits.ts";
import { collectionUrl, testUrl } from "./links.ts";
import { bold, code, dateToken, escapeMrkdwn, link, plural } from "./mrkdwn.ts";
import { engineNotes, itemLine, pollingLine, triageStateLines } from "./subscription-state-lines.ts";
import { unmuteButton } from "./triage-controls.ts";

/** Replies to `/decipher` subcommands: short, plain, one fact per line. */

export function subscriptionLabel(subscription: Subscription, appUrl: string): string {
  return subscription.kind === "test"
    ? `test ${link(testUrl(appUrl, subscription.testId), `${subscription.testName} (#${subscription.testId})`)}`
    : `collection ${link(collectionUrl(appUrl, subscription.collectionId), `#${subscription.collectionId}`)} — ${escapeMrkdwn(subscription.rootCause)}`;
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
  const parts = [
    `flaky:${o.flaky}`,
    `after:${o.after}`,
    ...(o.trigger ? [`trigger:${o.trigger}`] : []),
    ...(o.page ? [`page:${o.page}`] : []),
  ];
  // Shown as a name, not as the option's token: these replies are ephemeral, so nobody is pinged.
  const ping = mentionToken(o.mention);
  return `options: ${parts.map((p) => code(p)).join(" ")}${ping ? ` · new failures ping ${ping}` : ""}`;
}

function growthRule(growth: number | null): string {
  return growth === null ? "by 5 or by 50 %, whichever is smaller," : `by ${plural(growth, "session")},`;
}

/** One **Unmute** button per muted subscription (a row holds 25). */
export function unmuteButtons(subscriptions: readonly Subscription[]): MessageBlock[] {
  const buttons = subscriptions
    .filter((s) => s.muted)
    .map((s) => unmuteButton(refOf(s), `Unmute ${s.kind} ${s.kind === "test" ? s.testId : s.collectionId}`));
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
): SlackMessage {
  const what = subscriptionLabel(subscription, appUrl);
  const rule =
    subscription.kind === "test"
      ? "I'll post here when a new run fails, and thread follow-ups until it passes again."
      : `I'll post here when its unresolved sessions grow ${growthRule(subscription.growth)} or when it comes back after being resolved.`;
  const lead = unmuted
    ? `Unmuted ${what}: this channel gets its alerts again, from now on.`
    : already
      ? `This channel already watches ${what}.`
      : `Subscribed this channel to ${what}.`;
  return fitMessage({
    text: lead.replace(/<[^|>]*\|([^>]*)>/g, "$1"),
    blocks: [section(`${lead}\n${rule}`), context(optionsLine(subscription))],
  });
}

export function listMessage(
  subscriptions: Subscription[],
  digest: DigestSchedule | null,
  appUrl: string,
  now: Date,
  weekly: WeeklySchedule | null = null,
): SlackMessage {
  const lines = subscriptions.map((s) =>
    [
      `• ${subscriptionLabel(s, appUrl)}${s.paused ? ` — ${bold("paused")}: ${escapeMrkdwn(s.paused.reason)}` : ""}${s.muted ? ` — ${bold("muted")}` : ""}`,
      `   ${optionsLine(s)}`,
      ...triageStateLines(s, now).map((line) => `   ${line}`),
    ].join("\n"),
  );
  const digestLine = digest
    ? `Daily digest at ${code(digest.time)} ${escapeMrkdwn(digest.zone)}; next ${dateToken(digest.nextDueAt)}.`
    : "No daily digest (set one with `/decipher digest 09:00 Europe/Berlin`).";
  const weeklyLine = weekly
    ? `Weekly report on ${WEEKDAY_NAMES[weekly.day] ?? weekly.day}s at ${code(weekly.time)} ${escapeMrkdwn(weekly.zone)}; next ${dateToken(weekly.nextDueAt)}.`
    : "No weekly report (set one with `/decipher weekly mon 09:00 Europe/Berlin`).";
  const body =
    lines.length > 0
      ? lines.join("\n")
      : "This channel watches nothing yet. Try `/decipher subscribe test <id>` or `/decipher subscribe collection <id>`.";
  return fitMessage({
    text: `This channel watches ${plural(subscriptions.length, "item")}.`,
    blocks: [
      header("What this channel watches"),
      section(body),
      ...unmuteButtons(subscriptions),
      context(digestLine, weeklyLine),
    ],
  });
}

/**
 * Per subscription: whether polling works (lastError, paused) apart from what the item is
 * doing (a test failing for 3 runs is "polling OK" and still red), then triage state.
 */
export function statusMessage(
  subscriptions: Subscription[],
  lastPoll: { at: string; subscriptions: number; failed: number } | null,
  appUrl: string,
  now: Date,
  health: EngineHealth | null = null,
): SlackMessage {
  const poll = lastPoll
    ? `Last poll ${dateToken(lastPoll.at)} (${plural(lastPoll.subscriptions, "subscription")} checked).`
    : "No poll has run yet since the bot started; polls run every minute.";
  const entries = subscriptions.map((s) =>
    [
      `• ${subscriptionLabel(s, appUrl)}`,
      `   ${optionsLine(s)}`,
      ...[
        itemLine(s),
        pollingLine(s),
        ...triageStateLines(s, now),
        ...engineNotes(s, now),
        `last change ${dateToken(s.lastChangeAt)}`,
      ].map((line) => `   ${line}`),
    ].join("\n"),
  );
  const workspace = health?.slackWorkspace
    ? `:rotating_light: Slack refuses the bot's token or scopes (${health.slackWorkspace.code}) since ${dateToken(health.slackWorkspace.since)}: alerts are held back and retried.`
    : null;
  return fitMessage({
    text: `Status of ${plural(subscriptions.length, "subscription")}.`,
    blocks: [
      header("Decipher alerts status"),
      ...(entries.length > 0
        ? packLines(entries, 40, (n) => `_…and ${n} more_`)
        : [section("This channel watches nothing yet.")]),
      ...unmuteButtons(subscriptions),
      ...(workspace ? [section(workspace)] : []),
      context(poll),
    ],
  });
}
