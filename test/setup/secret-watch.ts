import { afterAll, beforeAll, expect, vi } from "vitest";
import { createdBots, signingSecret, standIn, type WatchedBot } from "../../dev/in-workerd/bot.ts";

/**
 * Every test file is watched for leaked secrets: everything written to the console, and every
 * Web API call and message its bots left in the Slack stand-in, checked against the signing
 * secret and every API key and bot token the file's bots used.
 */
const logged: string[] = [];
const spies: Array<{ mockRestore(): void }> = [];

beforeAll(() => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    spies.push(
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (typeof a === "string" ? a : safeJson(a))).join(" "));
        original(...args);
      }),
    );
  }
});

afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  const secrets = new Set([signingSecret, ...createdBots.flatMap(secretsOf)]);
  const traffic: string[] = [];
  for (const bot of createdBots) {
    traffic.push(JSON.stringify(await standIn.calls(bot.botToken)));
    for (const channel of ["C0ALERTS", "C0GENERAL", "C0DEMO", "C0NOTIN"])
      traffic.push(JSON.stringify(await bot.messages(channel)));
  }
  for (const secret of secrets) {
    expect(
      logged.filter((line) => line.includes(secret)),
      "console leaked a secret",
    ).toEqual([]);
    // The inspection API echoes the workspace's own token in no field; any hit is a leak.
    expect(
      traffic.filter((t) => t.includes(secret)),
      "Slack traffic leaked a secret",
    ).toEqual([]);
  }
});

function secretsOf(bot: WatchedBot): string[] {
  return [bot.botToken, String(bot.env.DECIPHER_API_KEY ?? "")].filter((s) => s.length >= 8);
}

function safeJson(value: unknown): string {
  try {
    return value instanceof Error
      ? `${value.name}: ${value.message}\n${value.stack ?? ""}`
      : JSON.stringify(value);
  } catch {
    return String(value);
  }
}
