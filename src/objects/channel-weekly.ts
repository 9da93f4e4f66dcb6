import type { Config, Env } from "../config.ts";
import { createEngineDeps, type EngineDeps } from "../engine/engine-deps.ts";
import { richBlockGate } from "../engine/rich-block-gate.ts";
import { sendWeeklyReport } from "../engine/weekly-report.ts";
import type { Subscription } from "../model/subscription.ts";
import { type Weekday, type WeeklySchedule, weeklySchedule } from "../model/weekly-schedule.ts";
import { WeeklyStore } from "../store/weekly-store.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { kvScopeOf, objectNames, registry } from "./addresses.ts";
import { ledgerLines } from "./ledger-lines.ts";
import { SqlOutbox } from "./sql-outbox.ts";
import { SqlReportReads } from "./sql-report-reads.ts";

/**
 * A channel's weekly report, kept in its channel object (src/objects/channel-object.ts) beside
 * the daily digest and run one at a time with it: the object is the only writer of the
 * schedule, so a `/decipher weekly` change and a due report never overwrite each other, and a
 * report is sent once however many crons overlap. The team's registry shard knows it as its own due time,
 * `<channel object name>#weekly`.
 */

export type WeeklyWhen = { day: Weekday; time: string; zone: string };

/**
 * What a call for a due digest or weekly report did: sent it, or not; `more` when it read what
 * its budget allowed and the next call goes on (the cron calls again).
 */
export type ReportCall = { sent: boolean; more?: boolean };

type StoredWeekly = {
  channelId: string;
  teamId: string;
  schedule: WeeklySchedule | null;
  failedAt: string | null;
};

const KEY = "weekly";
const SUFFIX = "#weekly";

/** The registry's name for a channel's weekly report. */
export const weeklyDueName = (channelName: string) => `${channelName}${SUFFIX}`;

/** A due name from the registry: the channel object it belongs to, and whether it is the weekly report. */
export function dueTarget(name: string): { channel: string; weekly: boolean } {
  return name.endsWith(SUFFIX)
    ? { channel: name.slice(0, -SUFFIX.length), weekly: true }
    : { channel: name, weekly: false };
}

async function save(storage: DurableObjectStorage, env: Env, state: StoredWeekly): Promise<void> {
  await storage.put(KEY, state);
  await new WeeklyStore(env.STATE, kvScopeOf(env, state.teamId)).writeCopy(state.channelId, state.schedule);
  await registry(env, state.teamId).setDigestDue(
    weeklyDueName(objectNames.channel(state.teamId, state.channelId)),
    state.schedule?.nextDueAt ?? null,
  );
}

/** The channel's weekly schedule, for its index (`ChannelObject.channelIndex`). */
export async function readWeekly(storage: DurableObjectStorage): Promise<WeeklySchedule | null> {
  return (await storage.get<StoredWeekly>(KEY))?.schedule ?? null;
}

/** `/decipher weekly mon 09:00 zone` (or off): due at the first such time after now, never at once. */
export async function setWeekly(
  storage: DurableObjectStorage,
  env: Env,
  teamId: string,
  channelId: string,
  when: WeeklyWhen | null,
  at: string,
): Promise<WeeklySchedule | null> {
  const previous = (await storage.get<StoredWeekly>(KEY))?.schedule ?? null;
  const schedule = when ? weeklySchedule(when, new Date(at), previous) : null;
  await save(storage, env, { channelId, teamId, schedule, failedAt: null });
  return previous;
}

/** Sends the report if it is due; one that failed is tried each minute for three minutes, then every fifth. */
/** The channel object's outbox (the digest's), here for the weekly report. */
function weeklyOutbox(
  storage: DurableObjectStorage,
  deps: EngineDeps,
  channelId: string,
  teamId: string,
  now: Date,
  config: Config,
): SqlOutbox {
  SqlOutbox.migrate(storage.sql);
  return new SqlOutbox(
    storage.sql,
    deps.slack,
    channelId,
    now,
    { storage: 0 },
    config.slackLookupAfterMs,
    richBlockGate(deps, teamId),
  );
}

export async function sendDueWeekly(
  storage: DurableObjectStorage,
  env: Env,
  at: string,
  config: Config,
  /** The channel's subscriptions, from its index (src/objects/channel-object.ts). */
  subscriptionsOf: (channelId: string) => Promise<Subscription[]>,
): Promise<ReportCall> {
  const stored = await storage.get<StoredWeekly>(KEY);
  const now = new Date(at);
  if (!stored?.schedule || Date.parse(stored.schedule.nextDueAt) > now.getTime()) return { sent: false };
  if (stored.failedAt) {
    const minutes = Math.floor((now.getTime() - Date.parse(stored.failedAt)) / 60_000);
    if (minutes >= 3 && minutes % 5 !== 0) return { sent: false };
  }
  const deps = createEngineDeps(config, env, {
    now: () => now,
    budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
  });
  const subscriptions = await subscriptionsOf(stored.channelId);
  const reads = new SqlReportReads(storage.sql, "weekly", stored.schedule.nextDueAt);
  const outcome = await sendWeeklyReport(
    deps,
    stored.channelId,
    stored.schedule,
    subscriptions,
    now,
    weeklyOutbox(storage, deps, stored.channelId, stored.teamId, now, config),
    // Each test's state as its object knows it, as the digest names it.
    () => ledgerLines(env, stored.teamId, stored.channelId, subscriptions, at),
    { tests: reads.read("tests"), collections: reads.read("collections") },
  );
  if (outcome.kind === "reading") {
    reads.add("tests", outcome.reads.tests);
    reads.add("collections", outcome.reads.collections);
    return { sent: false, more: true };
  }
  reads.clear();
  if (outcome.kind === "retry") {
    if (!stored.failedAt) await storage.put(KEY, { ...stored, failedAt: at });
    return { sent: false };
  }
  await save(storage, env, { ...stored, schedule: outcome.next, failedAt: null });
  return { sent: outcome.kind === "sent" };
}
