import { describe, expect, it } from "vitest";
import { createBot, newOrg, standIn, visibleText } from "../../dev/in-workerd/bot.ts";
import { INSTALL_SCOPES } from "../../src/model/install-scopes.ts";
import { DOCTOR_CHECKS, lastReplyTo } from "../helpers/doctor.ts";

/** Alice is the bot's admin (ADMIN_USER_IDS); Bob is a member, and no Slack admin either. */
async function doctorBot(options: { apiKey?: string } = {}) {
  const bot = createBot({ apiKey: options.apiKey ?? (await newOrg()), adminUserIds: "U0ALICE" });
  await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS", userId: "U0ALICE" });
  await bot.cron();
  return bot;
}

describe("/decipher doctor", () => {
  it("answers an admin with the doctor's lines: every check passing on a working deployment", async () => {
    const bot = await doctorBot();
    const ack = await bot.command("/decipher", "doctor", { userId: "U0ALICE" });
    expect(JSON.parse(ack.body)).toMatchObject({
      response_type: "ephemeral",
      text: expect.stringMatching(/^Checking/),
    });
    const text = visibleText(await lastReplyTo(bot, "U0ALICE"));
    for (const check of DOCTOR_CHECKS) expect(text).toContain(`✅ *${check}*`);
    expect(text).not.toContain("❌");
    expect(text).toContain("All checks passed.");
  });

  it("names what fails and what to do, as npm run doctor does", async () => {
    const bot = await doctorBot({ apiKey: "dcp_not_a_real_key" });
    await standIn.scopes(
      bot.botToken,
      INSTALL_SCOPES.split(",").filter((s) => s !== "users:read"),
    );
    await bot.command("/decipher", "doctor", { userId: "U0ALICE" });
    const text = visibleText(await lastReplyTo(bot, "U0ALICE"));
    expect(text).toContain("❌ *Slack scopes*: the token lacks users:read");
    expect(text).toContain("❌ *Decipher key*: Decipher refused DECIPHER_API_KEY (401 authentication_error)");
    expect(text).toContain("wrangler secret put DECIPHER_API_KEY");
    expect(text).toContain("2 check(s) failed.");
    expect(text).not.toContain("dcp_not_a_real_key");
  });

  it("refuses someone who is neither the bot's admin nor a workspace admin, and checks nothing", async () => {
    const bot = await doctorBot();
    const before = (await bot.slackCalls()).length;
    await bot.command("/decipher", "doctor", { userId: "U0BOB" });
    const text = visibleText(await lastReplyTo(bot, "U0BOB"));
    expect(text).toMatch(/^Only the bot's admins and the workspace's admins and owners can run the doctor/);
    expect(text).not.toContain("Slack token");
    // Slack was asked only who Bob is (a guest? a workspace admin?): nothing was checked.
    expect(new Set((await bot.slackCalls()).slice(before).map((c) => c.method))).toEqual(
      new Set(["users.info"]),
    );
  });

  it("answers a Slack workspace admin who is not among the bot's admins", async () => {
    const bot = await doctorBot();
    await bot.person("U0CAROL", "admin", ["C0ALERTS"]);
    await bot.command("/decipher", "doctor", { userId: "U0CAROL" });
    const text = visibleText(await lastReplyTo(bot, "U0CAROL"));
    expect(text).toContain("✅ *Slack token*");
    expect(text).toContain("All checks passed.");
  });

  it("is named in /decipher help", async () => {
    const bot = createBot({ apiKey: "k" });
    const ack = await bot.command("/decipher", "help");
    expect(ack.body).toContain("• `doctor` — (admins) this deployment checked as Slack and Decipher see it");
  });
});
