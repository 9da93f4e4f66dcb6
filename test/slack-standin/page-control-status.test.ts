import { describe, expect, it } from "vitest";
import { controlStatus, DONE_STATUS_MS } from "../../dev/slack/page/control-status.js";

// The page's header line beside Poll now / Digest now: a finished action's line fades, so
// "Digest poll fired at 7:22:03 AM" does not stay there for the rest of the session.

describe("the sandbox page's control status line", () => {
  it("fades a finished poll or digest and says what happened, and keeps a countdown until it ends", () => {
    const at = new Date("2026-02-16T07:22:03Z");
    const digest = controlStatus({ kind: "digest-polled", hhmm: "07:22", at });
    expect(digest.fadeMs).toBe(DONE_STATUS_MS);
    expect(digest.text).toMatch(/^Polled for the 07:22 UTC digest at .+: it is posted in this channel/);
    expect(controlStatus({ kind: "polled", at }).fadeMs).toBe(DONE_STATUS_MS);
    expect(controlStatus({ kind: "digest-waiting", hhmm: "07:22", secs: 12 }).fadeMs).toBeNull();
    expect(controlStatus({ kind: "polling" }).fadeMs).toBeNull();
  });
});
