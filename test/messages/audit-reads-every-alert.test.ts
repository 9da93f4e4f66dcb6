import { describe, expect, it } from "vitest";
import { flakyThreadParent } from "../../src/messages/failure-meaning.ts";
import { withDeletedNote, withLateNote } from "../../src/messages/late-note.ts";
import { announcedRuns } from "../helpers/announced-runs.ts";
import { APP, aRun, aTest, NOW } from "./fixtures.ts";

// The chaos audit (test/chaos/exactly-once.test.ts) counts a run as told only when it can read
// the run from the message as Slack shows it. A flaky test's opening post, told late or again
// after a person deleted the first, names its run as much as on time: read as naming nothing,
// the audit reported a run as lost that the channel had been told (seed 21, round 542).

const flakyOpening = () =>
  flakyThreadParent({
    ref: null,
    test: aTest,
    run: aRun({ id: 10759 }),
    evidence: null,
    appUrl: APP,
    now: NOW,
    day: "2026-02-16",
  });

describe("the chaos audit reads the run of a flaky test's opening post", () => {
  it("on time", () => {
    const m = flakyOpening();
    expect(announcedRuns(m.text, m.blocks)).toEqual([10759]);
  });
  it("told late", () => {
    const m = withLateNote(flakyOpening(), NOW.toISOString());
    expect(announcedRuns(m.text, m.blocks)).toEqual([10759]);
  });
  it("told again after the earlier alert was deleted", () => {
    const m = withDeletedNote(flakyOpening());
    expect(announcedRuns(m.text, m.blocks)).toEqual([10759]);
  });
});
