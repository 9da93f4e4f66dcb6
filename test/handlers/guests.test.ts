import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg } from "../../dev/in-workerd/bot.ts";
import { GUEST_REFUSAL } from "../../src/messages/outsiders.ts";

/**
 * Slack guests in single-workspace mode (src/handlers/guests.ts): the same sentence as in
 * multi-workspace mode (test/install/tenancy.test.ts), and what the check costs.
 */
describe("a guest of the workspace (single-workspace mode)", () => {
  it("gets the sentence for /sessions and reads nothing from Decipher", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.person("U0GUEST", "guest", ["C0ALERTS"]);
    await emulator.org(apiKey).clearRequests();
    const ack = await bot.command("/sessions", "jane@acme.com", { userId: "U0GUEST" });
    expect(JSON.parse(ack.body)).toEqual({ response_type: "ephemeral", text: GUEST_REFUSAL });
    expect(await emulator.org(apiKey).requestTotal()).toBe(0);
  });

  it("is looked up once for a person's many requests (users.info remembered ten minutes)", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    for (let i = 0; i < 5; i++) await bot.command("/decipher", "list", { userId: "U0BOB" });
    const lookups = (await bot.slackCalls()).filter((c) => c.method === "users.info");
    expect(lookups).toHaveLength(1);
  });

  it("while Slack cannot say (users.info failing), a person is answered as a member", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.slackFault("users.info", "500", 10);
    const ack = await bot.command("/decipher", "list", { userId: "U0BOB" });
    expect(ack.body).not.toContain(GUEST_REFUSAL);
    expect(ack.body).toContain("This channel watches");
  });
});
