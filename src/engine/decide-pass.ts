import type { TestRun } from "../decipher/types.ts";
import type { FailingAtSubscribe } from "../model/failing-at-subscribe.ts";
import { pausedBySlack } from "../model/pause.ts";
import { type LedgerRow, RERUN_PASSED, rowTime } from "../model/run-ledger.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { endedByPass } from "./snooze.ts";
import { type Acc, change, endedStreak, fate, type Look, type Next, runOf } from "./test-step-state.ts";

/**
 * A pass, decided (src/engine/decide-test-step.ts): it ends the open streak, told in its thread
 * (quietly while snoozed, muted or paused), or the failing the channel subscribed to, told once
 * in the channel; any other pass ends nothing.
 */
export function decidePass(look: Look, acc: Acc, row: LedgerRow): Next {
  const { now } = look.input;
  const run = runOf(look.input, row);
  const streak = acc.sub.streak;
  let sub = acc.sub;
  // A pass before the streak's last failure (or any pass, with none open) ends nothing.
  if (!streak || !(rowTime(row) >= Date.parse(streak.lastFailedAt ?? ""))) {
    // "Until it passes" ends on a flaky test's pass too (its failures open no streak).
    const ended = endedByPass(sub.snooze, rowTime(row), now);
    if (ended) sub = { ...sub, snooze: ended };
    if ((sub.quietFailures ?? 0) > 0) sub = { ...sub, quietFailures: 0 };
    const waited = sub.failingAtSubscribe;
    if (!streak && waited && rowTime(row) >= Date.parse(waited.lastFailedAt))
      return passedSinceSubscribe(look, { sub, rows: acc.rows }, row, run, waited);
    return { acc: { sub, rows: [...acc.rows, fate(look, row, "quiet")] } };
  }
  if (isSnoozed(sub, now) || sub.muted || sub.paused) {
    // "Until it passes" ends here; a timed snooze holds for its time. Snoozed, muted or paused,
    // the thread stays quiet; the parent turns green (muted, it keeps its Unmute).
    const reason = sub.paused ? "paused" : sub.muted ? "muted" : "snoozed";
    // A pass that ran before the click recovers the streak but is not the pass the snooze waits for.
    // It ends as of the pass, so the snooze's summary (what it held) is told after, as promised.
    const ended = endedByPass(sub.snooze, rowTime(row), now);
    if (ended) sub = { ...sub, snooze: ended };
    const told = fate(look, row, "recovered", { ts: streak.grouped ? null : streak.threadTs, reason });
    return { acc: { sub: endedStreak(sub, streak, run), rows: [...acc.rows, told] } };
  }
  return {
    step: {
      kind: "post",
      change: change(acc),
      key: `recovery:${run.id}`,
      message: { kind: "recovery", run, failedRuns: streak.failedRuns, rerun: row.reason === RERUN_PASSED },
      threadTs: streak.threadTs,
      delivered: (ts) => ({
        sub: endedStreak(sub, streak, run),
        rows: [...acc.rows, fate(look, row, "recovered", { ts, parentTs: streak.threadTs })],
      }),
    },
  };
}

/**
 * The first pass after the failures a subscription found when it was made: the subscribe reply
 * promised to tell it. Told in the channel (there was no alert to reply to), or only recorded
 * while snoozed, muted or paused for a 404, as a streak's recovery would be.
 */
function passedSinceSubscribe(
  look: Look,
  acc: Acc,
  row: LedgerRow,
  run: TestRun,
  was: FailingAtSubscribe,
): Next {
  // Slack refuses the channel: the pass waits, untold, until it takes the bot's posts again.
  if (pausedBySlack(acc.sub)) return { acc };
  const sub = { ...acc.sub, failingAtSubscribe: null };
  if (isSnoozed(acc.sub, look.input.now) || acc.sub.muted || acc.sub.paused)
    return { acc: { sub, rows: [...acc.rows, fate(look, row, "quiet")] } };
  return {
    step: {
      kind: "post",
      change: change(acc),
      key: `passed-since-subscribe:${run.id}`,
      message: { kind: "passed-since-subscribe", run, was },
      delivered: (ts) => ({ sub, rows: [...acc.rows, fate(look, row, "recovered", { ts })] }),
    },
  };
}
