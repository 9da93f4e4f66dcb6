import type { Config, Env } from "../config.ts";
import { type DigestOutcome, sendDigest } from "../engine/compose-digest.ts";
import { createEngineDeps, type EngineDeps } from "../engine/engine-deps.ts";
import type { LedgerDigestLine } from "../engine/ledger-digest.ts";
import type { ReportOutcome } from "../engine/report-outcome.ts";
import { richBlockGate } from "../engine/rich-block-gate.ts";
import { retryDue } from "../model/poll-clock.ts";
import type { Subscription } from "../model/subscription.ts";
import { type DigestSchedule, DigestStore } from "../store/digest-store.ts";
import { nextOccurrence } from "../util/local-time.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { kvScopeOf, objectNames, registry } from "./addresses.ts";
import { historyPace } from "./history-pace.ts";
import { ledgerLines } from "./ledger-lines.ts";
import { channelOutbox, type SqlOutbox } from "./sql-outbox.ts";
import { SqlReportReads } from "./sql-report-reads.ts";
import { teamConfig } from "./tenancy.ts";

/**
 * A channel's scheduled reports, the daily digest and the weekly report, kept in its channel
 * object (src/objects/channel-object.ts) and run one at a time there: the object is the only
 * writer of their schedules, so a `/decipher digest` or `weekly` change and a due report never
 * overwrite each other, and a report is sent once however many crons overlap. Both go through
 * one pipeline: due → backoff → reads → outbox → send → outcome.
 */

/**
 * What a call for a due digest or weekly report did: sent it, or not; `more` when it read what
 * its budget allowed and the next call goes on (the cron calls again).
 */
export type ReportCall = { sent: boolean; more?: boolean };

/** A report as its channel object stores it: where it goes, when it is due, since when it fails. */
export type StoredReport<Schedule> = {
  channelId: string;
  teamId: string;
  schedule: Schedule | null;
  failedAt: string | null;
};

/** One due report being sent: what its builder reads and where it posts. */
export type ReportRun<Schedule> = {
  deps: EngineDeps;
  stored: StoredReport<Schedule> & { schedule: Schedule };
  subscriptions: Subscription[];
  now: Date;
  outbox: SqlOutbox;
  /** Each test's line from its own object's ledger: one internal call each, no vendor read. */
  lines: () => Promise<ReadonlyMap<number, LedgerDigestLine>>;
  /** What earlier calls for this occurrence read. */
  reads: SqlReportReads;
};

/** What differs between the two reports: where each is stored, and how it is built and sent. */
export type ReportSpec<Schedule extends { nextDueAt: string }, Reads> = {
  /** Its key in the channel object's storage. */
  key: string;
  /** Its name among the reads kept between calls (src/objects/sql-report-reads.ts). */
  reads: string;
  save: (storage: DurableObjectStorage, env: Env, state: StoredReport<Schedule>) => Promise<void>;
  send: (run: ReportRun<Schedule>) => Promise<ReportOutcome<Schedule, Reads>>;
  /** Keeps what a call read, for the next call. */
  keep: (reads: SqlReportReads, read: Reads) => void;
};

/**
 * Sends the report if it is due. One that failed (Slack or Decipher down) is tried each minute
 * for three minutes, then every fifth (src/model/poll-clock.ts `retryDue`).
 */
export async function sendDueReport<Schedule extends { nextDueAt: string }, Reads>(
  storage: DurableObjectStorage,
  env: Env,
  spec: ReportSpec<Schedule, Reads>,
  at: string,
  config: Config,
  /** The channel's subscriptions, from its index (src/objects/channel-object.ts). */
  subscriptionsOf: (channelId: string) => Promise<Subscription[]>,
): Promise<ReportCall> {
  const stored = await storage.get<StoredReport<Schedule>>(spec.key);
  const now = new Date(at);
  const schedule = stored?.schedule;
  if (!stored || !schedule || Date.parse(schedule.nextDueAt) > now.getTime()) return { sent: false };
  const team = await teamConfig(env, config, stored.teamId);
  if (!team) return { sent: false };
  if (stored.failedAt && !retryDue(stored.failedAt, now)) return { sent: false };
  const deps = createEngineDeps(team, env, {
    now: () => now,
    budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION),
  });
  const subscriptions = await subscriptionsOf(stored.channelId);
  const { channelId, teamId } = stored;
  const run: ReportRun<Schedule> = {
    deps,
    stored: { ...stored, schedule },
    subscriptions,
    now,
    outbox: channelOutbox(storage.sql, deps.slack, team, {
      channel: channelId,
      now,
      pace: historyPace(env, team, teamId, now),
      gate: richBlockGate(deps, teamId),
    }),
    lines: () => ledgerLines(env, teamId, channelId, subscriptions, at, team),
    reads: new SqlReportReads(storage.sql, spec.reads, schedule.nextDueAt),
  };
  const outcome = await spec.send(run);
  if (outcome.kind === "reading") {
    spec.keep(run.reads, outcome.reads);
    return { sent: false, more: true };
  }
  run.reads.clear();
  if (outcome.kind === "retry") {
    if (!stored.failedAt) await storage.put(spec.key, { ...stored, failedAt: at });
    return { sent: false };
  }
  await spec.save(storage, env, { ...stored, schedule: outcome.next, failedAt: null });
  return { sent: outcome.kind === "sent" };
}

/** The daily digest: stored under "channel", mirrored to KV for `/decipher list`, its due time in the registry. */
export const DIGEST: ReportSpec<DigestSchedule, Extract<DigestOutcome, { kind: "reading" }>["reads"]> = {
  key: "channel",
  reads: "digest",
  save: saveDigest,
  send: (run) =>
    sendDigest(
      run.deps,
      run.stored.channelId,
      run.stored.schedule,
      run.subscriptions,
      run.now,
      run.outbox,
      run.lines,
      run.reads.read("collections"),
    ),
  keep: (reads, read) => reads.add("collections", read),
};

async function saveDigest(storage: DurableObjectStorage, env: Env, state: StoredReport<DigestSchedule>) {
  await storage.put("channel", state);
  await new DigestStore(env.STATE, kvScopeOf(env, state.teamId)).writeCopy(state.channelId, state.schedule);
  await registry(env, state.teamId).setDigestDue(
    objectNames.channel(state.teamId, state.channelId),
    state.schedule?.nextDueAt ?? null,
  );
}

/** The stored digest record (the channel's own record: its team and channel too). */
export const storedDigest = (storage: DurableObjectStorage) =>
  storage.get<StoredReport<DigestSchedule>>("channel");

/** `/decipher digest HH:MM zone` (or off): due at the first such time after now, never at once. */
export async function setDigest(
  storage: DurableObjectStorage,
  env: Env,
  where: { teamId: string; channelId: string },
  when: { time: string; zone: string } | null,
  at: string,
): Promise<DigestSchedule | null> {
  const previous = (await storedDigest(storage))?.schedule ?? null;
  const schedule: DigestSchedule | null = when
    ? {
        time: when.time,
        zone: when.zone,
        nextDueAt: nextOccurrence(when.time, when.zone, new Date(at)).toISOString(),
        lastSentAt: previous?.lastSentAt ?? null,
        collectionCounts: previous?.collectionCounts ?? {},
        ...(previous?.history ? { history: previous.history } : {}),
      }
    : null;
  await saveDigest(storage, env, { ...where, schedule, failedAt: null });
  return previous;
}
