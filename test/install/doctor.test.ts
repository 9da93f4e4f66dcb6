import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { DOCTOR_CHECKS, deepRequest, lastReplyTo } from "../helpers/doctor.ts";
import { installedWithKey } from "../helpers/installs.ts";

describe("the doctor in multi-workspace mode", () => {
  it("/decipher doctor checks the workspace it is typed in: its own token, scopes and Decipher key", async () => {
    const { bot, apiKey } = await installedWithKey("acme");
    await bot.command("/decipher", "subscribe test 101");
    await bot.cron();
    await bot.command("/decipher", "doctor", { userId: "U0ALICE" });
    const text = visibleText(await lastReplyTo(bot, "U0ALICE"));
    for (const check of DOCTOR_CHECKS) expect(text).toContain(`✅ *${check}*`);
    expect(text).toContain(`the key ending ${apiKey.slice(-4)} reads its organization's sessions`);
    expect(text).toContain(`works in the workspace Acme Sandbox (${await bot.team()})`);
    expect(text).toContain("history is read once a minute, 15 messages a page");
  });

  it("refuses a member who did not install the app and is no admin", async () => {
    const { bot } = await installedWithKey("acme");
    await bot.command("/decipher", "doctor", { userId: "U0BOB" });
    expect(visibleText(await lastReplyTo(bot, "U0BOB"))).toMatch(/^Only the bot's admins/);
  });

  it("GET /health/deep checks the deployment and leaves each workspace to /decipher doctor", async () => {
    const { bot } = await installedWithKey("acme");
    await bot.cron();
    const res = await bot.send(await deepRequest());
    const body = JSON.parse(res.body) as { ok: boolean; lines: { check: string; ok: boolean }[] };
    expect(body.lines.map((l) => l.check)).toEqual([
      "signing secret",
      "workspaces",
      "distribution",
      "clocks",
      "daily budget",
    ]);
    expect(body.ok).toBe(true);
  });
});
