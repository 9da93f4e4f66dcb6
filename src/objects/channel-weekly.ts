import type { Env } from "../config.ts";
import { sendWeeklyReport, type WeeklyReads } from "../engine/weekly-report.ts";
import { type Weekday, type WeeklySchedule, weeklySchedule } from "../model/weekly-schedule.ts";
import { WeeklyStore } from "../store/weekly-store.ts";
import { kvScopeOf, objectNames, registry } from "./addresses.ts";
import type { ReportSpec, StoredReport } from "./channel-reports.ts";

/**
 * A channel's weekly report, kept in its channel object beside the daily digest and sent
 * through the same pipeline (src/objects/channel-reports.ts). The team's registry shard
 * knows it as its own due time, `<channel object name>#weekly`.
 */

export type WeeklyWhen = { day: Weekday; time: string; zone: string };

type StoredWeekly = StoredReport<WeeklySchedule>;

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

/** The weekly report in the channel's report pipeline (src/objects/channel-reports.ts). */
export const WEEKLY: ReportSpec<WeeklySchedule, WeeklyReads> = {
  key: KEY,
  reads: "weekly",
  save,
  send: (run) =>
    sendWeeklyReport(
      run.deps,
      run.stored.channelId,
      run.stored.schedule,
      run.subscriptions,
      run.now,
      run.outbox,
      // Each test's state as its object knows it, as the digest names it.
      run.lines,
      { tests: run.reads.read("tests"), collections: run.reads.read("collections") },
    ),
  keep: (reads, read) => {
    reads.add("tests", read.tests);
    reads.add("collections", read.collections);
  },
};
