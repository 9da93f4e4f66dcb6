import { rowsWrittenOf } from "./counting-types.ts";
import {
  type DayEstimate,
  dayOf,
  durationPerDay,
  meterOf,
  paidOf,
  quantile,
  tightest,
  usesOf,
  verdict,
} from "./day-figures.ts";
import type { DayResult } from "./day-result.ts";
import { DURATION, METERS, type Meter, PAID_BASE_PER_MONTH, PER_INVOCATION } from "./limits.ts";
import { RUN_MINUTES, RUNS_PER_DAY } from "./plan.ts";

/** The Markdown of `npm run bench:day` (bench/day/day.ts): one table per size, latency, verdicts. */

export type Context = {
  commit: string;
  at: string;
  cores: number;
  load: string[];
  seconds: number;
  label: string;
  plan: string;
};

const fmt = (v: number, digits = 0) =>
  v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (share: number) => `${fmt(100 * share, 1)} %`;
const usd = (v: number) => `$${fmt(v, 2)}`;
const secs = (v: number | null) => (v === null ? "—" : `${fmt(v, 1)} s`);

function sizeTable(r: DayResult, day: DayEstimate): string[] {
  const meters = meterOf(day.tally);
  const durationGbs = durationPerDay(r);
  const paid = paidOf(day, durationGbs);
  const out = [
    `### ${fmt(r.n)} subscriptions (${r.teams} team${r.teams === 1 ? "" : "s"}, ${r.channels} channel${r.channels === 1 ? "" : "s"}; ${r.windowMinutes >= 1440 ? "a whole day simulated" : `${r.windowMinutes} minutes simulated, scaled to a day`})`,
    "",
    "| a day | counted | per subscription | Free limit | share of Free | Paid: $ a month beyond included |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  const per = (v: number) => fmt(v / r.n, 1);
  for (const m of Object.keys(METERS) as Meter[])
    out.push(
      `| ${METERS[m].label} | ${fmt(meters[m])} | ${per(meters[m])} | ${fmt(METERS[m].freePerDay)} | ${pct(meters[m] / METERS[m].freePerDay)} | ${usd(paid.byMeter[m])} |`,
    );
  out.push(
    `| Durable Object duration, GB-s (estimated: wall time of the alarms × 128 MB, an upper bound) | ${fmt(durationGbs)} | ${per(durationGbs)} | ${fmt(DURATION.freeGbSecondsPerDay)} | ${pct(durationGbs / DURATION.freeGbSecondsPerDay)} | ${usd(paid.duration)} |`,
    `| vendor (Decipher) requests | ${fmt(day.tally.vendor)} | ${per(day.tally.vendor)} | — | — | — |`,
    `| Slack requests | ${fmt(day.tally.slack)} | ${per(day.tally.slack)} | — | — | — |`,
  );
  const inv = Object.entries(r.invocations);
  const maxOf = (f: (s: DayResult["invocations"][string]) => number) =>
    Math.max(0, ...inv.map(([, s]) => f(s)));
  const worst = (f: (s: DayResult["invocations"][string]) => number) =>
    inv.reduce(
      (a, b) => (f(b[1]) > f(a[1]) ? b : a),
      inv[0] ?? ["—", { count: 0, maxInternal: 0, maxExternal: 0, maxWallMs: 0, wallMs: 0 }],
    )[0];
  out.push(
    `| external subrequests, most in one invocation | ${maxOf((s) => s.maxExternal)} (${worst((s) => s.maxExternal)}) | | ${PER_INVOCATION.external} | ${pct(maxOf((s) => s.maxExternal) / PER_INVOCATION.external)} | — |`,
    `| internal subrequests, most in one invocation | ${maxOf((s) => s.maxInternal)} (${worst((s) => s.maxInternal)}) | | ${fmt(PER_INVOCATION.internal)} | ${pct(maxOf((s) => s.maxInternal) / PER_INVOCATION.internal)} | — |`,
    `| CPU per invocation | not measured (workerd under vitest gives no CPU time per call); wall time, most in one invocation: ${fmt(maxOf((s) => s.maxWallMs))} ms (${worst((s) => s.maxWallMs)}), mean ${fmt(
      inv.reduce((a, [, s]) => a + s.wallMs, 0) /
        Math.max(
          1,
          inv.filter(([, s]) => s.wallMs > 0).reduce((a, [, s]) => a + s.count, 0),
        ),
      1,
    )} ms | ${PER_INVOCATION.cpuMs} ms | — | — |`,
    "",
  );
  const usage = Object.values(paid.byMeter).reduce((a, b) => a + b, 0) + paid.duration;
  const requests = Object.entries(day.tally.doRequests)
    .filter(([, v]) => v > 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(", ");
  const w = day.tally.rowsWritten;
  const runs = r.runsEnded.passed + r.runsEnded.failed;
  const kvInWindow =
    (r.marks[String(r.windowMinutes)]?.kv.writes ?? 0) - (r.marks[String(r.warmMinutes)]?.kv.writes ?? 0);
  out.push(
    `Workers KV writes per run that ended (after the warm-up): ${runs > 0 ? fmt(kvInWindow / runs, 2) : "—"} (${fmt(kvInWindow)} writes over ${fmt(r.runsEnded.passed)} passed and ${fmt(r.runsEnded.failed)} failed runs).`,
    "",
    `On Workers Paid: about ${usd(PAID_BASE_PER_MONTH + usage)} a month (${usd(PAID_BASE_PER_MONTH)} base + ${usd(usage)} usage, 30-day month). Durable Object requests a day, by kind: ${requests}. Rows written a day: ${fmt(w.alarms)} by setAlarm/deleteAlarm, ${fmt(w.sql)} by SQL, ${fmt(w.storageApi)} by storage put/delete (${pct(w.alarms / Math.max(1, rowsWrittenOf(day.tally)))} alarms); by object: ${Object.entries(
      day.tally.rowsWrittenBy,
    )
      .filter(([, v]) => v > 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(", ")}; by what wrote them, per subscription: ${Object.entries(day.tally.rowsWrittenHow ?? {})
      .filter(([, v]) => v / r.n >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v / r.n, 1)}`)
      .join(", ")}.`,
    "",
  );
  return out;
}

function latencyTable(results: DayResult[]): string[] {
  const out = [
    "### Alert latency the schedule produced (simulated seconds from a run's failure to the first Slack post naming it)",
    "",
    "| subscriptions | run seen running → announced: failures, median, p90, never | any other failure → announced: failures, median, p90, never |",
    "|---:|---|---|",
  ];
  for (const r of results) {
    const l = r.latency;
    const cell = (v: number[], never: number) =>
      `${v.length + never}, ${secs(quantile(v, 0.5))}, ${secs(quantile(v, 0.9))}, ${never}`;
    out.push(`| ${fmt(r.n)} | ${cell(l.seenRunning, l.neverSeenRunning)} | ${cell(l.other, l.neverOther)} |`);
  }
  out.push(
    "",
    '"Seen running": the test\'s object ran an alarm while the run was running (its hourly runs run 3 minutes). "Other": the outage\'s runs, which fail at once (created failed), so no poll saw them running. Failures in a window\'s last 5 minutes are left out (not yet due).',
    "",
  );
  return out;
}

const how = (results: DayResult[]) =>
  `How: \`npm run bench:day\` (bench/day/day.ts → bench/day/day.bench.ts in workerd, the emulator and the Slack stand-in on loopback) subscribes N subscriptions with \`/decipher subscribe\` (nine in ten tests, one in ten collections; 20 to a channel, 3 channels to a Slack team), the teams reading one Decipher organization; every object stays in memory for the run (workerd would evict one idle for seconds of wall time, which here is minutes of simulated time; on Cloudflare an object polled every minute is rarely idle that long), then runs the simulated day: \`Date\` reads a simulated clock, the harness runs each object's alarm at the time the object set it (as the platform fires it) and the watchdog cron every simulated minute, and between them changes the vendor: each test runs ${RUNS_PER_DAY} times a day (hourly, at its own minute), each run ${RUN_MINUTES} minutes \`running\`, one in ten failing; collections grow every 3 to 6 hours by 1 to 8 sessions; once a day a third of the tests fail at once over 10 minutes (an outage). Every operation is counted where the code meets the platform (bench/day/counting.ts): each alarm run and each method call on a Durable Object stub (one billed request each), rows written (each \`setAlarm\`/\`deleteAlarm\` one row, each SQL statement's \`rowsWritten\`, each key put or deleted), rows read (SQL \`rowsRead\`, keys got or listed), KV operations, fetches to the vendor and to Slack, and each invocation's subrequests (a call into an object is that object's own invocation, with its own budget, as on the platform: what the callee does is not its caller's). ${results.some((r) => r.windowMinutes < 1440) ? "A whole day of 200 or 1,000 subscriptions is too slow for this 2-core machine (a run is kept near 10 minutes on an idle machine), so those sizes simulate a window and scale it: the steady minutes (after the first 5, outside the outage's 15) are scaled to the day's 1,425, and the outage's 15 minutes are added as counted (the window moves the outage into itself). “Is a window a fair day?” below checks that scaling on a whole simulated day. " : ""}Limits and prices: docs/cloudflare-limits.md.`;

/**
 * Rows read grow over a day (each poll reads its run ledger, which fills as the day's runs come)
 * and KV writes are highest in a day's first hours (each test's first runs change its state):
 * neither scales from a short window. The whole day's rates per subscription, applied to every size.
 */
function wholeDayRates(whole: DayResult, results: DayResult[]): string[] {
  const m = meterOf(dayOf(whole).tally);
  const per = { rowsRead: m.rowsRead / whole.n, kvWrites: m.kvWrites / whole.n };
  const sizes = results
    .filter((r) => r.windowMinutes < 24 * 60)
    .map(
      (r) =>
        `${fmt(r.n)} subscriptions would read about ${fmt(per.rowsRead * r.n)} rows (${pct((per.rowsRead * r.n) / METERS.rowsRead.freePerDay)} of Free) and write about ${fmt(per.kvWrites * r.n)} KV keys (${pct((per.kvWrites * r.n) / METERS.kvWrites.freePerDay)})`,
    );
  return [
    `Rows read grow through a day (each poll reads its test's run ledger, which fills with the day's runs), and KV writes are highest in a day's first hours (each test's first runs change its state), so a short window undercounts the one and overcounts the other (the table above). At the whole day's rates of ${fmt(whole.n)} subscriptions, ${fmt(per.rowsRead)} rows read and ${fmt(per.kvWrites, 1)} KV writes per subscription a day${sizes.length > 0 ? `, ${sizes.join("; ")}` : ""}. A ledger that already holds earlier days' runs reads more still.`,
    "",
  ];
}

export function renderDay(results: DayResult[], c: Context): string {
  const name = `day-${c.label}`;
  const out = [
    `<!-- ${name}:start (written by \`npm run bench:day\` with BENCH_DAY_WRITE=1; rerun rather than edit) -->`,
    `## A simulated day (#35): ${c.label}`,
    "",
    `The ${c.label} figures, PLAN=${c.plan}${c.label === "before" ? " (the clock at full speed, as before the governor: each subscription's object polls on its own alarm, 60 s idle, 10 s while a run is running, and renews its lease in the registry every 5 minutes)" : ""}: measured at commit ${c.commit}, ${c.at}, on ${c.cores} cores (load ${c.load.join(" / ")}), ${fmt(c.seconds)} s.`,
    "",
    how(results),
    "",
  ];
  for (const r of results) out.push(...sizeTable(r, dayOf(r)));
  out.push(...latencyTable(results));
  const whole = results.find((r) => r.windowMinutes >= 24 * 60);
  if (whole) out.push(...scalingCheck(whole), ...wholeDayRates(whole, results));
  for (const r of results) {
    const uses = usesOf(r, dayOf(r));
    const t = tightest(uses);
    out.push(
      `- ${verdict(r.n, uses)}${t.share > 1 ? `: the day runs out at about ${fmt((24 * 60) / t.share / 60, 1)} h UTC` : ""}.`,
    );
  }
  out.push("", `<!-- ${name}:end -->`);
  return out.join("\n");
}

/** Is a window scaled to a day a fair day? A whole simulated day's first two hours, scaled, against the whole. */
function scalingCheck(r: DayResult): string[] {
  const a = meterOf(dayOf(r, 120).tally);
  const b = meterOf(dayOf(r).tally);
  const out = [
    `### Is a window a fair day? ${fmt(r.n)} subscriptions: the first 2 hours scaled, against the whole day`,
    "",
    "| a day | from the first 2 hours, scaled | from the whole day | difference |",
    "|---|---:|---:|---:|",
  ];
  for (const m of Object.keys(METERS) as Meter[])
    out.push(
      `| ${METERS[m].label} | ${fmt(a[m])} | ${fmt(b[m])} | ${b[m] === 0 ? "—" : pct((a[m] - b[m]) / b[m])} |`,
    );
  out.push(
    "",
    "Both add the outage's span as counted; the windows of the larger sizes are scaled the same way.",
    "",
  );
  return out;
}
