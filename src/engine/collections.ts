import type { CollectionSessionList, IssueCollection } from "../decipher/types.ts";
import { collectionGrowthThreadReply } from "../messages/collection-card.ts";
import { withDeletedNote } from "../messages/late-note.ts";
import { pollErrorSentence } from "../messages/vendor-error-message.ts";
import { collectionAlertEvidence } from "../model/alert-evidence.ts";
import { withCountMark } from "../model/count-marks.ts";
import { type LedgerRow, undecidedRow } from "../model/run-ledger.ts";
import { type CollectionSubscription, unacknowledged } from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import {
  describeSlackFailure,
  messageGone,
  retryLater,
  type SlackFailure,
} from "../slack-api/slack-errors.ts";
import { collectionParentNow, openCollectionParent } from "./alert-parents.ts";
import { guardingTests } from "./guarding-tests.ts";
import type { PollContext } from "./poll-context.ts";
import { afterSlackFailure, type PollOutcome, pollFailed, unchanged } from "./poll-outcome.ts";
import type { RunLedger } from "./test-step-executor.ts";

const EVIDENCE_SESSIONS = 3;
const DEFAULT_GROWTH_SESSIONS = 5;
const DEFAULT_GROWTH_RATIO = 0.5;

/** Growth that alerts: `growth:<n>` if set, else +5 sessions or +50 %, whichever is smaller (at least 1). */
export function growthThreshold(alertedCount: number, growth: number | null): number {
  if (growth !== null) return Math.max(1, growth);
  return Math.max(1, Math.min(DEFAULT_GROWTH_SESSIONS, Math.ceil(alertedCount * DEFAULT_GROWTH_RATIO)));
}

type Decision = "none" | "resolved" | "regression" | "growth";

/**
 * open ──(vendor says resolved)──▶ resolved ──(new sessions)──▶ regressed (announced once,
 * then behaves like open: growth past the threshold replies in the regression's thread).
 */
export function decide(sub: CollectionSubscription, collection: IssueCollection): Decision {
  if (collection.isResolved && !sub.wasResolved) return "resolved";
  const grown = collection.sessionCount - sub.alertedCount;
  if (sub.wasResolved && !sub.regressed) return grown > 0 ? "regression" : "none";
  return grown >= growthThreshold(sub.alertedCount, sub.growth) ? "growth" : "none";
}

/**
 * Alerts when an unresolved collection grew past its threshold since the last alert, or when
 * a resolved one got new sessions (a regression). An idle poll is one light request; the
 * evidence (timelines, screenshots) is fetched only when there is something to say.
 */
export async function pollCollectionSubscription(
  sub: CollectionSubscription,
  ctx: PollContext & { ledger: RunLedger },
  /** Its earlier alert was deleted by a person: the new one says so. */
  replacesDeleted = false,
): Promise<PollOutcome> {
  const { deps, now } = ctx;
  let collection: IssueCollection;
  try {
    collection = (await deps.vendor.listCollectionSessions(sub.collectionId, { limit: 1 })).collection;
  } catch (error) {
    return pollFailed(sub, pollErrorSentence(error), error, now);
  }

  const decision = decide(sub, collection);
  const quiet = await withoutGrowth(sub, collection, decision, ctx);
  if (quiet) return quiet;

  const growthRow = recordGrowth(ctx.ledger, sub, now);
  const snoozed = heldBySnooze(sub, collection, growthRow, ctx);
  if (snoozed) return snoozed;
  if (sub.snooze) sub = { ...sub, snooze: null };

  // The evidence read, a post, its details in the thread and a parent edit; else next cycle.
  if (!ctx.budget.has(4)) return unchanged();

  const evidence = await readEvidence(ctx, sub);
  const input = {
    collection: evidence?.collection ?? collection,
    previousCount: sub.alertedCount,
    countedSince: sub.alertedAt,
    sessions: evidence?.data.slice(0, EVIDENCE_SESSIONS) ?? [],
    screenshotsExpiresAt: evidence?.screenshotsExpiresAt ?? null,
    appUrl: deps.config.decipherAppUrl,
    now,
  };
  const current = input.collection;

  const threadTs = decision === "growth" ? sub.threadTs : null;
  // Keyed by the count it grows from: a decision made again after a lost answer is the same post.
  const what = `growth-from:${sub.alertedCount}:${sub.alertedAt}`;
  const channel = (await ctx.channelSubscriptions?.().catch(() => null)) ?? [];
  const guards = await guardingTests(
    current.shortenedPath || sub.path,
    channel,
    ctx.readLastRun ?? (async () => null),
  );
  const regression = decision === "regression";
  const counts = withCountMark(sub, { at: now.toISOString(), count: current.sessionCount });
  const { base, shown, message } = growthMessage(sub, input, { threadTs, regression, guards, counts });
  let result = await ctx.outbox.send(
    what,
    replacesDeleted ? withDeletedNote(message, "collection") : message,
    threadTs ?? undefined,
  );
  // Its alert deleted by a person, and Slack refuses the reply: the growth starts a new alert.
  if (!result.ok && threadTs && messageGone(result.failure) && ctx.budget.has(1))
    return pollCollectionSubscription({ ...sub, threadTs: null, card: null }, ctx, true);
  // Slack had it from an earlier decision (a lost answer): it shows the count read then, and
  // the count recorded below is read now. Until Slack takes the edit, nothing is recorded, so
  // the next poll decides again and edits the same post, found by its key.
  if (result.ok && result.earlier) {
    const edited = await ctx.outbox.edit(result.ts, message);
    if (!edited.ok && retryLater(edited.failure)) result = edited;
  }
  if (!result.ok) return refusedGrowth(sub, result.failure, now);
  const moved = {
    ...base,
    alertedCount: current.sessionCount,
    alertedAt: now.toISOString(),
    wasResolved: current.isResolved,
    regressed: sub.regressed || decision === "regression",
    rootCause: current.rootCause || sub.rootCause,
    counts,
    told: { count: current.sessionCount, at: now.toISOString(), ts: result.ts },
    lastError: null,
    erroringSince: null,
    lastChangeAt: now.toISOString(),
  };
  ctx.ledger.save([
    {
      ...growthRow,
      fate: threadTs ? "threaded" : "announced",
      ts: result.ts,
      parentTs: threadTs,
      reason: null,
      decidedAt: now.toISOString(),
    },
  ]);
  const card = sub.card ?? null;
  const edit = threadTs && card ? await editCard({ ...sub, counts }, current, ctx) : "done";
  // The reply went under an alert a person deleted: the card is posted again, and says so.
  if (edit === "gone" && threadTs) {
    const again = await postedAgain(
      { ...moved, card: card && { ...card, collection: current } },
      threadTs,
      ctx,
    );
    if (again) return { next: again, posts: 2, error: null };
  }
  const editOwed = edit === "owed";
  // One message per alert: the card holds the headline and one session; growth replies later.
  const posts = 1;
  const nextCard = threadTs
    ? card && { ...card, collection: current, editOwed }
    : { previousCount: sub.alertedCount, regression, collection: current, evidence: shown };
  return { next: { ...moved, threadTs: threadTs ?? result.ts, card: nextCard }, posts, error: null };
}

type GrowthInput = Parameters<typeof collectionGrowthThreadReply>[0];

/** The growth's message (a reply, or a new card), the card's evidence, and the state it starts from. */
function growthMessage(
  sub: CollectionSubscription,
  input: GrowthInput,
  how: {
    threadTs: string | null;
    regression: boolean;
    guards: Awaited<ReturnType<typeof guardingTests>>;
    counts: ReturnType<typeof withCountMark>;
  },
) {
  const { threadTs, regression, guards, counts } = how;
  const current = input.collection;
  const now = input.now;
  // What the card shows besides the counts, stored with it: every later edit shows it again.
  const shown = collectionAlertEvidence({
    ...input,
    since: sub.alertedAt,
    guards,
    guardsAt: now.toISOString(),
    grown: current.sessionCount - sub.alertedCount,
  });
  // A new alert starts with nobody looking: an acknowledgement was for the earlier one.
  const base = threadTs ? sub : unacknowledged(sub);
  const message = threadTs
    ? collectionGrowthThreadReply(input)
    : collectionParentNow(base, {
        collection: current,
        previousCount: sub.alertedCount,
        evidence: shown,
        regression,
        growthMarks: counts,
        appUrl: input.appUrl,
        now,
        // A new alert pings; its thread replies and the edits of this card never do.
        mention: sub.mention ?? null,
      });
  return { base, shown, message };
}

/**
 * A snoozed collection's growth is counted, not told, until the snooze ends or its "until +N
 * sessions" is reached: what the poll comes to then, or null when it is told.
 */
function heldBySnooze(
  sub: CollectionSubscription,
  collection: IssueCollection,
  growthRow: LedgerRow,
  ctx: PollContext & { ledger: RunLedger },
): PollOutcome | null {
  const { now } = ctx;
  const snooze = sub.snooze;
  if (!snooze || !isSnoozed(sub, now)) return null;
  const reached =
    snooze.choice.kind === "until-growth" &&
    collection.sessionCount >= (snooze.countAtStart ?? sub.alertedCount) + snooze.choice.sessions;
  if (reached) return null;
  if (growthRow.fate !== "counted")
    ctx.ledger.save([{ ...growthRow, fate: "counted", reason: "snoozed", decidedAt: now.toISOString() }]);
  return sub.lastError || sub.erroringSince
    ? { next: { ...sub, lastError: null, erroringSince: null }, posts: 0, error: null }
    : unchanged();
}

/** The sessions and screenshots an alert shows; null when Decipher did not answer (the alert still goes out). */
async function readEvidence(
  ctx: PollContext,
  sub: CollectionSubscription,
): Promise<CollectionSessionList | null> {
  const { now } = ctx;
  try {
    return await ctx.deps.vendor.listCollectionSessions(sub.collectionId, {
      limit: EVIDENCE_SESSIONS,
      include: ["timeline", "screenshots"],
      since: new Date(Math.min(Date.parse(sub.alertedAt) || now.getTime(), now.getTime() - 60_000)),
    });
  } catch {
    return null;
  }
}

/**
 * What a poll that finds no growth to tell does: a count that dropped is measured from anew, a
 * resolved collection starts afresh (growth from there is a regression), an owed card edit is
 * made. Null when there is growth to tell.
 */
async function withoutGrowth(
  sub: CollectionSubscription,
  collection: IssueCollection,
  decision: Decision,
  ctx: PollContext,
): Promise<PollOutcome | null> {
  const { now } = ctx;
  // `sessionCount` is the collection's all-time count. Should it drop (retention, a merge),
  // growth is measured from the lower count; otherwise it could stay below the old mark forever.
  // Dated now: the lower count was never the count at the last post (`told` keeps that one).
  if (collection.sessionCount < sub.alertedCount) {
    const at = now.toISOString();
    return {
      next: {
        ...sub,
        alertedCount: collection.sessionCount,
        alertedAt: at,
        lastError: null,
        erroringSince: null,
        lastChangeAt: at,
      },
      posts: 0,
      error: null,
    };
  }

  if (decision === "resolved") {
    // A fresh start: growth from here on is a regression, announced in a new message.
    const at = now.toISOString();
    const next = { ...sub, wasResolved: true, regressed: false, alertedCount: collection.sessionCount };
    return {
      next: {
        ...next,
        alertedAt: at,
        threadTs: null,
        lastError: null,
        erroringSince: null,
        lastChangeAt: at,
      },
      posts: 0,
      error: null,
    };
  }
  if (decision === "none") {
    const reopened = sub.wasResolved && !collection.isResolved;
    const edited = await owedCardEdit(sub, collection, ctx);
    if (!edited && !reopened && sub.lastError === null && !sub.erroringSince) return unchanged();
    const next = {
      ...(edited ?? sub),
      wasResolved: collection.isResolved,
      lastError: null,
      erroringSince: null,
    };
    return { next: { ...next, lastChangeAt: now.toISOString() }, posts: 0, error: null };
  }
  return null;
}

/** Slack refused the growth post. */
function refusedGrowth(sub: CollectionSubscription, failure: SlackFailure, now: Date): PollOutcome {
  // Unknown: the outbox looks the key up next poll, and nothing is posted again blindly.
  if (failure.kind === "unknown" || failure.kind === "deferred") return unchanged();
  // The same error again writes nothing, unless Slack said when to come back.
  const unchangedError =
    failure.kind !== "permanent" &&
    failure.retryAfterSeconds === undefined &&
    sub.lastError?.message === describeSlackFailure(failure);
  return {
    next: unchangedError ? null : afterSlackFailure(sub, failure, now),
    posts: 0,
    error: failure.code,
    slackFailure: failure,
  };
}

/**
 * Edits the alert's card to the collection as read now: the first card keeps its own growth and
 * evidence; only the current count and state change. False when Slack refused it for now, so
 * the edit is owed: a card left at an older count says something no longer true.
 */
async function editCard(
  sub: CollectionSubscription,
  current: IssueCollection,
  ctx: PollContext,
): Promise<"done" | "owed" | "gone"> {
  const card = sub.card;
  const parent =
    card &&
    openCollectionParent(
      { ...sub, card: { ...card, collection: current } },
      ctx.deps.config.decipherAppUrl,
      ctx.now,
    );
  if (!parent) return "done";
  const result = await ctx.outbox.edit(parent.ts, parent.message);
  if (!result.ok && messageGone(result.failure)) return "gone";
  return result.ok || result.failure.kind === "permanent" ? "done" : "owed";
}

/**
 * The card of an alert a person deleted, posted again as a new alert that says so: the thread
 * goes on under it. Null when Slack does not take it now (the next growth starts a new alert).
 */
async function postedAgain(
  sub: CollectionSubscription,
  goneTs: string,
  ctx: PollContext,
): Promise<CollectionSubscription | null> {
  const parent =
    sub.card && openCollectionParent({ ...sub, threadTs: goneTs }, ctx.deps.config.decipherAppUrl, ctx.now);
  if (!parent || !ctx.budget.has(1)) return { ...sub, threadTs: null, card: null };
  const result = await ctx.outbox.send(`again:${goneTs}`, withDeletedNote(parent.message, "collection"));
  if (!result.ok) return { ...sub, threadTs: null, card: null };
  return { ...sub, threadTs: result.ts, told: sub.told && { ...sub.told, ts: result.ts } };
}

/** The owed count edit (`editOwed`) made at a poll with nothing new: the state after it, or null. */
async function owedCardEdit(
  sub: CollectionSubscription,
  current: IssueCollection,
  ctx: PollContext,
): Promise<CollectionSubscription | null> {
  if (!sub.card?.editOwed || !ctx.budget.has(1)) return null;
  const edit = await editCard(sub, current, ctx);
  if (edit === "owed") return null;
  if (edit === "gone") return postedAgain(sub, sub.threadTs as string, ctx);
  return { ...sub, card: { ...sub.card, collection: current, editOwed: false } };
}

/**
 * The ledger row of the growth being told: keyed by the count it grows from, like its outbox
 * key. Written once, when the growth is first decided, so growth a poll cannot tell (no budget,
 * Slack down) is owed a fate and turns up as overdue. A row of that count from before the last
 * alert (the count dropped and grew back) is an older event: this one replaces it.
 */
function recordGrowth(ledger: RunLedger, sub: CollectionSubscription, now: Date): LedgerRow {
  const [held] = ledger.byIds([sub.alertedCount]);
  if (held && held.status === "grown" && Date.parse(held.firstSeen) >= Date.parse(sub.alertedAt)) return held;
  const row = undecidedRow(sub.alertedCount, "grown", now.toISOString());
  ledger.save([row]);
  return row;
}
