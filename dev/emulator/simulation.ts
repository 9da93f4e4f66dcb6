import type { Org, RunStatus } from "./model.ts";
import { addCollectionSessions, addRun, updateRun } from "./mutations.ts";
import { withOrgRng } from "./store.ts";

/**
 * One step of the demo's life. The pattern repeats every four ticks so a demo shows every
 * alert path: a fresh failure, a consecutive failure, a recovery, a run first seen `running`
 * that fails one tick later, and collections that grow. Step counts, summaries and the
 * growth of collections come from the org's seeded stream, so the same seed and the same
 * sequence of ticks give the same data.
 */
export type TickChange =
  | { kind: "run"; testId: number; runId: number; status: RunStatus }
  | { kind: "runFinished"; testId: number; runId: number; status: RunStatus }
  | { kind: "collectionGrew"; collectionId: number; added: number; sessionCount: number };

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
    {
      runs: [
        [101, "failed"],
        [102, "failed"],
      ],
      grow: [],
    },
    {
      runs: [
        [101, "passed"],
        [102, "passed"],
        [103, "running"],
      ],
      grow: [501],
    },
    {
      runs: [
        [101, "passed"],
        [102, "failed"],
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

export function tick(org: Org, now: number): TickChange[] {
  const steps = script[org.template];
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
  return changes;
}
