import { createBot, emulatorUrl, newOrg } from "./bot.ts";

/** The emulator's control API (dev/emulator/README.md), bound to one organization. */
export function emulatorOrg(apiKey: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${emulatorUrl}/__emulator${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify({ apiKey, ...(body as object) }) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
  type Run = { id: number; status: string; testId: number };
  return {
    apiKey,
    addRun: (testId: number, status: "passed" | "failed" | "running", extra: Record<string, unknown> = {}) =>
      call<Run>("POST", `/tests/${testId}/runs`, { status, ...extra }),
    setRun: (runId: number, status: "passed" | "failed" | "running") =>
      call<Run>("PATCH", `/runs/${runId}`, { status }),
    addTest: (name: string) => call<{ id: number; name: string }>("POST", "/tests", { name }),
    grow: (collectionId: number, count: number) =>
      call<{ collection: { sessionCount: number } }>("POST", `/collections/${collectionId}/sessions`, {
        count,
      }),
    resolve: (collectionId: number, isResolved: boolean) =>
      call("PATCH", `/collections/${collectionId}`, { isResolved }),
    fault: (route: string, kind: "429" | "500" | "hang" | "malformed", count = 1, retryAfter?: number) =>
      call("POST", "/faults", { route, kind, count, ...(retryAfter === undefined ? {} : { retryAfter }) }),
    requests: async () =>
      (await (
        await fetch(`${emulatorUrl}/__emulator/requests?apiKey=${encodeURIComponent(apiKey)}`)
      ).json()) as {
        total: number;
        byRoute: Record<string, number>;
      },
  };
}

/**
 * A bot with its own emulator organization and Slack workspace, after one `/decipher`
 * command (by default, `#alerts` subscribing to test 101).
 */
export async function subscribedBot(command = "subscribe test 101", channelId = "C0ALERTS") {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  await bot.command("/decipher", command, { channelId });
  return { bot, org: emulatorOrg(apiKey) };
}
