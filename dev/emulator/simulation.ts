import type { Org, RunStatus, ScenarioName, TemplateName } from "./model.ts";
import { addCollectionSessions, addPageSessions, addRun, updateRun } from "./mutations.ts";
import { withOrgRng } from "./store.ts";

/**
 * One step of the demo's life. The pattern repeats every four ticks so a demo shows every
 * alert path: a fresh failure, a consecutive failure, a recovery, a run first seen `running`
 * that fails one tick later, and collections that grow; in Acme only two tests ever fail. Step counts, summaries and the
 * growth of collections come from the org's seeded stream, so the same seed and the same
 * sequence of ticks give the same data.
 */
export type TickChange =
  | { kind: "run"; testId: number; runId: number; status: RunStatus }
  | { kind: "runFinished"; testId: number; runId: number; status: RunStatus }
  | { kind: "collectionGrew"; collectionId: number; added: number; sessionCount: number }
  | { kind: "pageSessions"; path: string; added: number };

type Step = { runs: [testId: number, status: RunStatus][]; grow: number[] };

const script: Record<Org["template"], Step[]> = {
  acme: [
    {
      runs: [
        [101, "failed"],
        [103, "running"],
      ],
      grow: [501],
    },
    { runs: [[101, "failed"]], grow: [] },
    {
      runs: [
        [101, "passed"],
        [102, "passed"],
        [103, "running"],
      ],
      grow: [501],
    },
    // 102 stays passed once it recovered: a third test failing would be an outage whenever one
    // poll reads several ticks (docs/try-it-locally.md promises test-by-test alerts here).
    {
      runs: [
        [101, "passed"],
        [102, "passed"],
      ],
      grow: [],
    },
  ],
  globex: [
    { runs: [[201, "passed"]], grow: [] },
    { runs: [[201, "failed"]], grow: [601] },
    { runs: [[201, "failed"]], grow: [] },
    { runs: [[201, "passed"]], grow: [601] },
  ],
};

/** The outcome a run that was running at the previous tick reaches, per phase. */
const finishes: RunStatus[] = ["passed", "failed", "passed", "passed"];

/**
 * The "noisy" scenario, for quieting alerts by understanding them: a test fails now and then,
 * at steps 9–11 all of them fail at once, an outage, while the org's collection grows, and
 * after it every demo test flaps (fails now and then, passing in between). The outage comes
 * before the bot calls any of them flaky: a test called flaky keeps that day's failures in its
 * own thread, so an outage of tests already called flaky is no outage message (the rounds
 * after the first outage's hour show that; before, the flaps join its thread). Every step also brings real traffic on the org's busiest page, so
 * a failing test has a production impact to show. Fixed patterns rather than dice, so a demo
 * and a test know what comes next.
 */
const NOISY_PATTERNS: Record<TemplateName, Record<number, string>> = {
  acme: { 101: "PPPPPPPPFFFPPFPF", 102: "PPFPPPPPFFFPFPPF", 103: "PPPPFPPPFFFPPFPP" },
  globex: { 201: "PFPPFPPPFFFPPPFP" },
};
const NOISY_OUTAGE = [8, 9, 10];
const NOISY_GROW: Record<TemplateName, number> = { acme: 501, globex: 601 };
/** The page the org's visitors keep reaching (and its collection sits under). */
export const NOISY_PAGE: Record<TemplateName, string> = { acme: "/checkout", globex: "/onboarding/step-2" };
/** Page sessions recorded when the scenario starts, spread over the last 24 h. */
const NOISY_BACKLOG = 12;
const DAY_MS = 24 * 60 * 60 * 1000;

function noisySteps(template: TemplateName): Step[] {
  const patterns = Object.entries(NOISY_PATTERNS[template]);
  return Array.from({ length: 16 }, (_, i) => ({
    runs: patterns.map(([id, p]): [number, RunStatus] => [Number(id), p[i] === "F" ? "failed" : "passed"]),
    grow: NOISY_OUTAGE.includes(i) ? [NOISY_GROW[template]] : [],
  }));
}

const scripts: Record<ScenarioName, (template: TemplateName) => { steps: Step[]; finishes: RunStatus[] }> = {
  cycle: (template) => ({ steps: script[template], finishes }),
  noisy: (template) => ({
    steps: noisySteps(template),
    finishes: Array.from({ length: 16 }, (_, i) => (NOISY_OUTAGE.includes(i) ? "failed" : "passed")),
  }),
};

/**
 * Switches an org to a scenario from its next tick on (the step count starts over). The
 * noisy one first records a day's worth of traffic on its page, so the sessions list has
 * something to count before any tick.
 */
export function startScenario(org: Org, name: ScenarioName, now: number): TickChange[] {
  org.scenario = name;
  org.sim.ticks = 0;
  if (name !== "noisy") return [];
  const path = NOISY_PAGE[org.template];
  addPageSessions(org, path, NOISY_BACKLOG, now, DAY_MS);
  return [{ kind: "pageSessions", path, added: NOISY_BACKLOG }];
}

export function tick(org: Org, now: number): TickChange[] {
  const scenario = org.scenario ?? "cycle";
  const { steps, finishes } = scripts[scenario](org.template);
  const phase = org.sim.ticks % steps.length;
  org.sim.ticks += 1;
  const changes: TickChange[] = [];

  // Runs left running before this tick end now: the "seen running, fails later" path.
  for (const run of org.runs.filter((r) => r.status === "running")) {
    if (!steps.some((s) => s.runs.some(([id]) => id === run.testId))) continue;
    updateRun(org, run, finishes[phase] ?? "failed", now);
    changes.push({ kind: "runFinished", testId: run.testId, runId: run.id, status: run.status });
  }

  const step = steps[phase] as Step;
  for (const [testId, status] of step.runs) {
    const test = org.tests.find((t) => t.id === testId);
    if (!test) continue;
    const run = addRun(org, test, status, now);
    changes.push({ kind: "run", testId, runId: run.id, status });
  }

  for (const id of step.grow) {
    const c = org.collections.find((x) => x.id === id);
    if (!c) continue;
    const added = withOrgRng(org, (rng) => rng.int(1, 3));
    addCollectionSessions(org, c, added, now);
    changes.push({ kind: "collectionGrew", collectionId: id, added, sessionCount: c.members.length });
  }

  if (scenario === "noisy") {
    // Visitors keep coming, within the last few minutes of each tick.
    const path = NOISY_PAGE[org.template];
    const added = withOrgRng(org, (rng) => rng.int(1, 2));
    addPageSessions(org, path, added, now, 5 * 60 * 1000);
    changes.push({ kind: "pageSessions", path, added });
  }
  return changes;
}
