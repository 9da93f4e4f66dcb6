import type { KindWords } from "../messages/kind-words.ts";
import { noticeMessage } from "../messages/notices.ts";
import { factsOf } from "../model/kind-facts.ts";
import { pausedBySlack, pauseRetryDue } from "../model/pause.ts";
import type { Subscription } from "../model/subscription.ts";
import { tryPausedChannel } from "./pause-retry.ts";
import type { PollContext } from "./poll-context.ts";
import { type PollOutcome, slackRetryDue, unchanged } from "./poll-outcome.ts";
import type { RunLedger } from "./test-step-executor.ts";

/** Polls erring this long tell the channel (once), so alerts never stop unnoticed. */
export const ERRORING_NOTICE_AFTER_MS = 15 * 60 * 1000;

/** Which notice the channel is owed now, if any. */
function noticeDue(sub: Subscription, now: Date): "paused" | "erroring" | "recovered" | null {
  const told = sub.notice ?? "none";
  if (sub.paused) return told === "paused" ? null : "paused";
  const since = sub.erroringSince ? Date.parse(sub.erroringSince) : Number.NaN;
  if (Number.isFinite(since)) {
    return told === "none" && now.getTime() - since >= ERRORING_NOTICE_AFTER_MS ? "erroring" : null;
  }
  return told === "none" ? null : "recovered";
}

/** What a poll differs in by kind, from the kind's spec (src/kinds/). */
export type PollKind = {
  poll(sub: Subscription, ctx: PollContext & { ledger: RunLedger }): Promise<PollOutcome>;
  words: KindWords;
};

async function sendNotice(
  sub: Subscription,
  ctx: PollContext,
  words: KindWords,
): Promise<Subscription | null> {
  const due = noticeDue(sub, ctx.now);
  if (!due || !ctx.budget.has(1)) return null;
  const message = noticeMessage(words, { sub, kind: due, appUrl: ctx.deps.config.decipherAppUrl });
  // One notice per episode: keyed by the failure (or pause) it is about, the "working again"
  // one by the episode it ends, so a later poll deciding it again uses the same key.
  const episode =
    due === "paused"
      ? sub.paused?.at
      : due === "erroring"
        ? sub.erroringSince
        : (sub.noticeSince ?? sub.lastChangeAt);
  // The outbox key of an erroring notice keeps the word it had before polls that err were
  // called "erroring": a notice decided, and perhaps posted, by the code before that rename is
  // then found under its own key, not posted a second time.
  const keyWord = due === "erroring" ? "failing" : due;
  const result = await ctx.outbox.send(`notice:${keyWord}:${episode ?? ""}`, message);
  // A paused channel may refuse the notice too: it was tried once, status and /health show the rest.
  if (!result.ok && due !== "paused") return null;
  return due === "recovered"
    ? { ...sub, notice: "none", noticeSince: null }
    : { ...sub, notice: due, noticeSince: episode ?? null };
}

/** One poll of one subscription, with the Slack backoff and the channel notices. */
export async function pollSubscription(
  sub: Subscription,
  ctx: PollContext & { ledger: RunLedger },
  kind: PollKind,
): Promise<PollOutcome> {
  // Paused because Slack refused the channel, it goes on (src/model/pause.ts); paused because
  // the item is gone at Decipher, it waits for a new subscribe.
  const bySlack = pausedBySlack(sub);
  if ((sub.paused && !bySlack) || (!sub.paused && !slackRetryDue(sub, ctx.now))) {
    return {
      next: null,
      posts: 0,
      error: null,
      skipped: true,
      workspaceFailure: null,
      held: null,
      outageRecoveries: [],
    };
  }
  // A kind whose ledger counts what it does not post (a test) reads on while paused, so every
  // failure gets its fate; one that measures from its last alert (a collection) waits.
  const reads = !sub.paused || factsOf(sub).pollsWhileMuted;
  const outcome = reads ? await kind.poll(sub, ctx) : unchanged();
  const polled = outcome.next;
  const current = polled ?? sub;
  const retry = bySlack && pauseRetryDue(current.paused, ctx.now) && ctx.budget.has(1);
  const tried = retry ? await tryPausedChannel(current, ctx, kind.words) : null;
  const noticed = await sendNotice(tried ?? current, ctx, kind.words);
  return {
    next: noticed ?? tried ?? polled,
    posts: outcome.posts + (noticed ? 1 : 0) + (tried ? 1 : 0),
    error: outcome.error,
    skipped: false,
    workspaceFailure: outcome.slackFailure?.kind === "workspace" ? outcome.slackFailure.code : null,
    held: outcome.held ?? null,
    waitsOnChannel: outcome.waitsOnChannel === true,
    outageRecoveries: outcome.outageRecoveries ?? [],
  };
}
