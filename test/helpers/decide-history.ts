import type { TestInfo, TestRun } from "../../src/decipher/types.ts";
import { decideTestStep } from "../../src/engine/decide-test-step.ts";
import { rowsFromRead } from "../../src/engine/poll-test.ts";
import { renderTestStep } from "../../src/engine/render-test-step.ts";
import type { Change, TestStep } from "../../src/engine/test-step.ts";
import type { SlackMessage } from "../../src/messages/limits.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { TestOptions, TestSubscription } from "../../src/model/subscription.ts";

/**
 * The pure decision function (src/engine/decide-test-step.ts) driven through a generated
 * history, poll by poll, the way the object's executor drives it: each cycle has the outage
 * check's two passes (the first holds a new failure, the channel may then name the held runs in
 * one outage message, the second tells what was decided), and Slack answers each post ok,
 * refuses it, or stores it and loses the answer (the outbox then finds it by its key).
 *
 * What Slack ends up showing is counted per run, across every way a run can be shown (its own
 * alert, a thread reply telling it with the others read in the same look, or a line of an
 * outage message), so a run told twice
 * under two forms is caught, not only a key sent twice.
 */

export const T0 = Date.parse("2026-11-20T10:00:00.000Z");
export const MINUTE = 60_000;
export const historyTest: TestInfo = {
  id: 101,
  name: "Checkout & pay <fast>",
  url: "https://app.test/tests/101",
};

export type RunPlan = {
  id: number;
  /** Status per poll from when it appears: e.g. running, running, failed. */
  statuses: ("passed" | "failed" | "running")[];
  appearsAt: number;
  createdAt: "normal" | "future" | "ancient" | "garbage";
  trigger: "schedule" | "manual";
};

export type SlackAnswer = "ok" | "error" | "lost";

export type History = {
  plans: RunPlan[];
  options?: TestOptions;
  /** Slack's answers, used in turn; the last polls are calm (every answer ok). */
  answers?: SlackAnswer[];
  /** A 1 h snooze clicked at T0 that lasts this many minutes. */
  snoozeMinutes?: number | null;
  /**
   * The bot called the test flaky at T0 (its "is flaky" alert of the day is out): its failures
   * of the day keep to that thread, never held for an outage message.
   */
  flakyToday?: boolean;
  /** Per poll, in turn: whether the channel names this cycle's held runs in an outage message. */
  outages?: boolean[];
  polls?: number;
  minutesPerPoll?: number;
};

export type Shown = {
  ledger: Map<number, LedgerRow>;
  sub: TestSubscription;
  /** Keys Slack holds, with their ts. */
  slack: Map<string, string>;
  /** How many messages in the channel tell each run: its own post, or an outage message line. */
  timesTold: Map<number, number>;
  /** Posts the decision asked for, by key (an asked key Slack already holds is not sent again). */
  asked: Map<string, number>;
  /** Each posted message's text as Slack shows it now (its last edit), by ts. */
  texts: Map<string, string>;
  /** Runs a poll held for the channel's outage window, each time it did. */
  held: number[];
};

function createdAtOf(plan: RunPlan): string {
  if (plan.createdAt === "future") return "2099-01-01T00:00:00.000Z";
  if (plan.createdAt === "ancient") return "1999-01-01T00:00:00.000Z";
  if (plan.createdAt === "garbage") return "not a time";
  return new Date(T0 + plan.appearsAt * MINUTE).toISOString();
}

function runAt(plan: RunPlan, poll: number): TestRun | null {
  if (poll < plan.appearsAt) return null;
  const status = plan.statuses[Math.min(poll - plan.appearsAt, plan.statuses.length - 1)] ?? "passed";
  return {
    object: "testRun",
    id: plan.id,
    testId: historyTest.id,
    status,
    startTime: createdAtOf(plan),
    endTime: status === "running" ? null : createdAtOf(plan),
    durationMs: 1000,
    triggeredBy: plan.trigger,
    createdAt: createdAtOf(plan),
    summary: { oneLineSummary: `Run ${plan.id} & *friends*`, steps: [] } as unknown as TestRun["summary"],
    totalSteps: 3,
    failedSteps: status === "failed" ? 1 : 0,
  };
}

/** The ts of the day's "is flaky" alert when a history starts with the test called flaky. */
export const FLAKY_THREAD_TS = `${T0 / 1000 - 60}.000100`;

export function startingSubscription(
  options: TestOptions = {},
  snoozeMinutes: number | null = null,
  flakyToday = false,
) {
  const sub: TestSubscription = {
    kind: "test",
    channelId: "C1",
    testId: historyTest.id,
    testName: historyTest.name,
    createdAt: new Date(T0 - 5 * MINUTE).toISOString(),
    createdBy: "U1",
    paused: null,
    lastError: null,
    lastChangeAt: new Date(T0).toISOString(),
    lastRunId: 0,
    lastRunAt: null,
    streak: null,
    options,
    snooze:
      snoozeMinutes === null
        ? null
        : {
            by: "U1",
            at: new Date(T0).toISOString(),
            until: new Date(T0 + snoozeMinutes * MINUTE).toISOString(),
            choice: { kind: "for", hours: 1 },
            missedFailures: 0,
            countAtStart: null,
          },
    ...(flakyToday
      ? { flakyThread: { ts: FLAKY_THREAD_TS, day: new Date(T0).toISOString().slice(0, 10) } }
      : {}),
  };
  return sub;
}

/** A message's fallback text and its blocks' text, as one string to match against. */
const shownText = (message: SlackMessage) => `${message.text}\n${JSON.stringify(message.blocks ?? [])}`;

/** A step's message as the executor renders it (src/engine/poll-test.ts). */
const rendered = (step: Extract<TestStep, { kind: "post" | "edit" }>, test: TestInfo, now: Date) =>
  renderTestStep(step, { test, appUrl: "https://app.test", now, meaning: null });

/** The failed runs a post tells: those its delivery records as told in it (one reply may tell several). */
const runsToldBy = (step: Extract<ReturnType<typeof decideTestStep>, { kind: "post" }>, ts: string) =>
  step
    .delivered(ts)
    .rows.filter(
      (r) => r.status === "failed" && r.ts === ts && (r.fate === "announced" || r.fate === "threaded"),
    )
    .map((r) => r.id);

export function playHistory(history: History): Shown {
  const answers = history.answers ?? ["ok"];
  const outages = history.outages ?? [false];
  const polls = history.polls ?? 12;
  const step = (history.minutesPerPoll ?? 3) * MINUTE;
  let sub = startingSubscription(history.options ?? {}, history.snoozeMinutes ?? null, history.flakyToday);
  const ledger = new Map<number, LedgerRow>();
  // The day's "is flaky" alert is in the channel already.
  const slack = new Map<string, string>(history.flakyToday ? [["flaky-alert", FLAKY_THREAD_TS]] : []);
  const unknown = new Set<string>();
  const timesTold = new Map<number, number>();
  const asked = new Map<string, number>();
  const texts = new Map<string, string>();
  const everHeld: number[] = [];
  /** The message that told each run, so an edit that names it again in that message is no second telling. */
  const toldIn = new Map<number, string>();
  const told = (runId: number, ts: string) => {
    toldIn.set(runId, ts);
    timesTold.set(runId, (timesTold.get(runId) ?? 0) + 1);
  };
  let answer = 0;
  let tsCounter = 0;
  const apply = (change: Change) => {
    for (const row of change.rows) ledger.set(row.id, row);
    sub = change.sub;
  };

  for (let poll = 0; poll < polls; poll++) {
    const now = new Date(T0 + poll * step);
    const calm = poll >= polls - 3;
    const runs = history.plans.map((p) => runAt(p, poll)).filter((r): r is TestRun => r !== null);
    // Any order: the vendor's list order is not the engine's business.
    const read = poll % 2 === 0 ? runs : [...runs].reverse();
    for (const row of rowsFromRead(ledger, read, [], sub, now)) ledger.set(row.id, row);
    const byId = new Map(read.map((r) => [r.id, r]));
    const held: number[] = [];
    let group: { ts: string; runIds: number[] } | null = null;
    for (const pass of ["hold", "tell"] as const) {
      if (pass === "tell" && held.length > 0 && outages[poll % outages.length] === true) {
        // The channel's outage message names the held runs: Slack shows each once, there.
        group = { ts: `${1_800_000_000 + tsCounter++}.000100`, runIds: [...held] };
        for (const id of held) told(id, group.ts);
      }
      for (let guard = 0; guard < 200; guard++) {
        const next = decideTestStep({
          sub,
          rows: [...ledger.values()],
          runs: byId,
          test: historyTest,
          meaning: null,
          appUrl: "https://app.test",
          now,
          hold: pass === "hold",
          group,
          cycle: now.toISOString(),
          // The outbox's keys: the posts Slack holds through it, and those whose outcome is unknown.
          inOutbox: new Set([...slack.keys(), ...unknown]),
        });
        apply(next.change);
        if (next.kind === "hold") {
          held.push(next.held.runId);
          everHeld.push(next.held.runId);
          break;
        }
        if (next.kind === "done") break;
        if (next.kind === "edit") {
          texts.set(next.ts, shownText(rendered(next, historyTest, now)));
          apply(next.after);
          continue;
        }
        asked.set(next.key, (asked.get(next.key) ?? 0) + 1);
        const had = slack.get(next.key);
        if (had) {
          // The outbox: a key Slack holds is answered with its ts, never sent again. Decided
          // again with more runs read since, it is edited to say them (src/engine/poll-test.ts).
          unknown.delete(next.key);
          // The edit names what the decision tells now: a run it no longer names is told there no more.
          const naming = new Set(runsToldBy(next, had));
          for (const [id, ts] of toldIn)
            if (ts === had && !naming.has(id)) {
              toldIn.delete(id);
              const left = (timesTold.get(id) ?? 1) - 1;
              if (left > 0) timesTold.set(id, left);
              else timesTold.delete(id);
            }
          for (const id of naming) if (toldIn.get(id) !== had) told(id, had);
          texts.set(had, shownText(rendered(next, historyTest, now)));
          apply(next.delivered(had));
          continue;
        }
        const a: SlackAnswer = calm ? "ok" : (answers[answer++ % answers.length] ?? "ok");
        if (a === "error") break;
        const ts = `${1_700_000_000 + tsCounter++}.000100`;
        slack.set(next.key, ts);
        texts.set(ts, shownText(rendered(next, historyTest, now)));
        for (const id of runsToldBy(next, ts)) told(id, ts);
        if (a === "lost") {
          unknown.add(next.key);
          break;
        }
        apply(next.delivered(ts));
      }
    }
    // The poll's sweep finds one lost answer's post in the channel: known as sent, its run unfated.
    const swept = [...unknown][0];
    if (swept !== undefined) unknown.delete(swept);
  }
  return { ledger, sub, slack, timesTold, asked, texts, held: everHeld };
}

/** A run of test 101 made at `createdAt` and ended at `endedAt` (no end while it runs). */
export const runOfTest = (
  id: number,
  status: TestRun["status"],
  createdAt: number,
  endedAt = createdAt,
): TestRun => ({
  object: "testRun",
  id,
  testId: historyTest.id,
  status,
  startTime: new Date(createdAt).toISOString(),
  endTime: status === "running" ? null : new Date(endedAt).toISOString(),
  durationMs: status === "running" ? null : endedAt - createdAt,
  triggeredBy: "schedule",
  createdAt: new Date(createdAt).toISOString(),
  summary: null,
  totalSteps: 1,
  failedSteps: status === "failed" ? 1 : 0,
});

/** Reads `runs` into the ledger and carries out every step of one poll, Slack answering each post. */
export function pollSteps(
  state: { sub: TestSubscription; ledger: Map<number, LedgerRow> },
  runs: TestRun[],
  now: number,
  test: TestInfo = historyTest,
): { key: string; text: string; blocks: unknown[] }[] {
  const posts: { key: string; text: string; blocks: unknown[] }[] = [];
  for (const row of rowsFromRead(state.ledger, runs, [], state.sub, new Date(now)))
    state.ledger.set(row.id, row);
  const apply = (change: Change) => {
    for (const row of change.rows) state.ledger.set(row.id, row);
    state.sub = change.sub;
  };
  for (let guard = 0; guard < 50; guard++) {
    const step = decideTestStep({
      sub: state.sub,
      rows: [...state.ledger.values()],
      runs: new Map(runs.map((r) => [r.id, r])),
      test,
      meaning: null,
      appUrl: "https://app.test",
      now: new Date(now),
      hold: false,
      group: null,
    });
    apply(step.change);
    if (step.kind === "done" || step.kind === "hold") break;
    if (step.kind === "edit") {
      apply(step.after);
      continue;
    }
    const message = rendered(step, test, new Date(now));
    posts.push({ key: step.key, text: message.text, blocks: message.blocks });
    apply(step.delivered(`${1_700_000_000 + posts.length}.000100`));
  }
  return posts;
}
