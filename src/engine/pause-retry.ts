import type { KindWords } from "../messages/kind-words.ts";
import { noticeMessage } from "../messages/notices.ts";
import { PAUSE_RETRY_MS, resumed, slackPause } from "../model/pause.ts";
import { LEDGER_KEEP_MS, type LedgerRow } from "../model/run-ledger.ts";
import type { Subscription } from "../model/subscription.ts";
import type { PollContext } from "./poll-context.ts";
import { afterSlackFailure } from "./poll-outcome.ts";
import type { RunLedger } from "./test-step-executor.ts";

/** Failed runs counted, not posted, because Slack refused the channel since `since`. */
export function heldWhilePaused(rows: readonly LedgerRow[], since: string): number {
  const from = Date.parse(since);
  return rows.filter(
    (r) =>
      r.status === "failed" &&
      r.fate === "counted" &&
      r.reason === "paused" &&
      Date.parse(r.decidedAt ?? "") >= from,
  ).length;
}

/**
 * The hourly try of a channel Slack refused: one post, the "working again" notice saying how
 * many failures were held meanwhile. Taken, the subscription resumes (the next poll alerts as
 * usual); refused, the next try is an hour on; not answered, the next poll asks again. Returns
 * the state to store.
 */
export async function tryPausedChannel(
  sub: Subscription,
  ctx: PollContext & { ledger: RunLedger },
  words: KindWords,
): Promise<Subscription> {
  const paused = sub.paused;
  if (!paused) return sub;
  const { now } = ctx;
  const window = Math.min(now.getTime() - Date.parse(paused.at) + PAUSE_RETRY_MS, LEDGER_KEEP_MS);
  const held = heldWhilePaused(ctx.ledger.recent(now, window), paused.at);
  const message = noticeMessage(words, {
    sub,
    kind: "resumed",
    appUrl: ctx.deps.config.decipherAppUrl,
    held,
  });
  // One key per try: a refused try is not the one an hour later.
  const result = await ctx.outbox.send(`notice:resumed:${paused.at}:${paused.retryAt ?? ""}`, message);
  if (result.ok) return resumed(sub, now);
  // Not answered (Slack may hold the notice) or not asked: the same try, under the same key, at
  // the next poll; the outbox settles what became of it and never posts it twice.
  if (result.failure.kind === "deferred" || result.failure.kind === "unknown") return sub;
  if (result.failure.kind === "permanent") return afterSlackFailure(sub, result.failure, now);
  return { ...sub, paused: slackPause(paused, paused.reason, now) };
}
