import { describe, expect, it } from "vitest";
import { isAdmin, triageRefusal } from "../../src/model/admins.ts";

const admins = new Set(["U0ADMIN"]);

describe("who may change what a channel gets", () => {
  it("lets everyone when ADMIN_USER_IDS names nobody", () => {
    expect(isAdmin(new Set(), "U0ANYONE")).toBe(true);
    expect(triageRefusal(new Set(), { type: "mute", userId: "U0ANYONE" })).toBeNull();
  });

  it("lets only the named admins when it names someone", () => {
    expect(isAdmin(admins, "U0ADMIN")).toBe(true);
    expect(isAdmin(admins, "U0OTHER")).toBe(false);
  });

  it.each(["snooze", "unsnooze", "mute"] as const)("refuses %s to others, naming the action", (type) => {
    const action =
      type === "snooze"
        ? { type, userId: "U0OTHER", choice: { kind: "for" as const, hours: 1 } }
        : { type, userId: "U0OTHER" };
    expect(triageRefusal(admins, action)).toContain(`Only the bot's admins can ${type} alerts`);
    expect(triageRefusal(admins, { ...action, userId: "U0ADMIN" })).toBeNull();
  });

  it("keeps Acknowledge open to everyone", () => {
    expect(triageRefusal(admins, { type: "acknowledge", userId: "U0OTHER" })).toBeNull();
  });
});
