import {
  createExecutionContext,
  createScheduledController,
  env,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { type Bot, standInUrl, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import worker from "../../src/index.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { Subscription } from "../../src/model/subscription.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import { SqlRunLedger } from "../../src/objects/sql-run-ledger.ts";
import { postMetadata } from "../../src/slack-api/post-message.ts";

/** `/decipher status` as the person reads it. */
export async function statusText(bot: Bot, channelId = "C0ALERTS"): Promise<string> {
  const res = await bot.command("/decipher", "status", { channelId });
  return visibleText(JSON.parse(res.body));
}

export type HealthBody = {
  ok: boolean;
  lastPollAt: string | null;
  watchdogAgeSeconds: number | null;
  lastSuccessfulPollAt: string | null;
  lastSuccessfulPollAgeSeconds: number | null;
  subscriptions: number;
  failingSubscriptions: number;
  pausedSubscriptions: number;
  /** Where a pause is told in plain words, when there is one. */
  paused?: string;
  overdue: number;
  /** The clock's pace (src/messages/clock-pace.ts `clockFigures`). */
  clock: { idlePollSeconds: number; runningPollSeconds: number; plan: string; stretched?: string };
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

/** The subscription object's run ledger (src/model/run-ledger.ts), newest first. */
export async function ledgerOf(
  bot: Bot,
  kind: "test" | "collection",
  id: number,
  channelId = "C0ALERTS",
): Promise<LedgerRow[]> {
  const stub = await subscriptionStub(bot, kind, id, channelId);
  return runInDurableObject(stub, (_instance, state) =>
    new SqlRunLedger(state.storage.sql, { storage: 0 })
      .recent(new Date(), 8 * 24 * 60 * 60 * 1000)
      .sort((a, b) => b.id - a.id)
      .slice(0, 500),
  );
}

/** Failed runs the ledger holds with no fate: what the overdue audit counts once they are 5 minutes old. */
export async function unfatedFailures(
  bot: Bot,
  kind: "test" | "collection",
  id: number,
  channelId = "C0ALERTS",
) {
  return (await ledgerOf(bot, kind, id, channelId)).filter((r) => r.status === "failed" && r.fate === null);
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
export async function cronWith(bot: Bot, extra: Record<string, string>, at: Date = new Date()) {
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

/** A post Slack stored for the bot under `key` (as a post whose answer never came back would be); its ts. */
export async function storedBySlack(
  bot: Bot,
  key: string,
  text: string,
  channelId = "C0ALERTS",
): Promise<string> {
  const res = await fetch(`${standInUrl}/api/chat.postMessage`, {
    method: "POST",
    headers: { authorization: `Bearer ${bot.botToken}`, "content-type": "application/json" },
    body: JSON.stringify({ channel: channelId, text, metadata: postMetadata(key) }),
  });
  return ((await res.json()) as { ts: string }).ts;
}

/**
 * What a ChannelObject that died between Slack storing its outage message and hearing back
 * leaves: the message in Slack under its key, and in the object the outage naming `runIds`
 * of `tests` with its intent still unresolved. Returns the key and the stored message's ts.
 */
export async function outageLeftMidPost(
  bot: Bot,
  tests: readonly { id: number; name: string }[],
  runIds: readonly number[],
  at: Date,
  subscribed: number,
): Promise<{ key: string; ts: string }> {
  const key = `outage:${at.toISOString()}`;
  const items = tests.map((t, i) => ({
    testId: t.id,
    testName: t.name,
    runId: runIds[i] as number,
    summary: null,
  }));
  const ts = await storedBySlack(bot, key, `${tests.length} tests failing at once`);
  const channel = env.CHANNELS.get(
    env.CHANNELS.idFromName(objectNames.channel(await bot.team(), "C0ALERTS")),
  );
  await runInDurableObject(channel, async (_instance, state) => {
    await state.storage.put("outage", { key, at: at.toISOString(), items, subscribed, ts: null, named: [] });
    state.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS outbox (key TEXT PRIMARY KEY, state TEXT NOT NULL, ts TEXT, thread_ts TEXT, intended_at TEXT NOT NULL)",
    );
    state.storage.sql.exec(
      "INSERT INTO outbox (key, state, ts, thread_ts, intended_at) VALUES (?, 'intended', NULL, NULL, ?)",
      key,
      at.toISOString(),
    );
  });
  return { key, ts };
}

/** The team's registry shard (src/objects/registry-object.ts). */
export async function registryShard(bot: Bot) {
  return env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registry(await bot.team())));
}

/** The directory of registry shards: what the cron reads first and `/health` adds up. */
export const registryDirectoryStub = () =>
  env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registryDirectory()));

/**
 * Makes a subscription's watchdog lease pass now, as if its clock stopped 15 minutes ago: its
 * shard tells the directory (the earlier time always goes), as a lease that passes does by then.
 */
export async function expireLease(bot: Bot, name: string): Promise<void> {
  const shard = await registryShard(bot);
  await runInDurableObject(shard, (_i, state) => {
    state.storage.sql.exec("UPDATE leases SET until = 0 WHERE name = ?", name);
  });
  await shard.recordPolls(new Date().toISOString(), []);
}

/** What a poll that died mid-post leaves in the object's outbox. */
export async function leaveIntent(bot: Bot, kind: "test" | "collection", id: number, key: string, at: Date) {
  const stub = await subscriptionStub(bot, kind, id);
  await runInDurableObject(stub, async (_instance, state) => {
    state.storage.sql.exec(
      "INSERT OR REPLACE INTO outbox (key, state, ts, thread_ts, intended_at) VALUES (?, 'intended', NULL, NULL, ?)",
      key,
      at.toISOString(),
    );
  });
}

/**
 * A start for a simulated span that stays within one UTC day: now, or just after the coming
 * midnight when the span would cross it. A test called flaky keeps to its thread until the end
 * of the UTC day (src/engine/decide-test-step.ts), so a span that crosses midnight would see a
 * new day's alerts whatever the hour the suite runs at.
 */
export function startWithinOneUtcDay(spanMs: number, now = Date.now()): number {
  const midnight = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate() + 1,
  );
  return now + spanMs < midnight ? now : midnight + 1000;
}
