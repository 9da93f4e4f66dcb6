import { describe, expect, it } from "vitest";
import { createBot, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { parseDecipherCommand } from "../../src/handlers/commands/decipher-command.ts";

describe("subscribing to several tests in one command", () => {
  it("reads ids, lists and ranges before the options, each once", () => {
    expect(parseDecipherCommand("subscribe test 101 102 103")).toMatchObject({
      id: 101,
      ids: [101, 102, 103],
    });
    expect(parseDecipherCommand("subscribe test 101-103 after:2")).toMatchObject({
      ids: [101, 102, 103],
      options: { after: 2 },
      given: ["after"],
    });
    expect(parseDecipherCommand("subscribe test 101,102 101")).toMatchObject({ ids: [101, 102] });
    expect(() => parseDecipherCommand("subscribe test 1-40")).toThrowError(/not a range I take/);
    expect(() => parseDecipherCommand("subscribe test 1 2 3 4 5 6 7 8 9 10 11")).toThrowError(
      /At most 10 tests at once/,
    );
    expect(() => parseDecipherCommand("subscribe test abc")).toThrowError(/`abc` is not a test id/);
    expect(() => parseDecipherCommand("subscribe test 101 loud")).toThrowError(/`loud` is not an option/);
  });

  it("answers once, a part for each: subscribed, and the one Decipher does not know", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = await bot.command("/decipher", "subscribe test 101 102 99999");
    expect(visibleText(JSON.parse(ack.body))).toContain("Checking test 101, 102, 99999 with Decipher");
    const reply = visibleText((await bot.messages("C0ALERTS")).at(-1) ?? {});
    expect(reply).toMatch(/Subscribed this channel to test <[^|]+\|Checkout flow \(#101\)>/);
    expect(reply).toMatch(/Subscribed this channel to test <[^|]+\|Login with SSO \(#102\)>/);
    expect(reply).toMatch(/test 99999/);
    const list = visibleText(JSON.parse((await bot.command("/decipher", "list")).body));
    expect(list).toMatch(/2 subscriptions/);
  });
});
