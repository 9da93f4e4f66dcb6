import { describe, expect, it } from "vitest";
import { flakyThreadParent } from "../../src/messages/failure-meaning.ts";
import { withDeletedNote, withLateNote } from "../../src/messages/late-note.ts";
import { outageMessages } from "../../src/messages/outage.ts";
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

// The team clock's chaos (seed 7, round 23): a failure that joined an outage message while it
// was open retitles it "3 tests failing (2 at once, 1 since)", which the audit did not read as
// an outage message: the runs it names were reported lost.
describe("the chaos audit reads every run of an outage message a failure joined", () => {
  const item = (testId: number) => ({
    testId,
    testName: `T${testId}`,
    runId: 100 + testId,
    summary: null,
    mention: null,
  });
  it("still failing, and once all passed again", () => {
    for (const recovered of [[], [1, 2, 3]]) {
      const m = outageMessages({
        items: [item(1), item(2)],
        later: [item(3)],
        subscribed: 4,
        appUrl: APP,
        recovered,
      }).parent.message;
      expect(m.text).toMatch(/\(2 at once, 1 since\)/);
      // The runs that failed at once; a failure that joined is named in the thread ("Also failed since").
      expect(announcedRuns(m.text, m.blocks)).toEqual([101, 102]);
    }
  });
});
