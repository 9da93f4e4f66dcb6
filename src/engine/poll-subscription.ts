import { noticeMessage } from "../messages/notices.ts";
import type { Subscription } from "../model/subscription.ts";
import { post } from "../slack-api/post-message.ts";
import { pollCollectionSubscription } from "./collections.ts";
import type { PollContext } from "./poll-context.ts";
import { type HeldFailure, noteUnknownOutcome, type PollOutcome, slackRetryDue } from "./poll-outcome.ts";
import { pollTestSubscription } from "./test-runs.ts";

/** Failing polls this long tell the channel (once), so alerts never stop unnoticed. */
export const FAILING_NOTICE_AFTER_MS = 15 * 60 * 1000;

export type StoredJournal = { intent: string | null; done: string[] };

export type PollResult = {
  next: Subscription | null;
  posts: number;
  error: string | null;
  /** Paused, or waiting out a Slack backoff: nothing was asked of anyone. */
  skipped: boolean;
  /** A token or scope refusal (workspace-wide), to tell the registry. */
  workspaceFailure: string | null;
  held: HeldFailure | null;
};

/**
 * Folds a journal left by an earlier poll into the state: posts it finished count as made,
 * and a post it began but never finished (a crash, or Slack not answering) counts as made
 * too, with its outcome noted as unknown: repeating it could post the alert twice.
 */
export function settleJournal(sub: Subscription, journal: StoredJournal, now: Date): Subscription {
  const entries = [...journal.done, ...(journal.intent ? [journal.intent] : [])];
  if (entries.length === 0) return sub;
  let next: Subscription = { ...sub, lastChangeAt: now.toISOString() };
  for (const what of entries) {
    const [kind, value] = what.split(":");
    const n = Number(value);
    if (kind === "run" && next.kind === "test" && Number.isInteger(n)) {
      next = {
        ...next,
        handledRunIds: n > next.lastRunId ? [...new Set([...next.handledRunIds, n])] : next.handledRunIds,
        pendingRuns: (next.pendingRuns ?? []).filter((p) => p.id !== n),
      };
    } else if (kind === "growth" && next.kind === "collection" && Number.isInteger(n)) {
      next = { ...next, alertedCount: Math.max(next.alertedCount, n), alertedAt: now.toISOString() };
    }
  }
  if (journal.intent) next = noteUnknownOutcome(next, describeEntry(journal.intent), now);
  return next;
}

function describeEntry(what: string): string {
  const [kind, value] = what.split(":");
  if (kind === "run") return `run #${value}`;
  if (kind === "growth") return `growth to ${value} sessions`;
  return what;
}

/** Which notice the channel is owed now, if any. */
function noticeDue(sub: Subscription, now: Date): "paused" | "failing" | "recovered" | null {
  const told = sub.notice ?? "none";
  if (sub.paused) return told === "paused" ? null : "paused";
  const since = sub.failingSince ? Date.parse(sub.failingSince) : Number.NaN;
  if (Number.isFinite(since)) {
    return told === "none" && now.getTime() - since >= FAILING_NOTICE_AFTER_MS ? "failing" : null;
  }
  return told === "none" ? null : "recovered";
}

async function sendNotice(sub: Subscription, ctx: PollContext): Promise<Subscription | null> {
  const due = noticeDue(sub, ctx.now);
  if (!due || !ctx.budget.has(1)) return null;
  const message = noticeMessage({ sub, kind: due, appUrl: ctx.deps.config.decipherAppUrl });
  const result = await post(ctx.deps.slack, sub.channelId, message);
  // A paused channel may refuse the notice too: it was tried once, status and /health show the rest.
  if (!result.ok && due !== "paused") return null;
  return { ...sub, notice: due === "recovered" ? "none" : due };
}

/** One poll of one subscription, with the journal, the Slack backoff and the channel notices. */
export async function pollSubscription(
  sub: Subscription,
  journal: StoredJournal,
  ctx: Omit<PollContext, "budget"> & { budget?: PollContext["budget"] },
): Promise<PollResult> {
  const budget = ctx.budget ?? ctx.deps.budget;
  const full: PollContext = { ...ctx, budget };
  const base = settleJournal(sub, journal, ctx.now);
  const settled = base === sub ? null : base;
  if (base.paused || !slackRetryDue(base, ctx.now)) {
    return { next: settled, posts: 0, error: null, skipped: true, workspaceFailure: null, held: null };
  }
  const outcome: PollOutcome =
    base.kind === "test"
      ? await pollTestSubscription(base, full)
      : await pollCollectionSubscription(base, full);
  const polled = outcome.next ?? settled;
  const noticed = await sendNotice(polled ?? base, full);
  return {
    next: noticed ?? polled,
    posts: outcome.posts + (noticed ? 1 : 0),
    error: outcome.error,
    skipped: false,
    workspaceFailure: outcome.slackFailure?.kind === "workspace" ? outcome.slackFailure.code : null,
    held: outcome.held ?? null,
  };
}
