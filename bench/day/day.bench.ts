import { env } from "cloudflare:test";
import { inject, it } from "vitest";
import { type Bot, createBot, emulator, newOrg, standIn } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import {
  callInvocations,
  countedEnv,
  countFetches,
  countObject,
  invocation,
  runAlarm,
  type StubSeen,
  snapshot,
  type Tally,
} from "./counting.ts";
import type { DayResult, InvocationStats } from "./day-result.ts";
import { keepWeek } from "./kept-week.ts";
import { OUTAGE_MINUTES, type PlanEvent, planDay, SUBSCRIPTIONS_PER_CHANNEL, subjectsOf } from "./plan.ts";
import { installSimClock, setSimTime, simTime, TimeQueue, wallNow } from "./sim-clock.ts";

/**
 * `npm run bench:day` (bench/day/day.ts): the real engine over a simulated day, in workerd,
 * against the emulator and the Slack stand-in. The objects' alarms are run by this harness at
 * their simulated times (as the platform fires them: counting.ts runAlarm), the watchdog cron every simulated minute, and the
 * day's schedule (bench/day/plan.ts) changes the vendor's tests and collections in between. What
 * the code does is counted where it meets the platform (bench/day/counting.ts). Prints one
 * `DAY_JSON` line per size.
 */

type Options = { sizes: number[]; windows: number[]; seed?: number; plan?: string };
const options = ((inject as (key: string) => unknown)("dayBench") as Options | undefined) ?? {
  sizes: [20],
  windows: [],
};

/** Minutes simulated per size when BENCH_DAY_WINDOW_MINUTES does not say (a run stays near 10 minutes on 2 cores). */
export const defaultWindow = (n: number) => (n <= 20 ? 24 * 60 : n <= 200 ? 60 : 30);
/** The first minutes (every object's first poll after subscribing) are left out of the day's rate. */
export const WARM_MINUTES = 5;
/** The outage's own share of the day: its 10 minutes and 5 more for its alerts and windows. */
export const OUTAGE_SPAN_MINUTES = OUTAGE_MINUTES + 5;
/** A team (one Slack workspace of the stand-in) has three channels the bot is in. */
const CHANNELS = ["C0ALERTS", "C0GENERAL", "C0DEMO"] as const;
const PER_TEAM = CHANNELS.length * SUBSCRIPTIONS_PER_CHANNEL;
const MINUTE = 60_000;
/** The day's schedule and the teams' tokens (hence their team ids and the objects' phases) follow it. */
const SEED = options.seed ?? 35;

type Failure = { runId: number; failedAt: number; seenRunning: boolean };

/**
 * Every object counted so far, by id: an object is counted from the first call a counted
 * namespace makes to it, for the rest of the file (the sizes run one after the other in one
 * isolate), and its alarms go to the day being simulated. Its name is kept: the harness's call
 * is often the one that makes the instance, and an instance made from a bare id has no
 * `ctx.id.name`, which a registry shard reads for its team and a channel for its channel (an
 * object reached by name on the platform always has it).
 */
const objects = new Map<string, { binding: string; name: string | undefined }>();
let today: Day | null = null;

function stubOf(key: string): DurableObjectStub {
  const o = objects.get(key);
  if (!o) throw new Error(`unknown object ${key}`);
  const ns = (env as unknown as Record<string, DurableObjectNamespace>)[o.binding] as DurableObjectNamespace;
  return ns.get(o.name === undefined ? ns.idFromString(key) : ns.idFromName(o.name));
}

const seen: StubSeen = async (kind, _ns, id) => {
  const key = id.toString();
  if (objects.has(key)) return;
  objects.set(key, { binding: kind.toUpperCase(), name: id.name });
  const at = await countObject(stubOf(key), kind, seen, (t) => today?.schedule(key, t));
  if (at !== null) today?.schedule(key, at);
};

class Day {
  readonly queue = new TimeQueue<{ alarm?: string; event?: PlanEvent; cron?: true }>();
  readonly alarms = new Map<string, number>();
  readonly lastAlarm = new Map<string, number>();
  readonly invocations: Record<string, InvocationStats> = {};
  readonly announced = new Map<number, number>();
  readonly failures: Failure[] = [];
  readonly slackMethods: Record<string, number> = {};
  /** Runs that ended (passed or failed) after the warm-up, for the KV writes a run costs. */
  readonly ended = { passed: 0, failed: 0 };
  warmEnds = 0;
  alarmsNotFound = 0;

  schedule(key: string, at: number | null): void {
    if (at === null) {
      this.alarms.delete(key);
      return;
    }
    this.alarms.set(key, at);
    this.queue.push(at, { alarm: key });
  }

  async measure(request: string, run: () => Promise<unknown>) {
    const r = await invocation(request, run);
    const s = this.invocations[request] ?? {
      count: 0,
      maxInternal: 0,
      maxExternal: 0,
      maxWallMs: 0,
      wallMs: 0,
    };
    this.invocations[request] = s;
    s.count++;
    s.maxInternal = Math.max(s.maxInternal, r.internal);
    s.maxExternal = Math.max(s.maxExternal, r.external);
    s.maxWallMs = Math.max(s.maxWallMs, r.wallMs);
    s.wallMs += r.wallMs;
    return r.result;
  }

  async runAlarm(key: string, at: number): Promise<void> {
    if (this.alarms.get(key) !== at) return;
    this.alarms.delete(key);
    this.lastAlarm.set(key, at);
    const binding = objects.get(key)?.binding.toLowerCase();
    const ran = await this.measure(`alarm ${binding}`, () => runAlarm(stubOf(key)));
    if (!ran) this.alarmsNotFound++;
  }

  /** A Slack call that names a run (`…/runs/<id>`) announces it, the first time. */
  onSlack = (method: string, body: string) => {
    const name = method.split("?")[0] ?? method;
    this.slackMethods[name] = (this.slackMethods[name] ?? 0) + 1;
    if (!/^chat\.(postMessage|update)/.test(method)) return;
    const text = decodeURIComponent(body.replace(/\+/g, " "));
    for (const m of text.matchAll(/runs\/(\d+)/g)) {
      const id = Number(m[1]);
      if (!this.announced.has(id)) this.announced.set(id, simTime());
    }
  };
}

type Team = { bot: Bot; org: ReturnType<typeof emulator.org>; botToken: string };
type Subject = { team: Team; kind: "test" | "collection"; vendorId: number; key: string };

/**
 * N subscriptions made with `/decipher subscribe`, 20 to a channel, 3 channels to a Slack team
 * (the stand-in's workspace has three channels the bot is in), each test's ledger holding the
 * week of passes earlier days left it (bench/day/kept-week.ts), so the day prunes as a deployed one does. The teams read one Decipher
 * organization, so no two subscriptions share a vendor id (single-workspace mode keeps its KV
 * copies under channel, kind and id).
 */
async function setUp(n: number, startMs: number) {
  const apiKey = await newOrg();
  const org = emulator.org(apiKey);
  const teams: Team[] = [];
  for (let t = 0; t * PER_TEAM < n; t++) {
    const botToken = `xoxb-day-${n}-${t}-${SEED}`;
    const counted = countedEnv(
      {
        SUBSCRIPTIONS: env.SUBSCRIPTIONS,
        CHANNELS: env.CHANNELS,
        REGISTRY: env.REGISTRY,
        WORKSPACES: env.WORKSPACES,
      },
      seen,
    );
    const bot = createBot({
      apiKey,
      botToken,
      // Production's timeouts (the suites' 1 s vendor timeout would fire on a busy machine,
      // while the simulated clock stands still).
      env: {
        POLL_CLOCK: "alarms",
        VENDOR_TIMEOUT_MS: "8000",
        // The plan the governor keeps the day under (src/model/plan-governor.ts): "paid" is full speed.
        ...(options.plan ? { PLAN: options.plan } : {}),
        SLACK_TIMEOUT_MS: "10000",
        ...(counted as unknown as Record<string, string>),
      },
    });
    teams.push({ bot, org, botToken });
  }
  const subjects: Subject[] = [];
  for (const s of subjectsOf(n)) {
    const team = teams[Math.floor(s.index / PER_TEAM)] as Team;
    const channelId = CHANNELS[Math.floor((s.index % PER_TEAM) / SUBSCRIPTIONS_PER_CHANNEL)] as string;
    const vendorId =
      s.kind === "test"
        ? (await team.org.addTest(`Day test ${s.index}`)).id
        : (await team.org.addCollection(`Day root cause ${s.index}`)).id;
    const ack = await team.bot.command("/decipher", `subscribe ${s.kind} ${vendorId}`, { channelId });
    const name = `${await team.bot.team()}:${channelId}:${s.kind}:${vendorId}`;
    const key = env.SUBSCRIPTIONS.idFromName(name).toString();
    if (!objects.has(key)) throw new Error(`subscription ${s.index} not made: ${ack.body.slice(0, 300)}`);
    subjects.push({ team, kind: s.kind, vendorId, key });
    if (s.kind === "test")
      await keepWeek(env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name)), s.index, simTime());
    setSimTime(simTime() + 100);
  }
  for (const t of teams) await standIn.clock(t.botToken, startMs);
  return { teams, subjects };
}

async function simulate(n: number, windowMinutes: number): Promise<DayResult> {
  // The day starts two UTC midnights from now: every alarm the objects set is then days ahead of
  // the wall clock, so workerd never fires one itself; only this harness runs them.
  const dayStart = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
  const restoreDate = installSimClock(dayStart - 10 * MINUTE);
  const day = new Day();
  today = day;
  day.warmEnds = dayStart + WARM_MINUTES * MINUTE;
  const restoreFetch = countFetches(env.DECIPHER_API_URL as string, env.SLACK_API_URL as string, day.onSlack);
  try {
    const setupStart = wallNow();
    const { teams, subjects } = await setUp(n, dayStart);
    const setupSeconds = (wallNow() - setupStart) / 1000;
    // A window shorter than the day holds the day's outage near its end (after the warm-up).
    const outageAt =
      windowMinutes >= 24 * 60
        ? undefined
        : Math.max(WARM_MINUTES + 5, windowMinutes - OUTAGE_SPAN_MINUTES - 10);
    const plan = planDay(n, 0, windowMinutes, outageAt, SEED);
    for (const e of plan) day.queue.push(dayStart + e.at * MINUTE, { event: e });
    for (let m = 0; m < windowMinutes; m++) day.queue.push(dayStart + m * MINUTE, { cron: true });
    const outageStart = outageAt ?? 13 * 60 + 7;
    const markMinutes = [WARM_MINUTES, 120, outageStart, outageStart + OUTAGE_SPAN_MINUTES, windowMinutes]
      .filter((m) => m <= windowMinutes)
      .sort((a, b) => a - b);
    const marks: Record<string, Tally> = {};
    const cronEnv = (teams[0] as Team).bot.env;
    const runs = new Map<string, { runId: number; startedAt: number }>();
    const end = dayStart + windowMinutes * MINUTE;
    const simStart = wallNow();
    while (day.queue.peekAt() < end) {
      const next = day.queue.pop();
      if (!next) break;
      while (markMinutes.length > 0 && dayStart + (markMinutes[0] as number) * MINUTE <= next.at)
        marks[String(markMinutes.shift())] = snapshot();
      setSimTime(next.at);
      const { alarm, event, cron } = next.item;
      if (alarm) await day.runAlarm(alarm, next.at);
      else if (cron) {
        for (const t of teams) await standIn.clock(t.botToken, simTime());
        await day.measure("worker", () =>
          runPollCycle(cronEnv as never, readConfig(cronEnv as never), { now: new Date() }),
        );
      } else if (event) await apply(day, event, subjects, runs);
    }
    setSimTime(end);
    for (const m of markMinutes) marks[String(m)] = snapshot();
    const latency = latencies(day, end - SETTLE_MS);
    return {
      n,
      teams: teams.length,
      channels: Math.ceil(n / SUBSCRIPTIONS_PER_CHANNEL),
      windowMinutes,
      warmMinutes: WARM_MINUTES,
      outageAt: outageStart,
      outageSpanMinutes: OUTAGE_SPAN_MINUTES,
      marks,
      // A call into an object is its own invocation (bench/day/counting.ts): its wall time is
      // inside its caller's, so it adds no wall time of its own.
      invocations: {
        ...day.invocations,
        ...Object.fromEntries(
          Object.entries(callInvocations()).map(([k, v]) => [k, { ...v, maxWallMs: 0, wallMs: 0 }]),
        ),
      },
      latency,
      alarmsNotFound: day.alarmsNotFound,
      slackMethods: day.slackMethods,
      runsEnded: day.ended,
      setupSeconds,
      simulateSeconds: (wallNow() - simStart) / 1000,
    };
  } finally {
    today = null;
    restoreFetch();
    restoreDate();
  }
}

async function apply(
  day: Day,
  e: PlanEvent,
  subjects: Subject[],
  runs: Map<string, { runId: number; startedAt: number }>,
): Promise<void> {
  const s = subjects[e.subject] as Subject;
  const createdAt = new Date(simTime()).toISOString();
  if (e.kind === "run-start") {
    const run = await s.team.org.addRun(s.vendorId, "running", { createdAt });
    runs.set(e.runKey, { runId: run.id, startedAt: simTime() });
  } else if (e.kind === "run-end") {
    const run = runs.get(e.runKey);
    if (!run) return;
    await s.team.org.setRun(run.runId, e.fails ? "failed" : "passed");
    if (simTime() >= day.warmEnds) day.ended[e.fails ? "failed" : "passed"]++;
    const polled = day.lastAlarm.get(s.key);
    if (e.fails)
      day.failures.push({
        runId: run.runId,
        failedAt: simTime(),
        seenRunning: polled !== undefined && polled >= run.startedAt,
      });
  } else if (e.kind === "outage-failure") {
    const run = await s.team.org.addRun(s.vendorId, "failed", { createdAt });
    if (simTime() >= day.warmEnds) day.ended.failed++;
    day.failures.push({ runId: run.id, failedAt: simTime(), seenRunning: false });
  } else await s.team.org.grow(s.vendorId, e.sessions);
}

/** Failures of the window's last minutes may be announced after it: they are left out. */
const SETTLE_MS = 5 * MINUTE;

function latencies(day: Day, failedBefore: number): DayResult["latency"] {
  const out: DayResult["latency"] = { seenRunning: [], other: [], neverSeenRunning: 0, neverOther: 0 };
  for (const f of day.failures) {
    if (f.failedAt > failedBefore) continue;
    const at = day.announced.get(f.runId);
    if (at === undefined) {
      if (f.seenRunning) out.neverSeenRunning++;
      else out.neverOther++;
    } else (f.seenRunning ? out.seenRunning : out.other).push((at - f.failedAt) / 1000);
  }
  return out;
}

options.sizes.forEach((n, i) => {
  const windowMinutes = options.windows[i] ?? options.windows[0] ?? defaultWindow(n);
  it(`a simulated day of ${n} subscriptions (${windowMinutes} minutes simulated)`, async () => {
    console.log(`DAY_JSON ${JSON.stringify(await simulate(n, windowMinutes))}`);
  }, 3_600_000);
});
