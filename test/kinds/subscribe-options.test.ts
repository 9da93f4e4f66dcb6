import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDecipherCommand } from "../../src/handlers/commands/decipher-command.ts";
import { parseCollectionOptions } from "../../src/kinds/collection/options.ts";
import { parseTestOptions, TEST_OPTIONS_USAGE } from "../../src/kinds/test/options.ts";
import { CommandInputError } from "../../src/model/command-input-error.ts";
import { DEFAULT_TEST_OPTIONS } from "../../src/model/subscription.ts";

const errorOf = (fn: () => unknown): CommandInputError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CommandInputError) return error;
    throw error;
  }
  throw new Error("expected a CommandInputError");
};

describe("subscribe test options", () => {
  it("defaults to flaky:thread after:1, no trigger, no page, no mention", () => {
    expect(parseTestOptions([])).toEqual({
      flaky: "thread",
      after: 1,
      trigger: null,
      page: null,
      mention: null,
    });
    expect(DEFAULT_TEST_OPTIONS).toEqual(parseTestOptions([]));
  });

  it("reads every option, in any order, names in any case", () => {
    expect(parseTestOptions(["page:/checkout", "AFTER:3", "Flaky:Digest", "trigger:deploy-prod.v2"])).toEqual(
      {
        flaky: "digest",
        after: 3,
        trigger: "deploy-prod.v2",
        page: "/checkout",
        mention: null,
      },
    );
  });

  it.each([
    ["<@U024BE7LH|alice>", "<@U024BE7LH>"],
    ["<@U024BE7LH>", "<@U024BE7LH>"],
    ["<@W0ENTERPR1>", "<@W0ENTERPR1>"],
    ["<!subteam^S0ONCALL|@oncall>", "<!subteam^S0ONCALL>"],
    ["<!subteam^S0ONCALL>", "<!subteam^S0ONCALL>"],
  ])("takes mention:%s as Slack sends it, escaped or typed, and keeps %s", (raw, stored) => {
    expect(parseTestOptions([`mention:${raw}`]).mention).toBe(stored);
  });

  it.each([
    "alice",
    "<!here>",
    "<!channel>",
    "<#C0ALERTS|alerts>",
    "<@U024BE7LH",
    "<!subteam^S0ONCALL|@on>call>",
    "<@u024be7lh>",
    "<https://example.com|@alice>",
  ])("refuses mention:%s with the usage, naming the option", (raw) => {
    const error = errorOf(() => parseTestOptions([`mention:${raw}`]));
    expect(error.message).toContain("`mention:` takes one person or one user group");
    expect(error.message).toContain(TEST_OPTIONS_USAGE);
  });

  it.each(["thread", "digest", "alert"])("takes flaky:%s", (mode) => {
    expect(parseTestOptions([`flaky:${mode}`]).flaky).toBe(mode);
  });

  it.each(["flaky:sometimes", "flaky:threads", "flaky:1"])("refuses %s, naming the choices", (token) => {
    const error = errorOf(() => parseTestOptions([token]));
    expect(error.message).toContain(`\`${token}\``);
    expect(error.message).toMatch(/`thread`, `digest` or `alert`/);
    expect(error.message).toContain(TEST_OPTIONS_USAGE);
  });

  it("takes after: from 1 to 20", () => {
    expect(parseTestOptions(["after:1"]).after).toBe(1);
    expect(parseTestOptions(["after:20"]).after).toBe(20);
    expect(parseTestOptions(["after:007"]).after).toBe(7);
  });

  it.each(["after:0", "after:21", "after:-1", "after:2.5", "after:three", "after:1e1", "after:9999"])(
    "refuses %s",
    (token) => {
      expect(() => parseTestOptions([token])).toThrowError(/`after:` takes a number of failed runs.*1 to 20/);
    },
  );

  it("takes a trigger word of letters, digits, - _ and .", () => {
    expect(parseTestOptions(["trigger:schedule"]).trigger).toBe("schedule");
    expect(parseTestOptions(["trigger:CI_main-1.2"]).trigger).toBe("CI_main-1.2");
    expect(parseTestOptions([`trigger:${"a".repeat(64)}`]).trigger).toHaveLength(64);
  });

  it.each(["trigger:a/b", "trigger:dé", "trigger:<!channel>", "trigger:a,b", `trigger:${"a".repeat(65)}`])(
    "refuses %s",
    (token) => {
      expect(() => parseTestOptions([token])).toThrowError(/`trigger:` takes one word/);
    },
  );

  it("takes a page path starting with /, query included, reading Slack's &amp; as &", () => {
    expect(parseTestOptions(["page:/"]).page).toBe("/");
    expect(parseTestOptions(["page:/checkout/payment"]).page).toBe("/checkout/payment");
    expect(parseTestOptions(["page:/search?q=a&amp;sort=new"]).page).toBe("/search?q=a&sort=new");
    expect(parseTestOptions([`page:/${"p".repeat(199)}`]).page).toHaveLength(200);
  });

  it.each([
    "page:checkout",
    "page:https://shop.acme.test/checkout",
    `page:/${"p".repeat(200)}`,
    "page:/a<b",
    "page:/a|b",
    "page:/a\u0007b",
  ])("refuses %j", (token) => {
    expect(() => parseTestOptions([token])).toThrowError(/`page:` takes a path .* starting with `\/`/);
  });

  it.each(["growth:5", "flake:thread", "loud", "--after=2", "__proto__:x", "constructor:x"])(
    "refuses %j as unknown, with the usage",
    (token) => {
      const error = errorOf(() => parseTestOptions([token]));
      expect(error.message).toMatch(/is not an option of `subscribe test`/);
      expect(error.message).toContain(TEST_OPTIONS_USAGE);
    },
  );

  it("refuses an option given twice or without a value", () => {
    expect(() => parseTestOptions(["after:2", "after:3"])).toThrowError(/`after:` is given twice/);
    expect(() => parseTestOptions(["flaky:"])).toThrowError(/`flaky:` needs a value/);
    expect(() => parseTestOptions(["page"])).toThrowError(/`page:` needs a value/);
  });

  it("quotes a bad token short and without breaking its code span", () => {
    const error = errorOf(() => parseTestOptions([`x\`y:${"z".repeat(500)}`]));
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain("xˋy:");
  });

  it("never throws anything but a CommandInputError, and returns valid options when it returns", () => {
    const token = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.constantFrom("flaky", "after", "trigger", "page", "growth", "FLAKY"), fc.string())
        .map(([k, v]) => `${k}:${v}`),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 5 }), (tokens) => {
        try {
          const o = parseTestOptions(tokens);
          expect(["thread", "digest", "alert"]).toContain(o.flaky);
          expect(o.after).toBeGreaterThanOrEqual(1);
          expect(o.after).toBeLessThanOrEqual(20);
          if (o.page !== null) expect(o.page).toMatch(/^\/\S{0,199}$/);
          if (o.trigger !== null) expect(o.trigger).toMatch(/^[\w.-]{1,64}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(CommandInputError);
        }
      }),
    );
  });
});

describe("subscribe collection options", () => {
  it("keeps growth:<n>, and null without it", () => {
    expect(parseCollectionOptions([])).toEqual({ growth: null, mention: null });
    expect(parseCollectionOptions(["growth:10"])).toEqual({ growth: 10, mention: null });
    expect(parseCollectionOptions(["GROWTH:3"])).toEqual({ growth: 3, mention: null });
  });

  it("takes mention: as a test subscription does, escaped or typed", () => {
    expect(parseCollectionOptions(["mention:<!subteam^S0ONCALL|@oncall>"]).mention).toBe(
      "<!subteam^S0ONCALL>",
    );
    expect(parseCollectionOptions(["growth:3", "mention:<@U0ALICE>"])).toEqual({
      growth: 3,
      mention: "<@U0ALICE>",
    });
  });

  it("says how to send mention:@oncall when it was typed out, not picked from Slack's list", () => {
    expect(() => parseCollectionOptions(["mention:@oncall"])).toThrowError(
      /`@oncall` reached me as plain text.*pick `@oncall` from that list.*growth:<sessions>/s,
    );
  });

  it.each(["@here", "<!channel>", "<#C0ALERTS|alerts>", "oncall"])(
    "refuses mention:%s with the collection's usage",
    (raw) => {
      expect(() => parseCollectionOptions([`mention:${raw}`])).toThrowError(
        /`mention:` takes one person or one user group.*growth:<sessions>/s,
      );
    },
  );

  it.each(["growth:0", "growth:lots", "growth:1234567"])("refuses %s", (token) => {
    expect(() => parseCollectionOptions([token])).toThrowError(/`growth:` takes a number of sessions/);
  });

  it("refuses test options on a collection", () => {
    expect(() => parseCollectionOptions(["flaky:digest"])).toThrowError(
      /not an option of `subscribe collection`.*growth:<sessions>/,
    );
  });
});

describe("/decipher subscribe test carries its options", () => {
  it("with defaults when none are given, naming none (so a watched test keeps its own)", () => {
    expect(parseDecipherCommand("subscribe test 101")).toEqual({
      action: "subscribe",
      kind: "test",
      id: 101,
      ids: [101],
      options: DEFAULT_TEST_OPTIONS,
      given: [],
    });
  });

  it("with what was typed", () => {
    expect(parseDecipherCommand("subscribe test 101 flaky:alert after:2 page:/checkout")).toMatchObject({
      kind: "test",
      id: 101,
      options: { flaky: "alert", after: 2, trigger: null, page: "/checkout" },
      given: ["flaky", "after", "page"],
    });
  });

  it("and refuses the whole command on one bad option", () => {
    expect(() => parseDecipherCommand("subscribe test 101 after:2 loud:yes")).toThrowError(
      /`loud:yes` is not an option of `subscribe test`/,
    );
  });
});
