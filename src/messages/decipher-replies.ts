import type { EngineHealth } from "../model/alert-control.ts";
import { resolveTestOptions, type Subscription } from "../model/subscription.ts";
import type { DigestSchedule } from "../store/digest-store.ts";
import { context, header, packLines, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { testUrl } from "./links.ts";
import { bold, code, dateToken, escapeMrkdwn, link } from "./mrkdwn.ts";
import { engineNotes, itemLine, pollingLine, triageStateLines } from "./subscription-state-lines.ts";

/** Replies to `/decipher` subcommands: short, plain, one fact per line. */

export function subscriptionLabel(subscription: Subscription, appUrl: string): string {
  return subscription.kind === "test"
    ? `test ${link(testUrl(appUrl, subscription.testId), `${subscription.testName} (#${subscription.testId})`)}`
    : // The app has no documented collection URL, so collections are named, not linked.
      `collection #${subscription.collectionId} — ${escapeMrkdwn(subscription.rootCause)}`;
}

/** A subscription's options as the command that would set them: what `list` and `status` show. */
export function optionsLine(subscription: Subscription): string {
  if (subscription.kind === "collection") {
    return `options: ${code(subscription.growth === null ? "growth:default" : `growth:${subscription.growth}`)}`;
  }
  const o = resolveTestOptions(subscription.options);
  const parts = [
    `flaky:${o.flaky}`,
    `after:${o.after}`,
    ...(o.trigger ? [`trigger:${o.trigger}`] : []),
    ...(o.page ? [`page:${o.page}`] : []),
  ];
  return `options: ${parts.map((p) => code(p)).join(" ")}`;
}

function growthRule(growth: number | null): string {
  return growth === null
    ? "grows by 5 sessions or 50 %, whichever is smaller"
    : `grows by ${growth} sessions`;
}

export function plain(text: string): SlackMessage {
  return fitMessage({ text, blocks: [section(text)] });
}

export function subscribedMessage(
  subscription: Subscription,
  appUrl: string,
  already: boolean,
): SlackMessage {
  const what = subscriptionLabel(subscription, appUrl);
  const rule =
    subscription.kind === "test"
      ? "I'll post here when a new run fails, and thread follow-ups until it passes again."
      : `I'll post here when its unresolved sessions ${growthRule(subscription.growth)}, or when it comes back after being resolved.`;
  const lead = already ? `This channel already watches ${what}.` : `Subscribed this channel to ${what}.`;
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
): SlackMessage {
  const lines = subscriptions.map((s) =>
    [
      `• ${subscriptionLabel(s, appUrl)}${s.paused ? ` — ${bold("paused")}: ${escapeMrkdwn(s.paused.reason)}` : ""}`,
      `   ${optionsLine(s)}`,
      ...triageStateLines(s, now).map((line) => `   ${line}`),
    ].join("\n"),
  );
  const digestLine = digest
    ? `Daily digest at ${code(digest.time)} ${escapeMrkdwn(digest.zone)}; next ${dateToken(digest.nextDueAt)}.`
    : "No daily digest (set one with `/decipher digest 09:00 Europe/Berlin`).";
  const body =
    lines.length > 0
      ? lines.join("\n")
      : "This channel watches nothing yet. Try `/decipher subscribe test <id>` or `/decipher subscribe collection <id>`.";
  return fitMessage({
    text: `This channel watches ${subscriptions.length} item(s).`,
    blocks: [header("What this channel watches"), section(body), context(digestLine)],
  });
}

/**
 * Per subscription: whether polling works (lastError, paused) apart from what the item is
 * doing (a test failing for 3 runs is "polling OK" and still red), then triage state.
 */
export function statusMessage(
  subscriptions: Subscription[],
  heartbeat: { at: string; subscriptions: number; failed: number } | null,
  appUrl: string,
  now: Date,
  health: EngineHealth | null = null,
): SlackMessage {
  const poll = heartbeat
    ? `Last poll ${dateToken(heartbeat.at)} (${heartbeat.subscriptions} subscription(s) checked).`
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
    text: `Status of ${subscriptions.length} subscription(s).`,
    blocks: [
      header("Decipher alerts status"),
      ...(entries.length > 0
        ? packLines(entries, 40, (n) => `_…and ${n} more_`)
        : [section("This channel watches nothing yet.")]),
      ...(workspace ? [section(workspace)] : []),
      context(poll),
    ],
  });
}
