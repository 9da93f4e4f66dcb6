import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { readConfig } from "../../src/env.ts";
import worker from "../../src/index.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import type { Subscription } from "../../src/state/subscription-types.ts";
import { type Bot, emulatorUrl, ordinaryNow, visibleText } from "./bot.ts";

/**
 * The emulator controls the behaviour tests need beyond test/helpers/emulator.ts: runs
 * recorded in the past, malformed runs, list order, retention, and clearing faults.
 */
export function emulatorControls(apiKey: string) {
  async function call<T>(method: string, path: string, body?: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${emulatorUrl}/__emulator${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify({ apiKey, ...body }) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
  type Run = { id: number; status: string; createdAt: string };
  return {
    /** A run with optional `createdAt` (ISO, in the past) and `raw` wire fields served verbatim. */
    addRun: (
      testId: number,
      status: "passed" | "failed" | "running",
      extra: { createdAt?: string; raw?: Record<string, unknown> } = {},
    ) => call<Run>("POST", `/tests/${testId}/runs`, { status, ...extra }),
    setRun: (runId: number, body: { status?: string; raw?: Record<string, unknown> | null }) =>
      call<Run>("PATCH", `/runs/${runId}`, body),
    listOrder: (order: "newest" | "oldest") => call("POST", "/list-order", { order }),
    expire: (collectionId: number, count: number) =>
      call<{ collection: { sessionCount: number } }>("POST", `/collections/${collectionId}/expire`, {
        count,
      }),
    grow: (collectionId: number, count: number) =>
      call<{ collection: { sessionCount: number } }>("POST", `/collections/${collectionId}/sessions`, {
        count,
      }),
    clearFaults: async () => {
      await fetch(`${emulatorUrl}/__emulator/faults?apiKey=${encodeURIComponent(apiKey)}`, {
        method: "DELETE",
      });
    },
    /** Test-run list requests so far (what one poll of a test costs at the vendor). */
    runRequests: async () => {
      const res = await fetch(`${emulatorUrl}/__emulator/requests?apiKey=${encodeURIComponent(apiKey)}`);
      return ((await res.json()) as { total: number }).total;
    },
  };
}

/** `/decipher status` as the person reads it. */
export async function statusText(bot: Bot, channelId = "C0ALERTS"): Promise<string> {
  const res = await bot.command("/decipher", "status", { channelId });
  return visibleText(JSON.parse(res.body));
}

export type HealthBody = {
  ok: boolean;
  lastPollAt: string | null;
  lastSuccessfulPollAt: string | null;
  lastSuccessfulPollAgeSeconds: number | null;
  subscriptions: number;
  failingSubscriptions: number;
  pausedSubscriptions: number;
  problems?: string[];
};

export async function health(bot: Bot): Promise<HealthBody> {
  return JSON.parse((await bot.send(new Request("http://bot.test/health"))).body) as HealthBody;
}

/** The subscription's Durable Object: the one writer of its alert state. */
export async function subscriptionStub(
  bot: Bot,
  kind: "test" | "collection",
  id: number,
  channelId = "C0ALERTS",
) {
  const name = objectNames.subscription({ teamId: await bot.team(), channelId, kind, id });
  return env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name));
}

/** The state the object holds (not the KV copy). */
export async function objectState<S extends Subscription = Subscription>(
  bot: Bot,
  kind: "test" | "collection",
  id: number,
  channelId = "C0ALERTS",
): Promise<S | null> {
  const stub = await subscriptionStub(bot, kind, id, channelId);
  return ((await stub.read()) as S | null) ?? null;
}

/**
 * One poll of one subscription: exactly one invocation of its object (a cron may make two:
 * the outage check holds new failures in a first pass and posts them in a second).
 */
export async function pollOnce(
  bot: Bot,
  kind: "test" | "collection",
  id: number,
  at: Date,
  channelId = "C0ALERTS",
) {
  const name = objectNames.subscription({ teamId: await bot.team(), channelId, kind, id });
  const stub = env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name));
  return stub.poll(name, at.toISOString(), readConfig(bot.env));
}

/** The cron with extra bindings (e.g. a short SLACK_TIMEOUT_MS), as Cloudflare would fire it. */
export async function cronWith(bot: Bot, extra: Record<string, string>, at: Date = ordinaryNow()) {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: at, cron: "* * * * *" }),
    { ...bot.env, ...extra } as typeof bot.env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 10_000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Run ids a message links to (`…/runs/<id>`). */
export function runIdsIn(text: string): number[] {
  return [...text.matchAll(/runs\/(\d+)/g)].map((m) => Number(m[1]));
}
