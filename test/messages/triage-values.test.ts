import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeSnoozeValue,
  decodeTriageRef,
  encodeSnoozeValue,
  encodeTriageRef,
} from "../../src/messages/triage-values.ts";
import type { SubscriptionRef } from "../../src/model/alert-control.ts";
import type { SnoozeChoice } from "../../src/model/triage-state.ts";
import { nasty, RUNS } from "./arbitraries.ts";

const slackId = fc.stringMatching(/^[A-Z0-9]{2,32}$/);
const anyRef: fc.Arbitrary<SubscriptionRef> = fc.record({
  teamId: slackId,
  channelId: slackId,
  kind: fc.constantFrom("test" as const, "collection" as const),
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
});
const offered = (ref: SubscriptionRef): fc.Arbitrary<SnoozeChoice> =>
  fc.oneof(
    fc.constantFrom(1, 4, 24).map((hours) => ({ kind: "for" as const, hours })),
    ref.kind === "test"
      ? fc.constant({ kind: "until-pass" as const })
      : fc.integer({ min: 1, max: 100_000 }).map((sessions) => ({ kind: "until-growth" as const, sessions })),
  );

describe("triage values", () => {
  it("round-trip every subscription and offered snooze, within Slack's 150 characters", () => {
    fc.assert(
      fc.property(
        anyRef.chain((ref) => fc.tuple(fc.constant(ref), offered(ref))),
        ([ref, choice]) => {
          const value = encodeTriageRef(ref);
          expect(decodeTriageRef(value)).toEqual(ref);
          const snooze = encodeSnoozeValue(ref, choice);
          expect(snooze?.length).toBeLessThanOrEqual(150);
          expect(decodeSnoozeValue(snooze)).toEqual({ ref, choice });
        },
      ),
      RUNS,
    );
  });

  it("decode anything else to null, never throwing", () => {
    fc.assert(
      fc.property(fc.oneof(nasty, fc.anything()), (value) => {
        const ref = decodeTriageRef(value);
        if (ref !== null) expect(encodeTriageRef(ref)).toBe(value);
        const snooze = decodeSnoozeValue(value);
        if (snooze !== null) expect(encodeSnoozeValue(snooze.ref, snooze.choice)).toBe(value);
      }),
      RUNS,
    );
  });

  it("write no value for a subscription they could not read back", () => {
    expect(encodeTriageRef({ teamId: "t0", channelId: "C0", kind: "test", id: 1 })).toBeNull();
    expect(encodeTriageRef({ teamId: "T0", channelId: "C0", kind: "test", id: 0 })).toBeNull();
    expect(
      encodeSnoozeValue({ teamId: "T0", channelId: "C0", kind: "test", id: 1 }, { kind: "for", hours: 3 }),
    ).toBeNull();
  });
});
