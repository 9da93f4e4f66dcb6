import { factsOf, subscriptionId } from "../model/kind-facts.ts";
import type { CollectionSubscription, Paused, Subscription } from "../model/subscription.ts";
import type { Acknowledgement, Muted, Snooze } from "../model/triage-state.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { snoozeEnd } from "./alert-status.ts";
import type { SubscriptionWords } from "./kind-words.ts";
import { bold, code, dateToken, escapeMrkdwn, mention, plural } from "./mrkdwn.ts";
import { resubscribeCommand } from "./triage-controls.ts";

/**
 * Triage state as stored on a subscription by the engine. A stored copy may lack any of these
 * fields, so each is optional and absent reads as "nobody".
 */
type StoredTriage = {
  acknowledgedBy?: Acknowledgement[] | null;
  snooze?: Snooze | null;
  muted?: Muted | null;
};

const triageOf = (s: Subscription): StoredTriage =>
  s as Omit<Subscription, keyof StoredTriage> & StoredTriage;

/** "🔕 muted by @ana on Feb 16 at 9:00: nothing is posted": what `status`, `list` and Home say, above their Unmute button. */
export function mutedStateLine(muted: Muted): string {
  return `:no_bell: ${bold("muted")} by ${mention(muted.by)} ${dateToken(muted.at)}: nothing is posted`;
}

/**
 * A pause in the words status, Home and the other channels' status use, true whenever read:
 * since when, why, and what ends it ("Paused in #alerts since …: Slack says that channel is
 * read-only (…). I'll try again …, or subscribe there again to resume now.").
 */
export function pausedLine(s: Pick<Subscription, "channelId">, paused: Paused): string {
  const reason = escapeMrkdwn(paused.reason);
  if (!paused.retryAt)
    return `:double_vertical_bar: polling ${bold("paused")} since ${dateToken(paused.at)}: ${reason} Subscribe again to resume, or unsubscribe if it is gone for good.`;
  const where = /^[CG][A-Z0-9]+$/.test(s.channelId) ? `<#${s.channelId}>` : "its channel";
  return `:double_vertical_bar: Paused in ${where} since ${dateToken(paused.at)}: ${reason} I'll try again ${dateToken(paused.retryAt)}, or subscribe there again to resume now.`;
}

/**
 * Is the bot able to watch it? Says nothing about whether the test is red. Empty when it can:
 * a glance shows only what needs someone.
 */
export function pollingLine(said: SubscriptionWords<Subscription>, s: Subscription): string {
  if (s.paused) return pausedLine(s, s.paused);
  // A kind polled while muted (a test) is polled like any other: its polling health is what this line says.
  if (triageOf(s).muted && !factsOf(s).pollsWhileMuted) return `:zzz: ${said.mutedPolling}`;
  if (s.lastError?.checking)
    return `:hourglass_flowing_sand: checking since ${dateToken(s.lastError.at)}: ${escapeMrkdwn(s.lastError.message)}`;
  if (s.lastError)
    return `:warning: polling failed ${dateToken(s.lastError.at)}: ${escapeMrkdwn(s.lastError.message)}`;
  return "";
}

/**
 * What the channel was last told of a collection's count, at a glance ("66 sessions · last
 * told today at 6:45 PM"); then, if growth is now counted from elsewhere (a count that dropped,
 * an unmute), that count and time, since neither was ever posted. With no alert open, or on a
 * copy from before the bot kept what it told, only the baseline, which is always true.
 * Dated, like every count of growth: the weekly report and the alerts count from other moments.
 */
export function collectionCountLine(s: CollectionSubscription): string {
  const baseline = `growth counted from ${plural(s.alertedCount, "session")} as of ${dateToken(s.alertedAt)}`;
  const told = s.threadTs ? s.told : null;
  if (!told) return baseline;
  const line = `${plural(told.count, "session")} · last told ${dateToken(told.at)}`;
  return told.count === s.alertedCount && told.at === s.alertedAt ? line : `${line}; ${baseline}`;
}

/** Who is looking, snoozes and mutes, each with its time. */
export function triageStateLines(s: Subscription, now: Date): string[] {
  const t = triageOf(s);
  const id = subscriptionId(s);
  // An older copy holds one record, not a list.
  const acks = [t.acknowledgedBy ?? []].flat().filter((a) => a && typeof a.userId === "string");
  const snooze = isSnoozed(t, now) ? (t.snooze ?? null) : null;
  return [
    t.muted
      ? `${mutedStateLine(t.muted)} (*Unmute* below, or ${code(resubscribeCommand({ kind: s.kind, id }))})`
      : "",
    acks.length > 0
      ? `:eyes: ${acks.map((a) => `${mention(a.userId)} since ${dateToken(a.at)}`).join(", ")}`
      : "",
    snooze ? `:sleeping: snoozed by ${mention(snooze.by)} ${dateToken(snooze.at)}, ${snoozeEnd(snooze)}` : "",
  ].filter(Boolean);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Failures of the last 24 hours counted and not posted: by the reason the channel chose, and
 * apart, those held while Slack refused the channel (the channel chose nothing there).
 */
function countedLine(said: SubscriptionWords<Subscription>, s: Subscription, now: Date): string[] {
  const recent = said.counted(s).filter((c) => now.getTime() - Date.parse(c.at) < DAY_MS);
  const chosen = recent.filter((c) => c.reason !== "paused");
  const held = recent.length - chosen.length;
  const byReason = new Map<string, number>();
  for (const c of chosen) byReason.set(c.reason, (byReason.get(c.reason) ?? 0) + 1);
  const reasons = [...byReason]
    .map(([reason, n]) => `${n} × ${code(COUNTED_AS[reason] ?? reason)}`)
    .join(", ");
  return [
    ...(chosen.length > 0
      ? [
          `:see_no_evil: ${plural(chosen.length, "failed run")} in the last 24 h not posted, as this channel chose: ${reasons}`,
        ]
      : []),
    ...(held > 0
      ? [
          `:double_vertical_bar: ${plural(held, "failed run")} in the last 24 h not posted while Slack refused the channel's posts (paused)`,
        ]
      : []),
  ];
}

const COUNTED_AS: Record<string, string> = {
  after: "after:",
  trigger: "trigger:",
  "flaky-digest": "flaky:digest",
  snoozed: "snoozed",
  muted: "muted",
};

/** Posts Slack never confirmed (not sent again) and vendor items skipped as unreadable. */
export function engineNotes(
  said: SubscriptionWords<Subscription>,
  s: Subscription,
  now: Date = new Date(),
): string[] {
  const overdue = s.overdue ?? 0;
  return [
    ...countedLine(said, s, now),
    ...(overdue > 0 ? [`:rotating_light: ${said.owedNote(overdue)}`] : []),
    ...(s.quarantined ?? []).map(
      (q) =>
        `:warning: skipped ${escapeMrkdwn(q.what)} ${dateToken(q.at)}: Decipher sent it unreadable (${escapeMrkdwn(q.field)}); other runs still alert.`,
    ),
  ];
}
