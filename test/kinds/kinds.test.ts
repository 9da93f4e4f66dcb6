import { describe, expect, it } from "vitest";
import { kindOptions } from "../../src/kinds/kind-options.ts";
import { KIND_WORDS, kindSpec } from "../../src/kinds/kinds.ts";
import { decodeTriageRef, encodeTriageRef } from "../../src/messages/triage-values.ts";
import { factsOfKind } from "../../src/model/kind-facts.ts";
import { isSubscriptionKind, SUBSCRIPTION_KINDS } from "../../src/model/subscription-kind.ts";
import { keys, parseSubscriptionKey } from "../../src/store/keys.ts";

describe("every subscription kind has its module", () => {
  it.each(SUBSCRIPTION_KINDS)("%s: a spec, options, words and facts of its own", (kind) => {
    expect(kindSpec(kind).kind).toBe(kind);
    expect(kindOptions(kind).parseOptions).toBe(kindSpec(kind).parseOptions);
    expect(KIND_WORDS[kind]).toBe(kindSpec(kind).words);
    expect(["until-pass", "until-growth"]).toContain(factsOfKind(kind).untilSnooze);
  });

  it.each(SUBSCRIPTION_KINDS)("%s: its name reads back from a store key and a button value", (kind) => {
    expect(parseSubscriptionKey(keys.subscription("C1", kind, 42, "T1/"))).toEqual({
      scope: "T1/",
      channelId: "C1",
      kind,
      id: 42,
    });
    const ref = { teamId: "T1", channelId: "C1", kind, id: 42 };
    expect(decodeTriageRef(encodeTriageRef(ref))).toEqual(ref);
  });

  it("nothing else is a kind", () => {
    expect(isSubscriptionKind("session")).toBe(false);
    expect(parseSubscriptionKey("sub:C1:session:42")).toBeNull();
    expect(decodeTriageRef("1|T1|C1|session|42")).toBeNull();
  });
});
