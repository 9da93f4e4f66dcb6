import { afterAll, beforeAll, expect, vi } from "vitest";
import { type Bot, signingSecret, standInUrl } from "../helpers/bot.ts";

/**
 * Watches a whole test file for leaked secrets: everything written to the console, and every
 * Web API call and message the bots of the file left in the Slack stand-in.
 */
export function watchSecrets() {
  const logged: string[] = [];
  const bots: Bot[] = [];
  const apiKeys: string[] = [];
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
    const secrets = [signingSecret, ...apiKeys, ...bots.map((b) => b.botToken)];
    const traffic: string[] = [];
    for (const bot of bots) {
      const calls = await fetch(`${standInUrl}/__slack/calls?botToken=${encodeURIComponent(bot.botToken)}`);
      traffic.push(await calls.text());
      for (const channel of ["C0ALERTS", "C0GENERAL", "C0DEMO"])
        traffic.push(JSON.stringify(await bot.messages(channel)));
    }
    for (const secret of secrets) {
      expect(
        logged.filter((line) => line.includes(secret)),
        `console leaked a secret`,
      ).toEqual([]);
      // The inspection API echoes the workspace's own token in no field; any hit is a leak.
      expect(
        traffic.filter((t) => t.includes(secret)),
        "Slack traffic leaked a secret",
      ).toEqual([]);
    }
    console.log(
      `secret watch: ${logged.length} console lines, ${traffic.length} Slack logs checked for ${secrets.length} secrets`,
    );
  });

  return {
    track(bot: Bot, apiKey: string) {
      bots.push(bot);
      apiKeys.push(apiKey);
      return bot;
    },
  };
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
