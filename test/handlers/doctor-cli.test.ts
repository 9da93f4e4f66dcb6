import { describe, expect, it } from "vitest";
import { type Bot, createBot, newOrg, signingSecret } from "../../dev/in-workerd/bot.ts";
import { formatReport, runDoctor, WRONG_SECRET } from "../../tools/doctor-check.ts";

/** The doctor's requests go to this bot's Worker, as `fetch` would take them to a deployment. */
const workerOf = (bot: Bot) => async (req: Request) => {
  const res = await bot.send(req);
  return new Response(res.body, { status: res.status, headers: res.headers });
};

describe("npm run doctor (tools/doctor-check.ts)", () => {
  it("signs its request so the Worker answers, and prints a line a check and the verdict", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.cron();
    const report = await runDoctor("http://bot.test/", signingSecret, workerOf(bot));
    expect(report.ok).toBe(true);
    const printed = formatReport(report);
    expect(printed).toMatch(
      /^✓ signing secret: this request's signature holds: the Worker has the app's signing secret$/m,
    );
    expect(printed).toMatch(/^✓ Decipher key: the key ending \w{4} reads its organization's sessions$/m);
    expect(printed.split("\n").at(-1)).toBe("All checks passed.");
  });

  it("says the signing secret is wrong, and where the right one is, when the Worker refuses it", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const report = await runDoctor("http://bot.test/", "someone-elses-secret", workerOf(bot));
    expect(report).toEqual({ ok: false, lines: [WRONG_SECRET] });
    expect(formatReport(report)).toContain(
      "→ copy the Signing Secret from the Slack app's Basic Information page",
    );
  });

  it("says to deploy this version when the Worker has no /health/deep", async () => {
    const old = async () => Response.json({ ok: false, error: "not found" }, { status: 404 });
    const report = await runDoctor("https://bot.example/", signingSecret, old);
    expect(formatReport(report)).toBe(
      [
        "✗ Worker: https://bot.example/health/deep answered 404, not the doctor's report",
        "    → deploy this version of the bot (npm run deploy); an older one has no /health/deep",
        "1 check(s) failed.",
      ].join("\n"),
    );
  });

  it("names a Worker that does not answer", async () => {
    const report = await runDoctor("https://nowhere.example/", signingSecret, async () => {
      throw new TypeError("fetch failed");
    });
    expect(report.lines).toEqual([
      expect.objectContaining({ check: "Worker", text: "no answer from https://nowhere.example" }),
    ]);
  });
});
